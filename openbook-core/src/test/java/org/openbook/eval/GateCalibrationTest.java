package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class GateCalibrationTest {

  @Test
  void should_suggest_midpoint_of_gap_when_groups_separate() {
    GateCalibration g = new GateCalibration(new double[] {0.70, 0.80, 0.62}, new double[] {0.40, 0.58});

    assertThat(g.separable()).isTrue();
    assertThat(g.suggestedThreshold()).isCloseTo(0.60, within(1e-12));
    assertThat(g.at(0.60)).isEqualTo(new RefusalCounts(2, 0, 0, 3));
    assertThat(g.render()).contains("verdict: SEPARABLE").contains("threshold: 0.600");
  }

  @Test
  void should_say_not_separable_and_give_no_threshold_when_groups_overlap() {
    GateCalibration g = new GateCalibration(
        new double[] {0.57, 0.75, 0.80}, new double[] {0.46, 0.50, 0.63, 0.73});

    assertThat(g.separable()).isFalse();
    assertThat(g.suggestedThreshold()).isNaN();
    // refusing below 0.57 refuses 0.46 and 0.50 only
    assertThat(g.at(0.57)).isEqualTo(new RefusalCounts(2, 0, 2, 3));
    assertThat(g.render())
        .contains("NOT SEPARABLE: overlap [0.570, 0.730] holds 1 of 3 answerable and 2 of 4")
        .contains("highest threshold with no false refusal on this sample: 0.570")
        .doesNotContain("suggested");
  }

  @Test
  void should_drop_nan_scores_and_reject_empty_groups() {
    assertThatThrownBy(() -> new GateCalibration(new double[] {Double.NaN}, new double[] {0.5}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 0 and 1");
  }
}
