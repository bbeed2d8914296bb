package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a newcomer met on first use of {@code openbook serve}: wrong methods, uploads into a folder
 * without an access rule, and a server started on another docs folder than the index's.
 */
class ServerFirstUseTest {

  @TempDir static Path root;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1, null, "access:\n  folders:\n    finance/: [finance]\n");
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private HttpResponse<String> send(String method, String path) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(s.uri(path))
        .method(method, HttpRequest.BodyPublishers.noBody())
        .header("Authorization", "Bearer tok-admin").build();
    return s.http.send(r, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  @Test
  void should_answer_405_with_allow_for_a_wrong_method_on_a_known_route() throws Exception {
    HttpResponse<String> search = send("GET", "/v1/search");
    HttpResponse<String> ask = send("DELETE", "/v1/ask");
    HttpResponse<String> feedback = send("PUT", "/v1/feedback");
    HttpResponse<String> unknown = send("GET", "/v1/no-such-route");

    assertThat(search.statusCode()).isEqualTo(405);
    assertThat(search.headers().firstValue("Allow")).hasValue("POST");
    assertThat(json(search).at("/error/message").asText()).contains("allowed: POST");
    assertThat(ask.statusCode()).isEqualTo(405);
    assertThat(ask.headers().firstValue("Allow")).hasValue("POST");
    assertThat(feedback.statusCode()).isEqualTo(405);
    assertThat(feedback.headers().firstValue("Allow").orElseThrow()).contains("GET", "POST");
    assertThat(unknown.statusCode()).isEqualTo(404);
  }

  @Test
  void should_warn_when_the_upload_folder_has_no_rule_and_show_each_files_department()
      throws Exception {
    HttpResponse<String> r = s.upload("tok-admin", "hr",
        Map.of("leave.md", "# 请假\n\n病假需附医院证明。\n"));

    assertThat(r.statusCode()).isEqualTo(202);
    JsonNode reply = json(r);
    assertThat(reply.at("/files/0/source").asText()).isEqualTo("hr/leave.md");
    assertThat(reply.at("/files/0/dept").asText()).isEqualTo("public");
    assertThat(reply.get("warnings")).hasSize(1);
    assertThat(reply.at("/warnings/0").asText()).contains("folder 'hr' has no access.folders rule",
        "public", "access.folders: {hr/: [<department>]}");
    JsonNode job = s.awaitJob("tok-admin", reply.get("jobId").asText());
    assertThat(job.path("status").asText()).isEqualTo("succeeded");
    assertThat(job.at("/result/files/0/dept").asText()).isEqualTo("public");
    assertThat(job.at("/result/files/0/status").asText()).isEqualTo("added");
  }

  @Test
  void should_not_warn_when_a_rule_or_the_files_own_metadata_gives_the_department()
      throws Exception {
    HttpResponse<String> ruled = s.upload("tok-admin", "finance",
        Map.of("budget.md", "# 预算\n\n差旅预算每人每年一万元。\n"));
    HttpResponse<String> own = s.upload("tok-admin", "notes",
        Map.of("rota.md", "---\ndept: hr\n---\n# 排班\n\n周末两人值班。\n"));

    assertThat(ruled.statusCode()).isEqualTo(202);
    assertThat(json(ruled).at("/files/0/dept").asText()).isEqualTo("finance");
    assertThat(json(ruled).get("warnings")).isEmpty();
    JsonNode job = s.awaitJob("tok-admin", json(ruled).get("jobId").asText());
    assertThat(job.at("/result/files/0/dept").asText()).isEqualTo("finance");
    assertThat(own.statusCode()).isEqualTo(202);
    assertThat(json(own).at("/files/0/dept").asText()).isEqualTo("hr");
    assertThat(json(own).get("warnings")).isEmpty();
    s.awaitJob("tok-admin", json(own).get("jobId").asText());
  }

  @Test
  void should_refuse_uploads_at_once_when_serving_another_docs_folder() throws Exception {
    Path other = Files.createDirectories(root.resolve("other-docs"));
    try (ApiServer wrong = new ApiServer(s.engine, other).start("127.0.0.1", 0)) {
      assertThat(wrong.writesDisabled()).hasValueSatisfying(
          w -> assertThat(w).contains("writes are disabled", "--docs"));
      HttpResponse<String> r = s.uploadTo(wrong.port(), "tok-admin", "hr",
          Map.of("x.md", "# X\n\n内容。\n"));

      assertThat(r.statusCode()).isEqualTo(409);
      assertThat(json(r).at("/error/message").asText()).contains("writes are disabled",
          "Serve with --docs set to the folder the index was built from");
      try (var files = Files.list(other)) {
        assertThat(files.filter(p -> !p.getFileName().toString().startsWith("."))).isEmpty();
      }
    }
  }
}
