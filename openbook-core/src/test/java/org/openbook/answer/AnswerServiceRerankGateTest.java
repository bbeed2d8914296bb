package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;

/** Gate 1 on the rerank score, and the reranking stage's diagnostics in the answer. */
class AnswerServiceRerankGateTest {

  private static final double COSINE_GATE = 0.7;
  private static final double RERANK_GATE = 0.4;

  private static Answer ask(SearchResult retrieval, double rerankThreshold) {
    AnswerService service = new AnswerService(q -> retrieval,
        new ExtractiveGenerator(RefusalPolicy.DEFAULT), EvidenceGate.denseOnly(COSINE_GATE),
        RefusalPolicy.DEFAULT,
        SupportChecker.DEFAULT_THRESHOLD, rerankThreshold);
    return service.ask(Query.of("年假需要提前几天申请？", Principal.ANONYMOUS, 3), t -> { });
  }

  private static SearchResult reranked(double bestCosine, double topRerankScore) {
    Hit top = Fixtures.hit("hr/leave.md#0", "hr/leave.md", "年假需提前三天申请。", bestCosine)
        .withRerank(topRerankScore, 1);
    return new SearchResult(List.of(top), bestCosine, 1, 1, "http:bge: 1 → 1", 12);
  }

  @Test
  void should_answer_when_the_rerank_score_passes_although_the_cosine_is_low() {
    Answer a = ask(reranked(0.45, 0.92), RERANK_GATE);

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.diagnostics().rerank()).isEqualTo("http:bge: 1 → 1");
    assertThat(a.diagnostics().rerankMillis()).isEqualTo(12);
  }

  @Test
  void should_refuse_when_the_rerank_score_fails_although_the_cosine_is_high() {
    Answer a = ask(reranked(0.95, 0.05), RERANK_GATE);

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(a.diagnostics().rerank()).isEqualTo("http:bge: 1 → 1");
  }

  @Test
  void should_use_the_cosine_rule_when_the_reranker_was_skipped() {
    Hit unscored = Fixtures.hit("hr/leave.md#0", "hr/leave.md", "年假需提前三天申请。", 0.45);
    SearchResult skipped = new SearchResult(List.of(unscored), 0.45, 1, 1,
        "skipped: http:bge timed out after 200 ms", 200);

    Answer a = ask(skipped, RERANK_GATE);

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(a.diagnostics().rerank()).isEqualTo("skipped: http:bge timed out after 200 ms");
  }

  @Test
  void should_use_the_cosine_rule_when_no_rerank_threshold_is_set() {
    assertThat(ask(reranked(0.95, 0.05), Double.NaN).status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(ask(reranked(0.45, 0.92), Double.NaN).status())
        .isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
  }
}
