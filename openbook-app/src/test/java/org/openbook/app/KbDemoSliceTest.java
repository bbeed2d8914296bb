package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.answer.Generator;
import org.openbook.answer.RefusalPolicy;
import org.openbook.answer.Source;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.IndexMismatchException;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.testing.HashEmbedder;
import org.openbook.testing.SharedData;

/**
 * The vertical slice end to end on the kb-demo knowledge base with the real bge-small-zh-v1.5
 * model: ingest, permission filtering in every route, identifier ranking, gate 1, numbered
 * sources, and reopening the index in a new process.
 */
class KbDemoSliceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Path docs;
  private static Path index;
  private static OpenBookConfig config;
  private static OpenBook engine;
  private static IngestReport report;
  private static List<JsonNode> cases;

  @BeforeAll
  static void ingest(@TempDir Path tmp) throws IOException {
    docs = SharedData.require("fixtures/kb-demo/docs");
    config = ConfigLoader.read(Path.of("../examples/openbook.yaml"));
    index = tmp.resolve("kb");
    // the default models, as the CLI opens the index (bge-small-zh plus the English route)
    engine = OpenBook.builder().index(index).config(config).mode(OpenBook.Mode.RESET).build();
    report = engine.ingest(docs, org.openbook.ingest.IngestListener.NONE);
    cases = new ArrayList<>();
    for (String line : Files.readAllLines(docs.resolveSibling("cases.jsonl"))) {
      if (!line.isBlank()) {
        cases.add(JSON.readTree(line));
      }
    }
  }

  @AfterAll
  static void close() throws IOException {
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void should_index_every_demo_file_and_decode_the_gbk_one() throws IOException {
    assertThat(report.skipped()).isEmpty();
    assertThat(report.indexed()).hasSize(12);
    assertThat(engine.count()).isEqualTo(report.chunks());
    List<Hit> hits = engine.retriever()
        .retrieve(query("ZQ-5100 的配件供应和维修服务会持续到什么时候？", "visitor", 5)).hits();
    assertThat(hits.get(0).chunk().source()).isEqualTo("legacy/旧版说明.txt");
    assertThat(hits.get(0).chunk().raw()).contains("2026 年 12 月 31 日");
  }

  @Test
  void should_rank_a_gold_passage_first_for_most_exact_identifier_and_near_duplicate_questions()
      throws IOException {
    int total = 0;
    int first = 0;
    List<String> misses = new ArrayList<>();
    for (JsonNode c : cases) {
      String type = c.get("type").asText();
      if (!Set.of("exact", "identifier", "near_duplicate").contains(type)) {
        continue;
      }
      total++;
      List<Hit> hits = engine.retriever().retrieve(
          query(c.get("question").asText(), c.get("principal").asText(), 5)).hits();
      if (!hits.isEmpty() && isGold(c, hits.get(0))) {
        first++;
      } else {
        misses.add(c.get("id").asText());
      }
    }
    // 15 of 17 measured with the shipped fusion; the two misses rank the gold 2nd and 3rd:
    // q19's answer is in the second chunk of its section, q43 says 换个新的 where the text has 换货.
    assertThat(first).as("gold first; misses %s", misses).isGreaterThanOrEqualTo(15);
    assertThat(total).isEqualTo(17);
  }

  @Test
  void should_never_rank_err_4518_above_err_4517_for_an_err_4517_question() throws IOException {
    List<Hit> hits = engine.retriever()
        .retrieve(query("云管家报错 ERR_4517 是什么问题？该怎么处理？", "visitor", 10)).hits();
    int r4517 = rankOf(hits, "授权文件签名校验失败");
    int r4518 = rankOf(hits, "授权文件已过期");
    assertThat(r4517).isEqualTo(1);
    assertThat(r4518 == -1 || r4518 > r4517).isTrue();
  }

  @Test
  void should_never_return_hr_or_finance_chunks_to_a_visitor_in_any_route() throws IOException {
    Principal visitor = engine.principal("visitor");
    for (HybridRetriever.Mode mode : HybridRetriever.Mode.values()) {
      HybridRetriever r = new HybridRetriever(engine.routes(), engine.store(),
          engine.store(), engine.settings().retrieval().fusion(), mode);
      for (JsonNode c : cases) {
        for (Hit h : r.retrieve(new Query(c.get("question").asText(), visitor, 10, 50)).hits()) {
          assertThat(h.chunk().dept()).as("%s %s", mode, c.get("id").asText())
              .isEqualTo("public");
        }
      }
    }
  }

  @Test
  void should_refuse_clearly_unrelated_questions_without_calling_the_generator() {
    AtomicInteger calls = new AtomicInteger();
    Generator throwing = new Generator() {
      @Override
      public String id() {
        return "must-not-be-called";
      }

      @Override
      public String generate(String q, List<Source> s, java.util.function.Consumer<String> t) {
        calls.incrementAndGet();
        throw new AssertionError("generator called for " + q);
      }
    };
    for (String[] q : new String[][] {
        {"公司食堂午饭几点开始供应？", "visitor"},
        {"公司规定的核心工作时间是几点到几点？", "visitor"},
        {"2024 年度的年终奖哪天发放？", "visitor"},
        {"明天会下雨吗？", "admin"}}) {
      Answer a = new AnswerService(engine.retriever(), throwing, engine.settings().gate().threshold(),
          RefusalPolicy.DEFAULT).ask(query(q[0], q[1], 5), t -> { });
      assertThat(a.status()).as(q[0]).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
      assertThat(a.sources()).isEmpty();
    }
    assertThat(calls).hasValue(0);
  }

  @Test
  void should_number_sources_exactly_as_the_retrieved_list() throws IOException {
    Query q = query("退货寄回去以后，退款多久会发起？", "visitor", 5);
    List<Hit> hits = engine.retriever().retrieve(q).hits();
    Answer a = engine.answerer().ask(q, Answerer.Listener.NONE);
    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.sources()).extracting(Source::n).containsExactly(1, 2, 3, 4, 5);
    assertThat(a.sources()).extracting(Source::chunkId)
        .containsExactlyElementsOf(hits.stream().map(h -> h.chunk().id()).toList());
    assertThat(a.citations()).isNotEmpty()
        .allSatisfy(c -> assertThat(c.n()).isBetween(1, a.sources().size()));
  }

  @Test
  void should_give_the_same_count_and_results_when_reopened_by_a_new_process() throws Exception {
    String question = "ZQ-7781 换完滤芯后，滤芯复位键要长按几秒？";
    List<String> here = engine.retriever().retrieve(query(question, "visitor", 5)).hits().stream()
        .map(h -> h.chunk().id()).toList();
    Process p = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"),
        "org.openbook.app.cli.OpenBookCommand", "search", question, "--index", index.toString(),
        "--config", "../examples/openbook.yaml", "--principal", "visitor", "-k", "5", "--json")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isZero();
    List<String> there = new ArrayList<>();
    JSON.readTree(out).get("hits").forEach(h -> there.add(h.get("chunkId").asText()));
    assertThat(there).containsExactlyElementsOf(here);
    assertThat(engine.store().manifest().chunks()).isEqualTo(engine.count());
  }

  @Test
  void should_refuse_to_open_the_index_with_another_embedding_model() {
    assertThatThrownBy(() -> OpenBook.builder().index(index).config(config)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.READ).build())
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("bge-small-zh-v1.5")
        .hasMessageContaining("--reset");
  }

  private static Query query(String text, String principal, int k) {
    return new Query(text, engine.principal(principal), k, 50);
  }

  private static boolean isGold(JsonNode c, Hit h) {
    for (JsonNode g : c.get("gold")) {
      if (h.chunk().source().equals(g.get("source").asText())
          && h.chunk().raw().contains(g.get("contains").asText())) {
        return true;
      }
    }
    return false;
  }

  private static int rankOf(List<Hit> hits, String text) {
    for (int i = 0; i < hits.size(); i++) {
      if (hits.get(i).chunk().raw().contains(text)) {
        return i + 1;
      }
    }
    return -1;
  }
}
