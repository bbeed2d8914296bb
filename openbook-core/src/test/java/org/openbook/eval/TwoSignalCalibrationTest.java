package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.answer.EvidenceGate;
import org.openbook.eval.TwoSignalCalibration.Evidence;

class TwoSignalCalibrationTest {

  private static Evidence e(double route, double top, double lexical, String id) {
    return new Evidence(route, new EvidenceGate.Verdict(top, lexical, id, false));
  }

  @Test
  void should_count_refusals_of_the_old_and_the_two_signal_rule() {
    TwoSignalCalibration c = new TwoSignalCalibration(
        List.of(e(0.70, 0.70, 0.2, ""), e(0.45, 0.40, 0.0, "ERR_1"), e(0.48, 0.48, 0.9, "")),
        List.of(e(0.50, 0.50, 0.3, ""), e(0.60, 0.55, 0.0, "")));

    // old rule at 0.53: refuses answerable 2 and 3, unanswerable 1
    assertThat(c.old(0.53)).isEqualTo(new RefusalCounts(1, 2, 1, 1));
    // two-signal at 0.53 / lexical 0.8: the identifier and the lexical match let 2 and 3 through
    assertThat(c.twoSignal(0.53, 0.8)).isEqualTo(new RefusalCounts(1, 0, 1, 3));
    // lexical share off: only the identifier match remains
    assertThat(c.twoSignal(0.53, Double.POSITIVE_INFINITY))
        .isEqualTo(new RefusalCounts(1, 1, 1, 2));
    assertThat(c.render()).contains("two-signal, lexical >= 0.8").contains("old: dense route only");
  }

  @Test
  void should_sweep_dense_thresholds_with_counts_of_both_rules() {
    TwoSignalCalibration c = new TwoSignalCalibration(
        List.of(e(0.70, 0.70, 0.2, ""), e(0.45, 0.40, 0.0, "ERR_1"), e(0.48, 0.48, 0.9, "")),
        List.of(e(0.50, 0.50, 0.3, ""), e(0.60, 0.55, 0.0, "")));

    List<String> rows = c.renderSweep(0.8, 0.54, 0.56, 0.01).lines().toList();

    assertThat(rows).hasSize(4);
    // 0.54: old refuses unanswerable 1 of 2, answerable 2 of 3; two-signal 1 of 2, 0 of 3
    assertThat(rows.get(1).trim().split("\\s+")).containsExactly(
        "0.540", "1/2", "0.500", "2/3", "0.667", "1/2", "0.500", "0/3", "0.000");
    // 0.56: the second unanswerable one (route 0.60, top-k 0.55) is refused by the two-signal
    // rule only
    assertThat(rows.get(3).trim().split("\\s+")).containsExactly(
        "0.560", "1/2", "0.500", "2/3", "0.667", "2/2", "1.000", "0/3", "0.000");
  }

  @Test
  void should_reject_a_sweep_without_a_positive_step() {
    TwoSignalCalibration c = new TwoSignalCalibration(List.of(e(0.7, 0.7, 0, "")),
        List.of(e(0.5, 0.5, 0, "")));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.renderSweep(0.8, 0.5, 0.6, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("step");
  }
}
