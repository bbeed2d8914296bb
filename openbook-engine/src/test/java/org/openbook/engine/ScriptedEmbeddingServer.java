package org.openbook.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An embedding server on 127.0.0.1 speaking one of the three remote APIs, with deterministic
 * vectors (a hash of each text's character bigrams, so a question equal to a chunk's text finds
 * that chunk first) and a script that may answer a request otherwise (an error status, a closed
 * connection). Records every request.
 */
final class ScriptedEmbeddingServer implements AutoCloseable {

  /** The wire formats. */
  enum Api {
    OPENAI("/v1/embeddings"), OLLAMA("/api/embed"), TEI("/embed");

    final String path;

    Api(String path) {
      this.path = path;
    }
  }

  /** A scripted answer; {@link #NORMAL} embeds as usual. */
  record Reply(int status, String body, Map<String, String> headers, boolean close) {
    static final Reply NORMAL = new Reply(200, null, Map.of(), false);

    static Reply status(int status, String body, Map<String, String> headers) {
      return new Reply(status, body, headers, false);
    }

    static Reply closeConnection() {
      return new Reply(0, null, Map.of(), true);
    }
  }

  /** Decides the answer to request number {@code n} (1-based). */
  interface Script {
    Reply reply(int n, List<String> texts);
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Api api;
  private final int dimension;
  private final HttpServer server;
  private final ExecutorService pool = Executors.newFixedThreadPool(4);
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
  private final List<List<String>> inputs = Collections.synchronizedList(new ArrayList<>());
  private volatile Script script = (n, texts) -> Reply.NORMAL;
  private volatile int vectorLength;

  private ScriptedEmbeddingServer(Api api, int dimension) throws IOException {
    this.api = api;
    this.dimension = dimension;
    this.vectorLength = dimension;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(api.path, this::handle);
    server.setExecutor(pool);
    server.start();
  }

  static ScriptedEmbeddingServer start(Api api, int dimension) throws IOException {
    return new ScriptedEmbeddingServer(api, dimension);
  }

  /** The base URL to configure: {@code …/v1} for OpenAI, the server root otherwise. */
  String baseUrl() {
    String root = "http://127.0.0.1:" + server.getAddress().getPort();
    return api == Api.OPENAI ? root + "/v1" : root;
  }

  ScriptedEmbeddingServer script(Script s) {
    this.script = s;
    return this;
  }

  /** Vectors of this length from now on (a model swapped behind the endpoint). */
  void vectorLength(int n) {
    this.vectorLength = n;
  }

  int requests() {
    return requests.get();
  }

  int maxInFlight() {
    return maxInFlight.get();
  }

  List<String> authorizations() {
    return List.copyOf(authorizations);
  }

  List<List<String>> inputs() {
    return List.copyOf(inputs);
  }

  /** The deterministic vector of {@code text}: counts of its character bigrams, hashed. */
  static float[] hashVector(String text, int dimension) {
    float[] v = new float[dimension];
    String t = text.toLowerCase(Locale.ROOT);
    for (int i = 0; i + 1 < t.length(); i++) {
      int h = (t.charAt(i) * 31 + t.charAt(i + 1)) * 0x9E3779B1;
      v[Math.floorMod(h, dimension)] += 1;
    }
    v[0] += 0.01f; // never the zero vector
    return v;
  }

  private void handle(HttpExchange ex) throws IOException {
    int n = requests.incrementAndGet();
    int now = inFlight.incrementAndGet();
    maxInFlight.accumulateAndGet(now, Math::max);
    try {
      authorizations.add(String.valueOf(ex.getRequestHeaders().getFirst("Authorization")));
      JsonNode body = JSON.readTree(ex.getRequestBody().readAllBytes());
      List<String> texts = texts(body);
      inputs.add(texts);
      Reply r = script.reply(n, texts);
      if (r.close()) {
        ex.close(); // no status line: the client sees the connection end
        return;
      }
      if (r.status() != 200) {
        r.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
        send(ex, r.status(), r.body() == null ? "{\"error\":\"scripted\"}" : r.body());
        return;
      }
      send(ex, 200, reply(texts));
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private List<String> texts(JsonNode body) {
    JsonNode in = body.get(api == Api.TEI ? "inputs" : "input");
    List<String> out = new ArrayList<>();
    if (in.isArray()) {
      in.forEach(x -> out.add(x.asText()));
    } else {
      out.add(in.asText());
    }
    return out;
  }

  private String reply(List<String> texts) {
    int len = vectorLength;
    ArrayNode vectors = JSON.createArrayNode();
    for (String t : texts) {
      ArrayNode v = vectors.addArray();
      for (float f : hashVector(t, dimension)) {
        if (v.size() < len) {
          v.add(f);
        }
      }
      while (v.size() < len) {
        v.add(0.5f);
      }
    }
    return switch (api) {
      case TEI -> vectors.toString();
      case OLLAMA -> {
        ObjectNode root = JSON.createObjectNode();
        root.put("model", "scripted");
        root.set("embeddings", vectors);
        yield root.toString();
      }
      case OPENAI -> {
        ObjectNode root = JSON.createObjectNode();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (int i = 0; i < vectors.size(); i++) {
          ObjectNode d = data.addObject();
          d.put("object", "embedding");
          d.put("index", i);
          d.set("embedding", vectors.get(i));
        }
        root.put("model", "scripted");
        root.putObject("usage").put("prompt_tokens", 1).put("total_tokens", 1);
        yield root.toString();
      }
    };
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
