package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.RefusalPolicy;
import org.openbook.llm.MockOpenAiServer;
import org.openbook.llm.OpenAiGenerator;

/**
 * Issue 14 failing inputs 6 and 9 with an OpenAI-compatible LLM on 127.0.0.1: a client that
 * disconnects mid-stream cancels the upstream request (the mock sees its connection closed long
 * before the answer would end) and is counted in /metrics; a failed LLM call does not show the
 * LLM's URL to the client.
 */
class StreamCancelTest {
  @TempDir static Path root;
  static TestServer s;
  static MockOpenAiServer llm;
  static ApiServer server;
  static org.openbook.engine.OpenBook engine;
  static final CountDownLatch upstreamClosed = new CountDownLatch(1);

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1);
    llm = MockOpenAiServer.start();
    // a second engine on a copy of nothing: the same config, an LLM generator, its own index
    engine = org.openbook.engine.OpenBook.builder().index(root.resolve("index-llm"))
        .config(s.config).embedder(new org.openbook.testing.HashEmbedder())
        .generator(new OpenAiGenerator(llm.config(30), new PromptBuilder(RefusalPolicy.DEFAULT)))
        .mode(org.openbook.engine.OpenBook.Mode.RESET).build();
    engine.ingest(s.docs, org.openbook.ingest.IngestListener.NONE);
    server = new ApiServer(engine, s.docs).start("127.0.0.1", 0);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    engine.close();
    llm.close();
    s.close();
  }

  /** Streams one piece every 50 ms for up to 60 s; notes when the client (our server) hangs up. */
  private static MockOpenAiServer.Script slowAnswer() {
    return (exchange, request) -> {
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      byte[] all = MockOpenAiServer.sse("Acme ".repeat(1200).split("(?<= )"));
      String[] events = new String(all, StandardCharsets.UTF_8).split("(?<=\n\n)");
      try {
        for (String e : events) {
          out.write(e.getBytes(StandardCharsets.UTF_8));
          out.flush();
          Thread.sleep(50);
        }
      } catch (java.io.IOException gone) {
        upstreamClosed.countDown();
      }
    };
  }

  private java.net.URI uri(String path) {
    return java.net.URI.create("http://127.0.0.1:" + server.port() + path);
  }

  @Test
  void should_cancel_the_llm_request_and_count_it_when_the_client_disconnects() throws Exception {
    llm.then(slowAnswer());
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/ask"))
        .header("Authorization", "Bearer tok-visitor").header("Accept", "text/event-stream")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(q("When does the support hotline open?")))
        .build();
    HttpResponse<InputStream> r = s.http.send(req, HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader in = new BufferedReader(
        new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null && !line.equals("event: delta")) {
        // read up to the first text delta
      }
      assertThat(line).isEqualTo("event: delta");
    }  // closing the body stream closes the connection mid-answer

    // the whole answer would take 60 s; the upstream must be closed well before
    assertThat(upstreamClosed.await(30, TimeUnit.SECONDS)).isTrue();
    String metrics = "";
    for (int i = 0; i < 100 && !metrics.contains("openbook_ask_cancelled_total 1.0"); i++) {
      metrics = s.http.send(HttpRequest.newBuilder(uri("/metrics")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      Thread.sleep(50);
    }
    assertThat(metrics).contains("openbook_ask_cancelled_total 1.0");
  }

  @Test
  void should_not_show_the_llm_url_when_the_llm_call_fails() throws Exception {
    llm.then(MockOpenAiServer.error(500, "upstream exploded at " + llm.baseUrl()));

    HttpResponse<String> r = s.http.send(HttpRequest.newBuilder(uri("/v1/ask"))
            .header("Authorization", "Bearer tok-visitor")
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(q("When does the support hotline open?")))
            .build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode body = json(r);
    assertThat(body.get("status").asText()).isEqualTo("FAILED");
    assertThat(body.at("/diagnostics/reason").asText())
        .isEqualTo("the answer could not be generated");
    assertThat(r.body()).doesNotContain("127.0.0.1", llm.baseUrl(), "Exception");
  }
}
