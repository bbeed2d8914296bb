package org.openbook.llm;

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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A scripted OpenAI-compatible chat endpoint on 127.0.0.1 ({@code POST /v1/chat/completions}).
 * Each request takes the next queued {@link Script}; when the queue is empty the last script is
 * used again (a model that keeps doing the same thing). Request bodies are recorded.
 */
public final class MockOpenAiServer implements AutoCloseable {

  /** What the server does with one request; {@code request} is the parsed JSON body. */
  @FunctionalInterface
  public interface Script {
    void respond(HttpExchange exchange, JsonNode request) throws Exception;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService executor;
  private final CountDownLatch release = new CountDownLatch(1);
  private final Deque<Script> scripts = new ArrayDeque<>();
  private Script last;
  private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
  private volatile String lastAuthorization;

  private MockOpenAiServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "mock-llm");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/v1/chat/completions", exchange -> {
      try (exchange) {
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        requests.add(body);
        lastAuthorization = exchange.getRequestHeaders().getFirst("Authorization");
        next().respond(exchange, body);
      } catch (Exception e) {
        // the client went away (timeout tests); nothing to do
      }
    });
    server.start();
  }

  /** Starts a server on a free loopback port. */
  public static MockOpenAiServer start() throws IOException {
    return new MockOpenAiServer();
  }

  /** Queues scripts for the next requests, in order. */
  public synchronized MockOpenAiServer then(Script... next) {
    scripts.addAll(List.of(next));
    return this;
  }

  private synchronized Script next() {
    Script s = scripts.poll();
    if (s != null) {
      last = s;
    }
    if (last == null) {
      throw new IllegalStateException("no script queued");
    }
    return last;
  }

  /** {@code http://127.0.0.1:<port>/v1}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** An endpoint config for this server. */
  public LlmConfig config(int timeoutSeconds) {
    return new LlmConfig(baseUrl(), "sk-test-secret", "test-model", timeoutSeconds);
  }

  /** The request bodies received so far, in order. */
  public List<JsonNode> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The Authorization header of the last request, or null. */
  public String lastAuthorization() {
    return lastAuthorization;
  }

  /** Stops the server; scripts blocked in {@link #hang()} are released. */
  @Override
  public void close() {
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  // ---- scripts ----

  /** A streamed answer: one SSE chunk per piece (plain text, escaped here), sent in one write. */
  public static Script stream(String... pieces) {
    return streamInPieces(sse(pieces), Integer.MAX_VALUE);
  }

  /**
   * A streamed answer whose text is computed from the request (e.g. to cite the right [n]),
   * sent as pieces of 4 code points in writes of {@code writeBytes} bytes (a small size cuts
   * multi-byte characters between writes).
   */
  public static Script streamFrom(Function<JsonNode, String> answer, int writeBytes) {
    return (exchange, request) -> {
      String text = answer.apply(request);
      List<String> pieces = new ArrayList<>();
      int[] cps = text.codePoints().toArray();
      for (int i = 0; i < cps.length; i += 4) {
        pieces.add(new String(cps, i, Math.min(4, cps.length - i)));
      }
      streamInPieces(sse(pieces.toArray(String[]::new)), writeBytes).respond(exchange, request);
    };
  }

  /** Sends {@code body} as an event stream in writes of {@code size} bytes, flushing each. */
  public static Script streamInPieces(byte[] body, int size) {
    return (exchange, request) -> {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      for (int i = 0; i < body.length; i += size) {
        out.write(body, i, Math.min(size, body.length - i));
        out.flush();
        if (size < body.length) {
          Thread.sleep(1);
        }
      }
    };
  }

  /** An SSE body: one chat.completion.chunk per content piece, then a stop chunk and [DONE]. */
  public static byte[] sse(String... pieces) {
    StringBuilder sb = new StringBuilder();
    for (String p : pieces) {
      ObjectNode delta = JSON.createObjectNode().put("content", p);
      sb.append("data: ").append(chunk(delta, null)).append("\n\n");
    }
    sb.append("data: ").append(chunk(JSON.createObjectNode(), "stop")).append("\n\n");
    sb.append("data: [DONE]\n\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A streamed answer that ends with {@code finishReason} (e.g. {@code length}) instead of
   * {@code stop}; null ends the stream with {@code [DONE]} and no finish reason at all.
   */
  public static Script streamEndingWith(String finishReason, String... pieces) {
    StringBuilder sb = new StringBuilder();
    for (String p : pieces) {
      ObjectNode delta = JSON.createObjectNode().put("content", p);
      sb.append("data: ").append(chunk(delta, null)).append("\n\n");
    }
    if (finishReason != null) {
      sb.append("data: ").append(chunk(JSON.createObjectNode(), finishReason)).append("\n\n");
    }
    sb.append("data: [DONE]\n\n");
    return streamInPieces(sb.toString().getBytes(StandardCharsets.UTF_8), Integer.MAX_VALUE);
  }

  /** An SSE body from raw JSON-escaped content pieces (to place lone surrogate escapes). */
  public static byte[] sseRaw(String... jsonEscapedPieces) {
    StringBuilder sb = new StringBuilder();
    for (String c : jsonEscapedPieces) {
      sb.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,")
          .append("\"model\":\"test-model\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"")
          .append(c).append("\"},\"finish_reason\":null}]}\n\n");
    }
    sb.append("data: ").append(chunk(JSON.createObjectNode(), "stop")).append("\n\n");
    sb.append("data: [DONE]\n\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String chunk(ObjectNode delta, String finishReason) {
    ObjectNode root = JSON.createObjectNode()
        .put("id", "c1").put("object", "chat.completion.chunk").put("created", 1)
        .put("model", "test-model");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    return root.toString();
  }

  /** A non-streaming completion with {@code text} and the given total token count. */
  public static Script completion(String text, int totalTokens) {
    return (exchange, request) -> {
      ObjectNode message = JSON.createObjectNode().put("role", "assistant").put("content", text);
      json(exchange, response(message, "stop", totalTokens));
    };
  }

  /** A non-streaming completion whose text is computed from the request. */
  public static Script completionFrom(Function<JsonNode, String> text) {
    return (exchange, request) -> completion(text.apply(request), 100).respond(exchange, request);
  }

  /**
   * A non-streaming assistant message that calls {@code search_knowledge_base} once per query
   * (parallel calls when several), using {@code totalTokens} tokens.
   */
  public static Script searches(int totalTokens, String... queries) {
    return (exchange, request) -> {
      ObjectNode message = JSON.createObjectNode().put("role", "assistant");
      message.putNull("content");
      ArrayNode calls = message.putArray("tool_calls");
      int i = 0;
      for (String q : queries) {
        ObjectNode call = calls.addObject();
        call.put("id", "call_" + request.path("messages").size() + "_" + i++);
        call.put("type", "function");
        call.putObject("function").put("name", AgenticAnswerer.TOOL_NAME)
            .put("arguments", JSON.createObjectNode().put("query", q).toString());
      }
      json(exchange, response(message, "tool_calls", totalTokens));
    };
  }

  /** One tool call with raw arguments (to test unusable arguments). */
  public static Script toolCall(String name, String arguments) {
    return (exchange, request) -> {
      ObjectNode message = JSON.createObjectNode().put("role", "assistant");
      message.putNull("content");
      ObjectNode call = message.putArray("tool_calls").addObject();
      call.put("id", "call_x").put("type", "function");
      call.putObject("function").put("name", name).put("arguments", arguments);
      json(exchange, response(message, "tool_calls", 100));
    };
  }

  /** An HTTP error with an OpenAI-style error body. */
  public static Script error(int status, String message) {
    return (exchange, request) -> {
      byte[] body = JSON.createObjectNode().set("error",
          JSON.createObjectNode().put("message", message)).toString()
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    };
  }

  /** Never answers (until the server is closed). */
  public Script hang() {
    return (exchange, request) -> release.await();
  }

  private static ObjectNode response(ObjectNode message, String finishReason, int totalTokens) {
    ObjectNode root = JSON.createObjectNode()
        .put("id", "c1").put("object", "chat.completion").put("created", 1)
        .put("model", "test-model");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.set("message", message);
    choice.put("finish_reason", finishReason);
    root.putObject("usage").put("prompt_tokens", totalTokens - 10)
        .put("completion_tokens", 10).put("total_tokens", totalTokens);
    return root;
  }

  private static void json(HttpExchange exchange, ObjectNode body) throws IOException {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  // ---- reading requests ----

  /** The text of every {@code tool} message of a request, in order. */
  public static List<String> toolResults(JsonNode request) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : request.path("messages")) {
      if ("tool".equals(m.path("role").asText())) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  /** The content of the last user message of a request. */
  public static String lastUserMessage(JsonNode request) {
    String out = "";
    for (JsonNode m : request.path("messages")) {
      if ("user".equals(m.path("role").asText())) {
        out = m.path("content").asText();
      }
    }
    return out;
  }

  /**
   * The number {@code n} of the passage {@code [n] (...)} in {@code text} whose body contains
   * {@code fragment}; fails the test when there is none.
   */
  public static int numberOf(String text, String fragment) {
    var m = java.util.regex.Pattern.compile("(?m)^\\[(\\d+)\\] \\(").matcher(text);
    List<int[]> starts = new ArrayList<>();
    while (m.find()) {
      starts.add(new int[] {m.start(), Integer.parseInt(m.group(1))});
    }
    for (int i = 0; i < starts.size(); i++) {
      int end = i + 1 < starts.size() ? starts.get(i + 1)[0] : text.length();
      if (text.substring(starts.get(i)[0], end).contains(fragment)) {
        return starts.get(i)[1];
      }
    }
    throw new AssertionError("no passage containing '" + fragment + "' in:\n" + text);
  }

}
