package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RankingMetricsTest {

  private static final double EPS = 1e-12;

  @Test
  void should_score_single_gold_at_rank_three() {
    Judged j = Judged.single(false, false, true, false);

    assertThat(RankingMetrics.recall(j, 1)).isEqualTo(0.0);
    assertThat(RankingMetrics.recall(j, 2)).isEqualTo(0.0);
    assertThat(RankingMetrics.recall(j, 3)).isEqualTo(1.0);
    assertThat(RankingMetrics.recall(j, 10)).isEqualTo(1.0);
    assertThat(RankingMetrics.reciprocalRank(j, 10)).isCloseTo(1.0 / 3, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(j, 2)).isEqualTo(0.0);
    // DCG = 1/log2(4) = 0.5; ideal = 1/log2(2) = 1.
    assertThat(RankingMetrics.ndcg(j, 10)).isCloseTo(0.5, within(EPS));
  }

  @Test
  void should_count_each_gold_item_once_when_two_results_satisfy_it() {
    // ranks 1 and 2 both satisfy gold 0; rank 3 satisfies gold 1; 3 gold items in all.
    Judged j = new Judged(List.of(Set.of(0), Set.of(0), Set.of(1), Set.of()), 3);

    assertThat(RankingMetrics.recall(j, 1)).isCloseTo(1.0 / 3, within(EPS));
    assertThat(RankingMetrics.recall(j, 2)).isCloseTo(1.0 / 3, within(EPS));
    assertThat(RankingMetrics.recall(j, 5)).isCloseTo(2.0 / 3, within(EPS));
    assertThat(RankingMetrics.reciprocalRank(j, 10)).isEqualTo(1.0);
    // DCG = 1/log2(2) + 1/log2(4) = 1.5; ideal (3 items) = 1 + 1/log2(3) + 1/log2(4).
    double ideal = 1 + 1 / (Math.log(3) / Math.log(2)) + 0.5;
    assertThat(RankingMetrics.ndcg(j, 10)).isCloseTo(1.5 / ideal, within(EPS));
  }

  @Test
  void should_score_zero_when_nothing_relevant_is_retrieved() {
    Judged j = Judged.single(false, false);

    assertThat(RankingMetrics.recall(j, 10)).isEqualTo(0.0);
    assertThat(RankingMetrics.reciprocalRank(j, 10)).isEqualTo(0.0);
    assertThat(RankingMetrics.ndcg(j, 10)).isEqualTo(0.0);
  }

  @Test
  void should_ignore_results_past_the_cut_off() {
    boolean[] r = new boolean[11];
    r[10] = true;
    Judged j = Judged.single(r);

    assertThat(RankingMetrics.recall(j, 10)).isEqualTo(0.0);
    assertThat(RankingMetrics.ndcg(j, 10)).isEqualTo(0.0);
    assertThat(RankingMetrics.reciprocalRank(j, 11)).isCloseTo(1.0 / 11, within(EPS));
  }

  @Test
  void should_reject_a_cut_off_below_one() {
    assertThatThrownBy(() -> RankingMetrics.recall(Judged.single(true), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("k must be >= 1");
  }

  @Test
  void should_average_over_queries() {
    RankingScores s = RankingScores.of(List.of(
        Judged.single(true), Judged.single(false, true), Judged.single(false, false)));

    assertThat(s.queries()).isEqualTo(3);
    assertThat(s.recall1()).isCloseTo(1.0 / 3, within(EPS));
    assertThat(s.recall3()).isCloseTo(2.0 / 3, within(EPS));
    assertThat(s.mrr10()).isCloseTo((1 + 0.5 + 0) / 3, within(EPS));
    // nDCG: 1, 1/log2(3), 0.
    assertThat(s.ndcg10()).isCloseTo((1 + Math.log(2) / Math.log(3)) / 3, within(EPS));
  }
}
