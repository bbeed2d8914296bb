package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.llm.MockOpenAiServer.completion;
import static org.openbook.llm.MockOpenAiServer.error;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.rerank.RerankingRetriever;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;
import org.openbook.retrieve.Retriever;

/** The listwise LLM reranker in the reranking stage, against the scripted chat server. */
class LlmRerankerTest {

  private static final List<String> PASSAGES =
      List.of("年假需提前三天申请。", "VPN账号由IT部门开通。", "未休年假可顺延至次年三月。", "报销需附发票。");

  private MockOpenAiServer server;

  @BeforeEach
  void start() throws IOException {
    server = MockOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static Retriever fused() {
    List<Hit> hits = new ArrayList<>();
    for (int i = 0; i < PASSAGES.size(); i++) {
      String t = PASSAGES.get(i);
      hits.add(new Hit(new Chunk("hr.md#" + i, "hr.md", i, t, t, List.of(), 0, 0, t.length(),
          Map.of("source", "hr.md", "dept", "public")), i + 1, 0.9 - i * 0.1, 0, Double.NaN,
          1.0 - i * 0.1, Double.NaN));
    }
    return q -> new SearchResult(hits.subList(0, Math.min(q.topK(), hits.size())), 0.9, 4, 0);
  }

  private SearchResult rerank(int k, long timeoutMillis) throws IOException {
    RerankingRetriever stage = new RerankingRetriever(fused(),
        new LlmReranker(server.config(5)), 20, timeoutMillis);
    return stage.retrieve(new Query("未休的年假可以顺延吗？", Principal.ANONYMOUS, k, 50));
  }

  private static List<String> ids(SearchResult r) {
    return r.hits().stream().map(h -> h.chunk().id()).toList();
  }

  @Test
  void should_order_by_the_model_ranking_and_show_numbered_passages() throws Exception {
    server.then(completion("[3] > [1]", 60));

    SearchResult r = rerank(3, 10_000);

    assertThat(ids(r)).containsExactly("hr.md#2", "hr.md#0", "hr.md#1");
    assertThat(r.hits()).extracting(Hit::rerankScore).containsExactly(1.0, 0.5, Double.NaN);
    assertThat(r.hits()).extracting(Hit::rerankRank).containsExactly(1, 2, 0);
    assertThat(r.rerank()).isEqualTo("llm:test-model: 4 → 3");
    String prompt = server.requests().get(0).path("messages").get(1).path("content").asText();
    assertThat(prompt).contains("[1] 年假需提前三天申请。", "[4] 报销需附发票。",
        "问题：未休的年假可以顺延吗？", "最相关的 3 个");
  }

  @Test
  void should_accept_bare_and_comma_separated_numbers() throws Exception {
    server.then(completion("4, 2, 1, 3", 60));

    assertThat(ids(rerank(4, 10_000)))
        .containsExactly("hr.md#3", "hr.md#1", "hr.md#0", "hr.md#2");
  }

  @Test
  void should_keep_fused_order_when_the_reply_is_prose() throws Exception {
    server.then(completion("The most relevant passage is [3] because it mentions 顺延.", 60));

    SearchResult r = rerank(3, 10_000);

    assertThat(ids(r)).containsExactly("hr.md#0", "hr.md#1", "hr.md#2");
    assertThat(r.rerank()).startsWith("skipped: malformed LLM ranking");
  }

  @Test
  void should_keep_fused_order_when_the_reply_names_an_unknown_or_repeated_passage()
      throws Exception {
    server.then(completion("[5] > [1]", 60), completion("[2] > [2] > [1]", 60));

    SearchResult unknown = rerank(2, 10_000);
    SearchResult repeated = rerank(2, 10_000);

    assertThat(ids(unknown)).containsExactly("hr.md#0", "hr.md#1");
    assertThat(unknown.rerank()).isEqualTo("skipped: LLM ranking names passage 5, not in 1..4: "
        + "[5] > [1]");
    assertThat(ids(repeated)).containsExactly("hr.md#0", "hr.md#1");
    assertThat(repeated.rerank()).contains("names passage 2 twice");
  }

  @Test
  void should_keep_fused_order_when_the_endpoint_fails_or_hangs() throws Exception {
    server.then(error(500, "overloaded"));
    SearchResult failed = rerank(2, 10_000);
    assertThat(ids(failed)).containsExactly("hr.md#0", "hr.md#1");
    assertThat(failed.rerank()).startsWith("skipped: ");

    server.then(server.hang());
    SearchResult hung = rerank(2, 300);
    assertThat(ids(hung)).containsExactly("hr.md#0", "hr.md#1");
    assertThat(hung.rerank()).isEqualTo("skipped: llm:test-model timed out after 300 ms");
  }

  @Test
  void should_parse_rank_derived_scores() throws Exception {
    assertThat(LlmReranker.parse(" [2]>[3] >[1] ", 3)).extracting(s -> s.index() + ":" + s.score())
        .containsExactly("1:1.0", "2:0.6666666666666666", "0:0.3333333333333333");
  }
}
