package org.openbook.rerank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A scripted rerank server on 127.0.0.1: every {@code POST} to {@code path} is answered by the
 * script from the parsed request body. Request bodies and Authorization headers are recorded.
 */
public final class ScriptedRerankServer implements AutoCloseable {

  /** What the server sends back for one request. */
  public record Reply(int status, String body, long delayMillis) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final String path;
  private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());

  private ScriptedRerankServer(String path, Function<JsonNode, Reply> script) throws IOException {
    this.path = path;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "scripted-rerank");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(path, exchange -> {
      try (exchange) {
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        requests.add(body);
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        authorizations.add(auth == null ? "" : auth);
        Reply reply = script.apply(body);
        if (reply.delayMillis() > 0) {
          // a slow model; released early when the server closes
          closed.await(reply.delayMillis(), TimeUnit.MILLISECONDS);
        }
        send(exchange, reply);
      } catch (Exception e) {
        // the client gave up (timeout tests)
      }
    });
    server.start();
  }

  /** A server answering {@code POST path} with {@code script}. */
  public static ScriptedRerankServer start(String path, Function<JsonNode, Reply> script)
      throws IOException {
    return new ScriptedRerankServer(path, script);
  }

  private static void send(HttpExchange exchange, Reply reply) throws IOException {
    byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(reply.status(), bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** The endpoint URL, {@code http://127.0.0.1:<port><path>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** Request bodies so far. */
  public List<JsonNode> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** Authorization headers so far ("" when absent). */
  public List<String> authorizations() {
    synchronized (authorizations) {
      return List.copyOf(authorizations);
    }
  }

  /** A 200 reply with {@code body} at once. */
  public static Reply ok(String body) {
    return new Reply(200, body, 0);
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
