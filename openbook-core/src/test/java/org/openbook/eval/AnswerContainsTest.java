package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerContainsTest {

  @Test
  void should_compare_after_nfkc_lower_case_and_without_whitespace() {
    assertThat(AnswerContains.holdsAll("在付款后 ４８ 小时内发货", List.of("48小时"))).isTrue();
    assertThat(AnswerContains.holdsAll("Re-enter the WI-FI password", List.of("Wi-Fi"))).isTrue();
    assertThat(AnswerContains.holdsAll("核心时段 10:00 至 16:00", List.of("10:00", "17:00")))
        .isFalse();
    assertThat(AnswerContains.holdsAll(null, List.of("2"))).isFalse();
  }

  @Test
  void should_count_cases_and_list_the_missed_ones_in_order() {
    ConfigResult r = ConfigResult.summarize("hybrid", "hybrid", List.of(
        new QueryOutcome("a", "", Judged.single(true), 1, false, false, Double.NaN, true),
        new QueryOutcome("b", "", Judged.single(true), 1, false, true, Double.NaN, false),
        new QueryOutcome("c", "", null, 1, true, true, Double.NaN, null),
        new QueryOutcome("d", "", Judged.single(true), 1, false, false, Double.NaN, false)));

    assertThat(r.answers()).isEqualTo(new AnswerContains(3, 1, List.of("b", "d")));
    assertThat(ExpectedScores.Metric.of("answerContains").of(r)).isEqualTo(1.0 / 3);
  }
}
