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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.ingest.IngestListener;
import org.openbook.testing.HashEmbedder;

/**
 * Issue 30 item 3: statistics that shape what a caller is told (key-term presence, document
 * frequencies behind refusals and notes, gate 1's rarity) are counted over what the caller may
 * read, and raw scores are shown to writers only. The engine answers with its own extractive
 * generator (gate 2 with key-term coverage), unlike {@link TestServer}'s plain one.
 */
class TermStatisticsIsolationTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Only in the finance document. */
  static final String FINANCE_ID = "KX-7731";
  /** In no document; the same shape as {@link #FINANCE_ID}. */
  static final String MADE_UP_ID = "QZ-4482";
  /** Only in the hr document. */
  static final String HR_WORD = "饕餮";
  static final String MADE_UP_WORD = "貔貅";

  static final Map<String, String> CORPUS = Map.of(
      "travel.md", """
          ---
          dept: public
          ---
          # Business travel

          Employees book business trips through the travel portal. Hotel costs of business trips \
          are refunded after the trip when the receipts are uploaded.
          """,
      "annual.md", """
          ---
          dept: public
          ---
          # 公司年会

          公司年会每年十二月在总部礼堂举行，全体员工参加。年会的节目由各部门准备。
          """,
      "finance/ledger.md", """
          ---
          dept: finance
          ---
          # Cost centres

          The cost centre KX-7731 pays for business trips of the board. Its budget is confidential.
          """,
      "hr/welfare.md", """
          ---
          dept: hr
          ---
          # 员工福利

          年会的饕餮晚宴由工会承办，费用从福利预算中支出。
          """);

  static final String CONFIG = """
      principals:
        visitor: []
        editor: []
        admin: [hr, finance]
      gate:
        threshold: 0.1
      server:
        tokens:
          tok-visitor: visitor
          tok-editor: editor
          tok-admin: admin
        writers: [admin, editor]
      """;

  @TempDir static Path root;
  /** The corpus as above. */
  static Served full;
  /** The same corpus without the hr and finance documents: what a visitor may read of it. */
  static Served publicOnly;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  /** An engine and its server. */
  record Served(OpenBook engine, ApiServer server) {}

  static Served serve(Path dir, boolean restricted) throws Exception {
    Path docs = dir.resolve("docs");
    for (Map.Entry<String, String> e : CORPUS.entrySet()) {
      if (!restricted && e.getKey().contains("/")) {
        continue;
      }
      Path p = docs.resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
    }
    Path cfg = dir.resolve("openbook.yaml");
    Files.writeString(cfg, CONFIG);
    // no generator given: the engine's extractive generator with key-term coverage (gate 2)
    OpenBook engine = OpenBook.builder().index(dir.resolve("index"))
        .config(ConfigLoader.read(cfg)).embedder(new HashEmbedder()).mode(OpenBook.Mode.RESET)
        .build();
    engine.ingest(docs, IngestListener.NONE);
    return new Served(engine, new ApiServer(engine, docs).start("127.0.0.1", 0));
  }

  @BeforeAll
  static void start() throws Exception {
    full = serve(root.resolve("full"), true);
    publicOnly = serve(root.resolve("public"), false);
  }

  @AfterAll
  static void stop() throws Exception {
    for (Served s : new Served[] {full, publicOnly}) {
      s.server().close();
      s.engine().close();
    }
  }

  static JsonNode post(String path, String token, String question) throws Exception {
    return post(full, path, token, question);
  }

  static JsonNode post(Served to, String path, String token, String question)
      throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + to.server().port() + path))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(
            JSON.createObjectNode().put("question", question).toString(),
            StandardCharsets.UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  /** What a visitor can tell apart: status, the text with the term masked, the sources cited. */
  static String shape(JsonNode ask, String term) {
    StringBuilder s = new StringBuilder(ask.get("status").asText()).append(" | ")
        .append(ask.get("answer").asText().replace(term, "<TERM>")).append(" |");
    for (JsonNode c : ask.get("citations")) {
      s.append(' ').append(c.get("chunkId").asText());
    }
    for (JsonNode c : ask.get("sources")) {
      s.append(' ').append(c.get("chunkId").asText());
    }
    // a visitor is not shown the evidence figures (ScoreVisibility); a public-only writer is
    s.append(" | ").append(ask.at("/diagnostics/bestLexicalEvidence").asText());
    return s.toString();
  }

  @Test
  void i30_3_should_answer_a_visitor_about_an_id_only_finance_holds_as_about_a_made_up_id()
      throws Exception {
    String question = "Which cost centre %s pays for business trips?";
    JsonNode finance = post("/v1/ask", "tok-visitor", question.formatted(FINANCE_ID));
    JsonNode madeUp = post("/v1/ask", "tok-visitor", question.formatted(MADE_UP_ID));

    assertThat(finance.get("status").asText()).isNotEqualTo("ANSWERED");
    assertThat(shape(finance, FINANCE_ID)).isEqualTo(shape(madeUp, MADE_UP_ID));
    assertThat(finance.get("answer").asText()).contains("say nothing about " + FINANCE_ID);
    // and exactly what the visitor is told where the finance document does not exist
    assertThat(shape(finance, FINANCE_ID)).isEqualTo(
        shape(post(publicOnly, "/v1/ask", "tok-visitor", question.formatted(FINANCE_ID)),
            FINANCE_ID));
    assertThat(finance.toString()).doesNotContain("ledger").doesNotContain("confidential");
    // the gate's evidence, as a writer who reads public only sees it: the same as without finance
    JsonNode editor = post("/v1/ask", "tok-editor", question.formatted(FINANCE_ID));
    assertThat(editor.at("/diagnostics/bestLexicalEvidence").isNumber()).isTrue();
    assertThat(shape(editor, FINANCE_ID)).isEqualTo(
        shape(post(publicOnly, "/v1/ask", "tok-editor", question.formatted(FINANCE_ID)),
            FINANCE_ID));
  }

  @Test
  void i30_3_should_tell_a_visitor_the_same_about_words_only_hr_holds_as_without_the_hr_document()
      throws Exception {
    // 饕餮 is the rare word; 工会 and 福利 are hr-only too; 貔貅 is in no document
    for (String word : new String[] {HR_WORD, "工会", "福利", MADE_UP_WORD}) {
      String question = "公司年会的%s晚宴在哪里举行？".formatted(word);
      JsonNode withHr = post("/v1/ask", "tok-visitor", question);
      JsonNode withoutHr = post(publicOnly, "/v1/ask", "tok-visitor", question);

      assertThat(shape(withHr, word)).as(word).isEqualTo(shape(withoutHr, word));
      assertThat(shape(post("/v1/ask", "tok-editor", question), word)).as(word)
          .isEqualTo(shape(post(publicOnly, "/v1/ask", "tok-editor", question), word));
      assertThat(withHr.toString()).doesNotContain("工会承办").doesNotContain("welfare");
    }
    // the words of the hr document asked about directly
    String direct = "饕餮晚宴由谁承办？费用从哪里支出？";
    assertThat(shape(post("/v1/ask", "tok-visitor", direct), HR_WORD))
        .isEqualTo(shape(post(publicOnly, "/v1/ask", "tok-visitor", direct), HR_WORD));
  }

  @Test
  void i30_3_should_hide_raw_scores_from_a_visitor_and_show_them_to_a_writer() throws Exception {
    JsonNode visitor = post("/v1/search", "tok-visitor", "business trips hotel costs");
    JsonNode admin = post("/v1/search", "tok-admin", "business trips hotel costs");
    JsonNode ask = post("/v1/ask", "tok-visitor", "How are hotel costs of business trips refunded?");

    assertThat(visitor.get("hits")).isNotEmpty();
    for (JsonNode h : visitor.get("hits")) {
      assertThat(h.has("chunkId")).isTrue();
      assertThat(h.has("denseRank")).isTrue();
      for (String f : ScoreVisibility.RAW_SCORES) {
        assertThat(h.has(f)).as(f).isFalse();
      }
    }
    assertThat(ask.get("sources")).isNotEmpty();
    for (JsonNode h : ask.get("sources")) {
      for (String f : ScoreVisibility.RAW_SCORES) {
        assertThat(h.has(f)).as(f).isFalse();
      }
    }
    assertThat(admin.get("hits").get(0).has("sparseScore")).isTrue();
    assertThat(admin.get("hits").get(0).has("fusedScore")).isTrue();
    // the summary scores are the same quantities under other names
    for (String f : ScoreVisibility.SUMMARY_SCORES) {
      assertThat(visitor.has(f)).as(f).isFalse();
      assertThat(visitor.at("/diagnostics").has(f)).as(f).isFalse();
      assertThat(ask.at("/diagnostics").has(f)).as(f).isFalse();
    }
    assertThat(admin.get("bestDenseScore").isNumber()).isTrue();
  }
}
