package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 30, attack suite: what a caller learns about documents it cannot read without seeing
 * them: index-wide statistics (item 3), stored answers after the caller's departments shrank
 * (item 6), and "exists but not yours" against "does not exist" (item 7).
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackLeakTest {
  private static RealServer s;

  @BeforeAll
  static void setUp() {
    s = RealServer.shared();
  }

  private static String enc(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
  }

  // ---- item 3: term statistics across departments -------------------------------------

  /**
   * An id only a finance (or hr) document holds, and a made-up id of the same shape, in
   * questions a public document otherwise answers (so gate 1 passes and the key-term check
   * decides).
   */
  static Stream<Arguments> idPairs() {
    return Stream.of(
        Arguments.of(AttackCorpus.FINANCE_ID, "FIN-QK-3804", "客服热线 %s 工作日几点开放？"),
        Arguments.of("LAYOFF-3310", "LAYOFF-4471", "客服热线 %s 工作日几点开放？"),
        Arguments.of("HRX-5521", "HRX-9034", "客服热线 %s 工作日几点开放？"),
        Arguments.of(AttackCorpus.FINANCE_ID, "FIN-QK-3804",
            "Can customers return a widget with code %s within 7 days of delivery?"),
        Arguments.of("FINBONUS-8812", "FINBONUS-7719", "When are refunds for %s issued?"),
        Arguments.of(AttackCorpus.FINANCE_ID, "FIN-QK-3804", "%s 是什么？"));
  }

  /** Issue 30 item 3: a term's presence in another department never shapes a visitor's answer. */
  @ParameterizedTest(name = "{0} vs {1}")
  @MethodSource("idPairs")
  void i30_3_should_answer_a_visitor_the_same_for_an_id_of_another_department_and_a_made_up_one(
      String existing, String madeUp, String template) throws Exception {
    JsonNode real = json(s.ask("tok-visitor", template.formatted(existing)));
    JsonNode fake = json(s.ask("tok-visitor", template.formatted(madeUp)));
    try {
      assertThat(real.get("status").asText()).as("%s: %s\n%s: %s", existing, real, madeUp, fake)
          .isEqualTo(fake.get("status").asText());
      assertThat(masked(real.get("answer").asText(), existing))
          .as("%s: %s\n%s: %s", existing, real, madeUp, fake)
          .isEqualTo(masked(fake.get("answer").asText(), madeUp));
      assertThat(masked(real.at("/diagnostics/reason").asText(), existing))
          .as("%s: %s\n%s: %s", existing, real, madeUp, fake)
          .isEqualTo(masked(fake.at("/diagnostics/reason").asText(), madeUp));
    } finally {
      // the visitor's own questions name the ids; keep them out of the shared history
      for (JsonNode a : List.of(real, fake)) {
        s.delete("/v1/conversations/" + a.get("conversationId").asText(), "tok-visitor");
      }
    }
  }

  /**
   * {@code text} with the id and each of its hyphen-separated parts replaced by a placeholder
   * of its position, so answers about two ids of the same shape compare equal.
   */
  private static String masked(String text, String id) {
    String out = text.replace(id, "<ID>");
    String[] parts = id.split("-");
    for (int i = 0; i < parts.length; i++) {
      out = out.replaceAll("(?<![A-Za-z0-9])" + java.util.regex.Pattern.quote(parts[i])
          + "(?![A-Za-z0-9])", "<P" + i + ">");
    }
    return out;
  }

  private static JsonNode publicHit(String token, String question, String source)
      throws Exception {
    for (JsonNode h : json(s.post("/v1/search", token, "{\"question\":\"" + question
        + "\",\"k\":20}")).get("hits")) {
      if (h.get("source").asText().equals(source)) {
        return h;
      }
    }
    throw new AssertionError("no hit of " + source);
  }

  /** Issue 30 item 3: adding a finance or hr document does not move a visitor's BM25 scores. */
  @Test
  void i30_3_should_keep_a_visitors_scores_when_another_department_adds_a_document()
      throws Exception {
    JsonNode before = publicHit("tok-visitor", "QUOKKAVEX", "public/returns.md");
    List<String> added = new ArrayList<>();
    try {
      for (String folder : List.of("finance", "hr")) {
        JsonNode job = s.uploadAndWait("tok-admin", folder, RealServer.file("quokka.md",
            "# QUOKKAVEX\n\nQUOKKAVEX QUOKKAVEX is the internal code of the " + folder
                + " budget line QUOKKAVEX.\n"));
        assertThat(job.get("status").asText()).as(job.toString()).isEqualTo("succeeded");
        added.add(folder + "/quokka.md");

        JsonNode after = publicHit("tok-visitor", "QUOKKAVEX", "public/returns.md");

        for (String field : List.of("sparseScore", "fusedScore", "denseScore")) {
          JsonNode b = before.get(field);
          JsonNode a = after.get(field);
          if (b == null || b.isNull()) {
            assertThat(a == null || a.isNull()).as(field).isTrue();
          } else {
            assertThat(a.asDouble()).as("visitor's %s after a %s document", field, folder)
                .isEqualTo(b.asDouble());
          }
        }
      }
    } finally {
      for (String source : added) {
        s.delete("/v1/documents/" + enc(source), "tok-admin");
      }
    }
  }

  // ---- item 6: stored answers after the departments shrank -----------------------------

  /**
   * Issue 30 item 6: after hr's departments are reduced to public and the server restarted,
   * hr's stored answers that quote hr passages are withheld or redacted everywhere.
   */
  @Test
  void i30_6_should_withhold_a_stored_answer_whose_passages_the_caller_can_no_longer_read()
      throws Exception {
    JsonNode ask = json(s.ask("tok-hr", "育儿假编号是多少？入职第一年年假几天？"));
    String id = ask.get("conversationId").asText();
    assertThat(ask.get("answer").asText()).as("hr's answer quotes the handbook")
        .containsAnyOf("HRX-5521", "7 天");
    Path reduced = s.root.resolve("openbook-hr-reduced.yaml");
    Files.writeString(reduced, s.configYaml(AttackCorpus.PRINCIPALS
        .replace("  hr: [hr]\n", "  hr: []\n")), StandardCharsets.UTF_8);
    try {
      s.restart(reduced);
      assertThat(json(s.get("/v1/me", "tok-hr")).get("departments").toString())
          .doesNotContain("\"hr\"");

      HttpResponse<String> stored = s.get("/v1/conversations/" + id, "tok-hr");
      HttpResponse<String> followUp = s.post("/v1/ask", "tok-hr", "{\"question\":\"再说一遍刚才的答案\","
          + "\"conversationId\":\"" + id + "\"}");
      HttpResponse<String> stream = s.post("/v1/ask", "tok-hr", "{\"question\":\"刚才的编号是什么？\","
          + "\"conversationId\":\"" + id + "\"}", "text/event-stream");

      for (HttpResponse<String> r : List.of(stored, followUp, stream)) {
        assertThat(r.statusCode()).isLessThan(500);
        assertThat(r.body()).doesNotContain("HRX-5521", "7 天", "员工手册", "核心工作时间");
      }
    } finally {
      s.restart(s.config);
    }
  }

  // ---- item 7: existence leaks ----------------------------------------------------------

  /**
   * Issue 30 item 7: uploading over an existing document of a department the writer cannot
   * read answers as uploading a new name does.
   */
  @Test
  void i30_7_should_answer_an_upload_over_another_departments_document_as_a_new_name()
      throws Exception {
    Path layoffs = s.docs.resolve(AttackCorpus.LAYOFF_LIST);
    String before = Files.readString(layoffs);
    List<String> created = new ArrayList<>();
    try {
      HttpResponse<String> existing = s.upload("tok-hrwriter", "reports",
          RealServer.file("裁员名单.md", "# 名单\n\n名单已作废。\n"));
      HttpResponse<String> fresh = s.upload("tok-hrwriter", "reports",
          RealServer.file("新名单-7.md", "# 名单\n\n名单已作废。\n"));
      for (HttpResponse<String> r : List.of(existing, fresh)) {
        if (r.statusCode() == 202) {
          s.awaitJob("tok-hrwriter", json(r).get("jobId").asText(), 120);
          json(r).get("files").forEach(f -> created.add(f.get("source").asText()));
        }
      }

      assertThat(existing.statusCode()).as(existing.body()).isEqualTo(fresh.statusCode());
      assertThat(existing.body()).doesNotContain("finance");
      assertThat(withoutName(existing.body())).isEqualTo(withoutName(fresh.body()));
      assertThat(Files.readString(layoffs)).isEqualTo(before);
      assertThat(s.get("/v1/documents?limit=500", "tok-admin").body())
          .contains(AttackCorpus.LAYOFF_LIST);
    } finally {
      for (String source : created) {
        if (!source.equals(AttackCorpus.LAYOFF_LIST)) {
          s.delete("/v1/documents/" + enc(source), "tok-admin");
        }
      }
    }
  }

  /** Issue 30 item 7: an upload refusal never names a document the writer cannot read. */
  @Test
  void i30_7_should_not_name_another_departments_file_in_a_409() throws Exception {
    Path budget = s.docs.resolve(AttackCorpus.FINANCE_BUDGET);
    Path aside = s.root.resolve("budget-aside.txt");
    Files.move(budget, aside);
    try {
      HttpResponse<String> r = s.upload("tok-hrwriter", "hr",
          RealServer.file("notice.md", "# Notice\n\nThe canteen opens at noon.\n"));

      assertThat(r.body()).doesNotContain("预算", "finance/");
    } finally {
      Files.move(aside, budget);
    }
  }

  private static String withoutRequestId(HttpResponse<String> r) {
    return r.body().replaceAll("\"requestId\"\\s*:\\s*\"[^\"]*\"", "");
  }

  private static double medianMillis(List<Long> nanos) {
    List<Long> sorted = new ArrayList<>(nanos);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2) / 1e6;
  }

  /**
   * Issue 30 item 7: a section of another department answers as a missing one, in body and in
   * timing class.
   */
  @Test
  void i30_7_should_answer_a_section_of_another_department_as_a_missing_one() throws Exception {
    String existing = "/v1/sections/" + enc(AttackCorpus.FINANCE_BUDGET + "#0");
    String missing = "/v1/sections/" + enc(AttackCorpus.FINANCE_BUDGET + "#97");
    assertThat(s.get(existing, "tok-admin").statusCode()).isEqualTo(200);
    List<Long> real = new ArrayList<>();
    List<Long> fake = new ArrayList<>();
    HttpResponse<String> lastReal = null;
    HttpResponse<String> lastFake = null;
    for (int i = 0; i < 60; i++) {
      long t0 = System.nanoTime();
      lastReal = s.get(existing, "tok-visitor");
      long t1 = System.nanoTime();
      lastFake = s.get(missing, "tok-visitor");
      long t2 = System.nanoTime();
      if (i >= 10) {  // warmed up
        real.add(t1 - t0);
        fake.add(t2 - t1);
      }
    }

    assertThat(lastReal.statusCode()).isEqualTo(lastFake.statusCode());
    assertThat(withoutRequestId(lastReal)).isEqualTo(withoutRequestId(lastFake));
    assertThat(medianMillis(real)).as("median ms, existing vs missing %s", medianMillis(fake))
        .isLessThanOrEqualTo(medianMillis(fake) * 1.5 + 1.0);
  }

  /** Issue 30 item 7: chunk counts only behind authentication. */
  @Test
  void i30_7_should_not_show_index_counts_without_authentication() throws Exception {
    JsonNode health = json(s.get("/healthz", null));
    String metrics = s.get("/metrics", null).body();

    assertThat(health.has("chunks")).as(health.toString()).isFalse();
    assertThat(metrics).doesNotContainPattern("(?m)^openbook_index_chunks");
  }

  /** A reply body with the uploaded file's name and the request id left out. */
  private static String withoutName(String body) {
    return body.replace("裁员名单.md", "<name>").replace("新名单-7.md", "<name>")
        .replaceAll("\"requestId\"\\s*:\\s*\"[^\"]*\"", "");
  }
}
