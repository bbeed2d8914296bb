package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The failing inputs of issue 14 (numbered as there), each with the right behaviour, plus a
 * further input of the same kind.
 */
class ServerHardeningTest {
  @TempDir static Path root;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private static String financeChunks() throws Exception {
    return s.engine.store().documents().stream()
        .filter(d -> d.source().equals("finance/bonus.md")).findFirst().orElseThrow().dept();
  }

  // 1 ---------------------------------------------------------------------------------------

  @Test
  void f1_should_refuse_a_writer_replacing_a_document_of_a_department_it_cannot_read()
      throws Exception {
    String before = Files.readString(s.docs.resolve("finance/bonus.md"));

    // no front matter: the new file would be public, the indexed one is finance
    HttpResponse<String> r = s.upload("tok-editor", "finance",
        Map.of("bonus.md", "# 年度奖金发放办法\n\n奖金全部取消。\n"));

    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(json(r).at("/error/field").asText()).isEqualTo("files[0]");
    assertThat(Files.readString(s.docs.resolve("finance/bonus.md"))).isEqualTo(before);
    assertThat(financeChunks()).isEqualTo("finance");
  }

  @Test
  void f1_should_refuse_a_writer_replacing_another_departments_document_declaring_public()
      throws Exception {
    HttpResponse<String> r = s.upload("tok-editor", "hr",
        Map.of("handbook.md", "---\ndept: public\n---\n# Handbook\n\nCore hours are gone.\n"));

    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(Files.readString(s.docs.resolve("hr/handbook.md"))).contains(TestServer.HR_FACT);
  }

  // 2 ---------------------------------------------------------------------------------------

  @Test
  void f2_should_list_only_the_uploaded_sources_in_the_job_result_and_hide_jobs_of_others()
      throws Exception {
    HttpResponse<String> accepted = s.upload("tok-editor", "notes",
        Map.of("f2.md", "# F2\n\nThe pelican rota is on the wall.\n"));
    String jobId = json(accepted).get("jobId").asText();
    JsonNode job = s.awaitJob("tok-editor", jobId);

    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    assertThat(job.at("/result/files")).hasSize(1);
    assertThat(job.at("/result/files/0/source").asText()).isEqualTo("notes/f2.md");
    assertThat(job.toString()).doesNotContain("finance", "hr/");
    assertThat(s.get("/v1/jobs/" + jobId, "tok-admin").statusCode()).isEqualTo(404);
  }

  // 3 ---------------------------------------------------------------------------------------

  @Test
  void f3_should_answer_a_520_character_chinese_question_without_a_500() throws Exception {
    String question = "请问".repeat(260);

    HttpResponse<String> search = s.post("/v1/search", "tok-visitor", q(question));
    HttpResponse<String> ask = s.post("/v1/ask", "tok-visitor", q(question));

    assertThat(search.statusCode()).isEqualTo(200);
    assertThat(ask.statusCode()).isEqualTo(200);
    assertThat(json(ask).get("status").asText()).isNotEqualTo("FAILED");
  }

  @Test
  void f3_should_refuse_a_question_over_the_limit_with_400_naming_question_and_limit()
      throws Exception {
    // ASCII so the body stays under the test server's 2 KiB body limit
    String question = "q".repeat(ApiServer.MAX_QUESTION_CHARS + 1);

    for (String path : new String[] {"/v1/search", "/v1/ask"}) {
      HttpResponse<String> r = s.post(path, "tok-visitor", q(question));
      assertThat(r.statusCode()).isEqualTo(400);
      assertThat(json(r).at("/error/field").asText()).isEqualTo("question");
      assertThat(json(r).at("/error/message").asText())
          .contains(Integer.toString(ApiServer.MAX_QUESTION_CHARS));
    }
  }

  // 4 ---------------------------------------------------------------------------------------

  @Test
  void f4_should_roll_back_an_upload_interrupted_by_a_kill_when_the_server_starts()
      throws Exception {
    // the state a SIGKILL between "move into the docs folder" and "commit" leaves behind
    Path staging = s.docs.resolve(".openbook-upload");
    Files.createDirectories(staging);
    String aboutBefore = Files.readString(s.docs.resolve("about.md"));
    Files.copy(s.docs.resolve("about.md"), staging.resolve("bk-1.md"));
    Files.writeString(s.docs.resolve("about.md"), "# About\n\nHalf-written upload.\n");
    Files.createDirectories(s.docs.resolve("crash"));
    Files.writeString(s.docs.resolve("crash/new.md"), "# New\n\nThe walrus index.\n");
    Files.writeString(staging.resolve("up-123.md"), "left over");
    Files.writeString(staging.resolve("journal.json"), "{\"entries\":["
        + "{\"source\":\"about.md\",\"backup\":\"bk-1.md\"},"
        + "{\"source\":\"crash/new.md\",\"backup\":null}]}");

    try (ApiServer restarted = new ApiServer(s.engine, s.docs)) {
      assertThat(Files.readString(s.docs.resolve("about.md"))).isEqualTo(aboutBefore);
      assertThat(Files.exists(s.docs.resolve("crash/new.md"))).isFalse();
      assertThat(Files.list(staging).toList()).isEmpty();
      assertThat(s.engine.store().documentHashes()).doesNotContainKey("crash/new.md")
          .containsEntry("about.md", AuditLog.sha256(aboutBefore));
    }
  }

  @Test
  void f4_should_delete_a_file_that_is_on_disk_but_not_indexed_and_never_index_it_by_accident()
      throws Exception {
    Files.writeString(s.docs.resolve("stray.md"), "# Stray\n\nThe narwhal ledger.\n");
    Files.writeString(s.docs.resolve("stray-finance.md"),
        "---\ndept: finance\n---\n# Stray\n\nThe narwhal budget.\n");

    // an unrelated upload touches only its own file
    JsonNode job = s.uploadAndWait("tok-editor", null, Map.of("f4.md", "# F4\n\nOtter.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    assertThat(s.engine.store().documentHashes()).doesNotContainKeys("stray.md",
        "stray-finance.md");

    HttpResponse<String> del = s.delete("/v1/documents/stray.md", "tok-editor");
    HttpResponse<String> hidden = s.delete("/v1/documents/stray-finance.md", "tok-editor");

    assertThat(del.statusCode()).isEqualTo(200);
    assertThat(Files.exists(s.docs.resolve("stray.md"))).isFalse();
    assertThat(hidden.statusCode()).isEqualTo(404);
    assertThat(Files.exists(s.docs.resolve("stray-finance.md"))).isTrue();
    assertThat(s.delete("/v1/documents/stray-finance.md", "tok-admin").statusCode())
        .isEqualTo(200);
  }

  // 5 and 9 ---------------------------------------------------------------------------------

  @Test
  void f5_f9_should_fail_before_streaming_with_a_generic_500_when_the_audit_log_is_unwritable()
      throws Exception {
    Files.deleteIfExists(s.auditLog);
    Files.createDirectories(s.auditLog);  // a folder where the file should be: writes fail
    try {
      HttpResponse<String> stream = s.post("/v1/ask", "tok-visitor",
          q("When does the support hotline open?"), "text/event-stream");
      HttpResponse<String> plain = s.post("/v1/ask", "tok-visitor",
          q("When does the support hotline open?"));
      HttpResponse<String> search = s.post("/v1/search", "tok-visitor", q("hotline"));

      for (HttpResponse<String> r : java.util.List.of(stream, plain, search)) {
        assertThat(r.statusCode()).isEqualTo(500);
        assertThat(r.headers().firstValue("Content-Type").orElse(""))
            .startsWith("application/json");
        String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();
        assertThat(json(r).at("/error/requestId").asText()).isEqualTo(requestId);
        assertThat(json(r).at("/error/message").asText())
            .isEqualTo("internal error; quote request id " + requestId);
        assertThat(r.body()).doesNotContain(root.toString(), "Exception", "audit.log");
      }
    } finally {
      Files.delete(s.auditLog);
    }
  }

  // 7 ---------------------------------------------------------------------------------------

  @Test
  void f7_should_refuse_a_253_byte_file_name_with_a_plain_400() throws Exception {
    String name = "a" + "年".repeat(83) + ".md";  // 1 + 83 * 3 + 3 bytes
    assertThat(name.getBytes(StandardCharsets.UTF_8)).hasSize(253);

    HttpResponse<String> r = s.upload("tok-editor", null, Map.of(name, "# Long\n\ntext\n"));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(json(r).at("/error/field").asText()).isEqualTo("files[0]");
    assertThat(json(r).at("/error/message").asText()).contains("too long", "200");
    assertThat(r.body()).doesNotContain(root.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"bad\u0000name.md", "bell\u0007name.md", ".hidden.md"})
  void f7_should_refuse_a_file_name_with_nul_control_characters_or_a_leading_dot_with_400(
      String name) throws Exception {
    HttpResponse<String> r = rawUpload(name);

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).doesNotContain("org.eclipse", "jetty", "Jetty", root.toString());
  }

  /** A multipart upload whose file name is written byte for byte (no escaping). */
  private static HttpResponse<String> rawUpload(String filename) throws Exception {
    String boundary = "----b";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; "
        + "filename=\"" + filename + "\"\r\nContent-Type: text/markdown\r\n\r\n# x\n\ny\n\r\n--"
        + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return s.http.send(HttpRequest.newBuilder(s.uri("/v1/documents"))
            .header("Content-Type", "multipart/form-data; boundary=" + boundary)
            .header("Authorization", "Bearer tok-editor")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  // 8 ---------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"/", "/app.js", "/healthz", "/metrics", "/v1/me", "/v1/documents",
      "/v1/no-such", "/no-such-file"})
  void f8_should_send_security_headers_on_every_response(String path) throws Exception {
    for (String token : new String[] {"tok-visitor", null}) {
      HttpResponse<String> r = s.get(path, token);

      assertThat(r.headers().firstValue("Content-Security-Policy").orElse(""))
          .contains("frame-ancestors 'none'", "script-src 'self'")
          .doesNotContain("unsafe-inline");
      assertThat(r.headers().firstValue("X-Content-Type-Options")).contains("nosniff");
      assertThat(r.headers().firstValue("Referrer-Policy")).contains("no-referrer");
      assertThat(r.headers().firstValue("X-Request-Id")).isPresent();
    }
  }

  // 10 --------------------------------------------------------------------------------------

  @Test
  void f10_should_accept_an_upload_as_a_job_and_report_progress_and_result() throws Exception {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("one.md", "# One\n\nThe heron timetable.\n");
    files.put("two.md", "# Two\n\nThe egret timetable.\n");

    HttpResponse<String> accepted = s.upload("tok-editor", "jobs", files);

    assertThat(accepted.statusCode()).isEqualTo(202);
    String jobId = json(accepted).get("jobId").asText();
    assertThat(accepted.headers().firstValue("Location")).contains("/v1/jobs/" + jobId);
    JsonNode job = s.awaitJob("tok-editor", jobId);
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    assertThat(job.at("/progress/done").asInt()).isEqualTo(2);
    assertThat(job.at("/progress/total").asInt()).isEqualTo(2);
    assertThat(job.at("/result/added").asInt()).isEqualTo(2);
    assertThat(job.get("error").isNull()).isTrue();
    assertThat(s.engine.store().documentHashes()).containsKeys("jobs/one.md", "jobs/two.md");
  }

  @Test
  void should_open_the_whole_section_of_a_source_card_with_its_title() throws Exception {
    JsonNode hit = json(s.post("/v1/search", "tok-hr",
        "{\"question\":\"annual leave vice president approval\",\"k\":1}")).at("/hits/0");

    JsonNode section = json(s.get("/v1/sections/" + java.net.URLEncoder.encode(
        hit.get("chunkId").asText(), StandardCharsets.UTF_8), "tok-hr"));

    assertThat(hit.get("title").asText()).isEqualTo("Employee handbook");
    assertThat(section.get("title").asText()).isEqualTo("Employee handbook");
    assertThat(section.get("headingPath").asText()).isEqualTo(hit.get("headingPath").asText());
    assertThat(section.get("text").asText()).contains(hit.get("text").asText());
    assertThat(section.get("chunkIds")).extracting(JsonNode::asText)
        .contains(hit.get("chunkId").asText());
    assertThat(s.get("/v1/sections/" + java.net.URLEncoder.encode(
        hit.get("chunkId").asText(), StandardCharsets.UTF_8), "tok-visitor").statusCode())
        .isEqualTo(404);
  }

  @Test
  void should_tell_the_caller_who_it_is() throws Exception {
    JsonNode admin = json(s.get("/v1/me", "tok-admin"));
    JsonNode visitor = json(s.get("/v1/me", "tok-visitor"));

    assertThat(admin.get("principal").asText()).isEqualTo("admin");
    assertThat(admin.get("departments")).extracting(JsonNode::asText)
        .containsExactly("finance", "hr", "public");
    assertThat(admin.get("writer").asBoolean()).isTrue();
    assertThat(visitor.get("departments")).extracting(JsonNode::asText).containsExactly("public");
    assertThat(visitor.get("writer").asBoolean()).isFalse();
  }

  @Test
  void should_page_the_document_library() throws Exception {
    JsonNode all = json(s.get("/v1/documents?limit=500", "tok-admin"));
    JsonNode page = json(s.get("/v1/documents?offset=1&limit=2", "tok-admin"));

    assertThat(page.get("total").asInt()).isEqualTo(all.get("total").asInt());
    assertThat(page.get("documents")).hasSize(2);
    assertThat(page.at("/documents/0/source").asText())
        .isEqualTo(all.at("/documents/1/source").asText());
    assertThat(all.get("documents").findValuesAsText("title")).contains("Annual bonus policy");
    assertThat(s.get("/v1/documents?limit=0", "tok-admin").statusCode()).isEqualTo(400);
  }
}
