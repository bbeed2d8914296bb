package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class RefusalAndLatencyTest {

  @Test
  void should_compute_refusal_precision_recall_and_false_refusal_rate() {
    RefusalCounts c = RefusalCounts.EMPTY
        .add(true, true).add(true, true).add(true, false)   // 2 of 3 unanswerable refused
        .add(false, true).add(false, false).add(false, false).add(false, false); // 1 of 4 refused

    assertThat(c).isEqualTo(new RefusalCounts(2, 1, 1, 3));
    assertThat(c.precision()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(c.recall()).isCloseTo(2.0 / 3, within(1e-12));
    assertThat(c.falseRefusalRate()).isEqualTo(0.25);
    assertThat(c.accuracy()).isCloseTo(5.0 / 7, within(1e-12));
  }

  @Test
  void should_give_nan_precision_when_nothing_was_refused() {
    RefusalCounts c = RefusalCounts.EMPTY.add(false, false);

    assertThat(c.precision()).isNaN();
    assertThat(c.recall()).isNaN();
    assertThat(c.falseRefusalRate()).isEqualTo(0.0);
  }

  @Test
  void should_take_nearest_rank_percentiles() {
    double[] ms = {9, 1, 2, 3, 4, 5, 6, 7, 8, 10};

    assertThat(Percentiles.of(ms, 50)).isEqualTo(5.0);
    assertThat(Percentiles.of(ms, 95)).isEqualTo(10.0);
    assertThat(Percentiles.of(ms, 10)).isEqualTo(1.0);
    assertThat(Percentiles.of(new double[0], 50)).isNaN();
  }

  @Test
  void should_summarize_per_type_and_skip_gold_less_cases_for_ranking() {
    List<QueryOutcome> outcomes = List.of(
        new QueryOutcome("a", "exact", Judged.single(true), 2, false, false),
        new QueryOutcome("b", "synonym", Judged.single(false, true), 4, false, true),
        new QueryOutcome("c", "unanswerable", null, 6, true, true));

    ConfigResult r = ConfigResult.summarize("hybrid", "rrf", outcomes);

    assertThat(r.overall().queries()).isEqualTo(2);
    assertThat(r.overall().recall1()).isEqualTo(0.5);
    assertThat(r.overall().mrr10()).isEqualTo(0.75);
    assertThat(r.byType()).containsOnlyKeys("exact", "synonym");
    assertThat(r.byType().get("synonym").recall1()).isEqualTo(0.0);
    assertThat(r.refusal()).isEqualTo(new RefusalCounts(1, 1, 0, 1));
    assertThat(r.latencyP50()).isEqualTo(4.0);
    assertThat(r.latencyP95()).isEqualTo(6.0);
  }

  @Test
  void should_render_markdown_row_with_dashes_for_unmeasured_refusal() {
    ConfigResult r = ConfigResult.summarize("bm25", "BM25 only",
        List.of(new QueryOutcome("a", "", Judged.single(false, true), 1, false, null)));

    String md = new EvalReport("t", List.of("corpus x"), List.of(r)).toMarkdown();

    assertThat(md).contains("| bm25 | 1 | 0.000 | 1.000 | 1.000 | 1.000 | 0.500 | 0.631 | – | – | – | – | 1.0 | 1.0 |");
    assertThat(md).contains("- corpus x").doesNotContain("by query type");
  }
}
