package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.RefusalPolicy;
import org.openbook.conversation.TurnAccess;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.ingest.IngestListener;
import org.openbook.testing.HashEmbedder;

/**
 * Issue 30 item 6: after hr's departments are reduced to {@code [public]} and the server
 * restarted, the hr principal's stored answers that were written from hr documents are withheld
 * everywhere a stored answer appears (conversation reply, follow-up rewriting, feedback); its
 * answers written from public documents only still show.
 */
class StoredAnswerAccessTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static final String CONFIG = """
      principals:
        hr: %s
      gate:
        threshold: 0.1
      server:
        tokens:
          tok-hr: hr
        dataDir: %s
      """;

  @TempDir Path root;

  /** An engine over the index in {@code root} and a server on it. */
  private record Served(OpenBook engine, ApiServer server) implements AutoCloseable {
    @Override
    public void close() {
      server.close();
      try {
        engine.close();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  }

  private Served serve(String hrDepartments, OpenBook.Mode mode) throws Exception {
    Path docs = root.resolve("docs");
    Path cfg = root.resolve("openbook.yaml");
    Files.writeString(cfg, CONFIG.formatted(hrDepartments, root.resolve("data")));
    OpenBook engine = OpenBook.builder().index(root.resolve("index"))
        .config(ConfigLoader.read(cfg)).embedder(new HashEmbedder())
        .generator(new ExtractiveGenerator(RefusalPolicy.DEFAULT)).mode(mode).build();
    if (mode == OpenBook.Mode.RESET) {
      engine.ingest(docs, IngestListener.NONE);
    }
    return new Served(engine, new ApiServer(engine, docs).start("127.0.0.1", 0));
  }

  private static HttpResponse<String> send(Served s, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + s.server().port() + path))
        .header("Authorization", "Bearer tok-hr").header("Content-Type", "application/json");
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static JsonNode ask(Served s, String question, String conversationId, Integer k)
      throws Exception {
    var body = JSON.createObjectNode().put("question", question);
    if (conversationId != null) {
      body.put("conversationId", conversationId);
    }
    if (k != null) {
      body.put("k", k);
    }
    HttpResponse<String> r = send(s, "POST", "/v1/ask", body.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  @Test
  void i30_6_should_withhold_stored_answers_from_documents_the_principal_can_no_longer_read()
      throws Exception {
    for (Map.Entry<String, String> e : TestServer.CORPUS.entrySet()) {
      Path p = root.resolve("docs").resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
    }
    String id;
    try (Served before = serve("[hr]", OpenBook.Mode.RESET)) {
      JsonNode hours = ask(before, "What are the core working hours for every employee?", null,
          null);
      assertThat(hours.get("answer").asText()).contains(TestServer.HR_FACT);
      id = hours.get("conversationId").asText();
      // a turn written from one public passage only
      JsonNode hotline = ask(before, "When does the Acme support hotline open?", id, 1);
      assertThat(hotline.get("answer").asText()).contains("9:00");
      assertThat(hotline.at("/sources/0/dept").asText()).isEqualTo("public");
    }

    try (Served after = serve("[public]", OpenBook.Mode.WRITE)) {
      HttpResponse<String> got = send(after, "GET", "/v1/conversations/" + id, null);
      assertThat(got.statusCode()).isEqualTo(200);
      assertThat(got.body()).doesNotContain(TestServer.HR_FACT).doesNotContain("hr/handbook");
      JsonNode turns = JSON.readTree(got.body()).get("turns");
      assertThat(turns.get(0).get("withheld").asBoolean()).isTrue();
      assertThat(turns.get(0).get("answer").asText()).isEqualTo(TurnAccess.WITHHELD_EN);
      assertThat(turns.get(0).get("citedChunkIds")).isEmpty();
      assertThat(turns.get(0).get("sources")).isEmpty();
      assertThat(turns.get(0).get("question").asText()).contains("core working hours");
      // the public-only turn is not over-redacted
      assertThat(turns.get(1).get("withheld").asBoolean()).isFalse();
      assertThat(turns.get(1).get("answer").asText()).contains("9:00");

      // a follow-up: the rewrite works from the withheld history, and the reply holds no hr text
      JsonNode followUp = ask(after, "And what about flexible time?", id, null);
      assertThat(followUp.toString()).doesNotContain(TestServer.HR_FACT)
          .doesNotContain("hr/handbook");

      // feedback on the withheld turn stores the notice, not the hr answer or its passages
      assertThat(send(after, "POST", "/v1/feedback", "{\"conversationId\":\"" + id
          + "\",\"turn\":0,\"rating\":\"up\"}").statusCode()).isEqualTo(201);
      try (Stream<Path> files = Files.walk(root.resolve("data").resolve("feedback"))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertThat(Files.readString(f)).doesNotContain(TestServer.HR_FACT)
              .doesNotContain("hr/handbook");
        }
      }
    }

    // rights restored: the stored turn shows again (it was kept, only hidden)
    try (Served restored = serve("[hr]", OpenBook.Mode.WRITE)) {
      assertThat(send(restored, "GET", "/v1/conversations/" + id, null).body())
          .contains(TestServer.HR_FACT);
    }
  }
}
