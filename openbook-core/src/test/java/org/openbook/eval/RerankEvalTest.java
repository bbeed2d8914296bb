package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.retrieve.Retriever;
import org.openbook.testing.HashEmbedder;

/** {@code +rerank} configurations and the reranking stage's latency in the eval report. */
class RerankEvalTest {

  @Test
  void should_wrap_the_base_configuration_for_a_plus_rerank_entry() {
    List<Retriever> wrapped = new ArrayList<>();
    List<RetrieverVariant> configs = RetrieverVariant.parse("hybrid,hybrid+rerank,bm25+rerank",
        new HashEmbedder(), null, null, new org.openbook.retrieve.RrfFusion(60, 1, 1), r -> {
          Retriever outer = q -> r.retrieve(q);
          wrapped.add(outer);
          return outer;
        });

    assertThat(configs).extracting(RetrieverVariant::name)
        .containsExactly("hybrid", "hybrid+rerank", "bm25+rerank");
    assertThat(configs.get(1).retriever()).isSameAs(wrapped.get(0));
    assertThat(configs.get(1).description()).endsWith(", reranked");
    assertThat(configs.get(1).hasDense()).isTrue();
    assertThat(configs.get(2).hasDense()).isFalse();
  }

  @Test
  void should_say_that_a_reranker_must_be_configured_for_plus_rerank() {
    assertThatThrownBy(() -> RetrieverVariant.parse("hybrid+rerank", new HashEmbedder(), null,
        null, new org.openbook.retrieve.RrfFusion(60, 1, 1), null))
        .hasMessageContaining("hybrid+rerank").hasMessageContaining("rerank.type");
  }

  @Test
  void should_report_the_rerank_median_apart_and_a_dash_without_reranking() {
    ConfigResult plain = ConfigResult.summarize("hybrid", "d", List.of(
        new QueryOutcome("a", "", Judged.single(true), 10, false, null)));
    ConfigResult reranked = ConfigResult.summarize("hybrid+rerank", "d", List.of(
        new QueryOutcome("a", "", Judged.single(true), 14, false, null, 3),
        new QueryOutcome("b", "", Judged.single(true), 20, false, null, 9),
        new QueryOutcome("c", "", Judged.single(true), 16, false, null, 5)));

    assertThat(plain.rerankP50()).isNaN();
    assertThat(reranked.rerankP50()).isEqualTo(5.0);
    assertThat(reranked.latencyP50()).isEqualTo(16.0);
    String md = new EvalReport("t", List.of(), List.of(plain, reranked)).toMarkdown();
    assertThat(md).contains("| p50 ms | p95 ms | rerank p50 ms |");
    assertThat(md).contains("| 10.0 | 10.0 | – |").contains("| 16.0 | 20.0 | 5.0 |");
  }
}
