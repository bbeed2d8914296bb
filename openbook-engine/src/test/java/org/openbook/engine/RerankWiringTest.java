package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.engine.config.ConfigYaml;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestListener;
import org.openbook.rerank.ScriptedRerankServer;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.SearchResult;
import org.openbook.testing.HashEmbedder;

/** The {@code rerank} config section as the facade wires it for search and ask. */
class RerankWiringTest {

  @TempDir Path dir;

  /** Scores the passage that mentions VPN 0.95, every other 0.05 (Cohere shape). */
  private static ScriptedRerankServer.Reply vpnFirst(JsonNode request) {
    StringBuilder results = new StringBuilder("{\"results\":[");
    JsonNode docs = request.get("documents");
    for (int i = 0; i < docs.size(); i++) {
      results.append(i == 0 ? "" : ",").append("{\"index\":").append(i)
          .append(",\"relevance_score\":").append(docs.get(i).asText().contains("VPN") ? 0.95 : 0.05)
          .append('}');
    }
    return ScriptedRerankServer.ok(results.append("]}").toString());
  }

  private OpenBookConfig config(String yaml) throws Exception {
    return ConfigYaml.read(dir, yaml);
  }

  private OpenBook engine(OpenBookConfig config) throws Exception {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    Files.writeString(docs.resolve("leave.md"), "# 年假\n\n年假需提前三天申请，未休年假可顺延。\n");
    Files.writeString(docs.resolve("vpn.md"), "# VPN\n\nVPN账号由IT部门开通，申请年假期间也可使用。\n");
    Files.writeString(docs.resolve("expense.md"), "# 报销\n\n报销需附发票，年假期间的差旅不予报销。\n");
    OpenBook engine = OpenBook.builder().index(dir.resolve("index")).config(config)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.RESET).build();
    engine.ingest(docs, IngestListener.NONE);
    return engine;
  }

  @Test
  void should_rerank_search_and_ask_with_the_configured_http_reranker() throws Exception {
    try (var server = ScriptedRerankServer.start("/v1/rerank", RerankWiringTest::vpnFirst)) {
      OpenBookConfig config = config("rerank:\n  type: http\n  url: " + server.url()
          + "\n  model: bge-reranker-v2-m3\n  fetchK: 10\n  threshold: 0.5\n");
      try (OpenBook engine = engine(config)) {
        SearchResult r = engine.retriever().retrieve(engine.query("年假", Principal.ANONYMOUS, 2));

        assertThat(r.hits()).hasSize(2);
        assertThat(r.hits().get(0).chunk().source()).isEqualTo("vpn.md");
        assertThat(r.hits().get(0).rerankScore()).isEqualTo(0.95);
        assertThat(r.hits().get(0).rerankRank()).isEqualTo(1);
        assertThat(r.rerank()).isEqualTo("http:bge-reranker-v2-m3: 3 → 2");
        assertThat(server.requests().get(0).get("top_n").asInt()).isEqualTo(2);

        Answer a = engine.answerer().ask(engine.query("年假", Principal.ANONYMOUS, 2),
            Answerer.Listener.NONE);
        // the hash embedder's cosine is far below 0.53; the rerank score 0.95 passes gate 1
        assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
        assertThat(a.sources().get(0).hit().chunk().source()).isEqualTo("vpn.md");
        assertThat(a.diagnostics().rerank()).isEqualTo("http:bge-reranker-v2-m3: 3 → 2");
        assertThat(engine.settings().rerank().threshold()).isEqualTo(0.5);
      }
    }
  }

  @Test
  void should_not_rerank_without_a_rerank_section() throws Exception {
    try (OpenBook engine = engine(OpenBookConfig.defaults())) {
      SearchResult r = engine.retriever().retrieve(engine.query("年假", Principal.ANONYMOUS, 2));

      assertThat(r.rerank()).isEmpty();
      assertThat(r.hits()).allSatisfy(h -> assertThat(h.rerankScore()).isNaN());
      assertThat(engine.settings().rerank().threshold()).isNaN();
    }
  }

  @Test
  void should_name_the_field_of_a_bad_rerank_section() {
    assertThatThrownBy(() -> config("rerank:\n  type: http\n"))
        .hasMessageContaining("rerank.url is required");
    assertThatThrownBy(() -> config("rerank:\n  type: cohere\n"))
        .hasMessageContaining("rerank.type must be none, http, onnx or llm");
    assertThatThrownBy(() -> config("rerank:\n  type: onnx\n"))
        .hasMessageContaining("rerank.model");
    assertThatThrownBy(() -> config("rerank:\n  type: http\n  url: http://x/rerank\n  fetchK: 0\n"))
        .hasMessageContaining("rerank.fetchK must be >= 1");
  }

  /**
   * Load errors of {@code type: onnx} name the field. (Scoring itself is tested in core's
   * {@code ScoringModelRerankerTest} on a hand-built ONNX graph: no real cross-encoder model can
   * be had offline here.)
   */
  @Test
  void should_name_the_field_when_the_onnx_model_is_missing_or_not_a_model() throws Exception {
    Path missing = dir.resolve("no-such-model.onnx");
    OpenBookConfig absent = config("rerank:\n  type: onnx\n  model: " + missing + "\n");
    assertThatThrownBy(() -> engine(absent)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rerank.model").hasMessageContaining("no-such-model.onnx");

    Path garbage = Files.writeString(dir.resolve("model.onnx"), "not an onnx graph");
    Files.writeString(dir.resolve("tokenizer.json"), "{}");
    OpenBookConfig broken = config("rerank:\n  type: onnx\n  model: " + garbage + "\n");
    assertThatThrownBy(() -> engine(broken)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rerank.model: cannot load ONNX cross-encoder");
    // the failed builds released the index: it opens again
    engine(OpenBookConfig.defaults()).close();
  }
}
