package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExpectedScoresTest {

  @TempDir Path tmp;

  private static ConfigResult result(String name, double recall5, RefusalCounts refusal) {
    return new ConfigResult(name, name, new RankingScores(10, 0.5, 0.7, recall5, 0.9, 0.6, 0.7),
        Map.of(), refusal, Double.NaN, Double.NaN);
  }

  private ExpectedScores read(String yaml) throws IOException {
    Path f = tmp.resolve("e.yaml");
    Files.writeString(f, yaml);
    return ExpectedScores.read(f);
  }

  @Test
  void should_pass_at_the_floor_and_fail_just_below_it() throws IOException {
    ExpectedScores e = read("""
        name: t
        cases: c.jsonl
        docs: d
        configs: hybrid
        expect:
          - {config: hybrid, metric: recall5, expected: 0.90, tolerance: 0.05}
        """);
    assertThat(e.failures(List.of(result("hybrid", 0.85, null)))).isEmpty();
    assertThat(e.failures(List.of(result("hybrid", 0.849, null))))
        .containsExactly("hybrid recall5 0.849, expected 0.900 - 0.050");
  }

  @Test
  void should_read_refusal_metrics_with_false_refusals_lower_is_better() throws IOException {
    ExpectedScores e = read("""
        name: t
        cases: c.jsonl
        docs: d
        configs: hybrid
        expect:
          - {config: hybrid, metric: refusalAccuracy, expected: 0.9, tolerance: 0.0}
          - {config: hybrid, metric: falseRefusalRate, expected: 0.10, tolerance: 0.0}
        """);
    // 4 unanswerable refused, 1 answerable refused, 0 unanswerable answered, 5 answered
    RefusalCounts counts = new RefusalCounts(4, 1, 0, 5);
    assertThat(counts.accuracy()).isEqualTo(0.9);
    assertThat(counts.falseRefusalRate()).isCloseTo(1 / 6.0, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(e.failures(List.of(result("hybrid", 1, counts))))
        .containsExactly("hybrid falseRefusalRate 0.167, expected 0.100 + 0.000");
    // no refusal cases measured: NaN never passes
    assertThat(e.failures(List.of(result("hybrid", 1, null)))).hasSize(2);
  }

  @Test
  void should_name_an_unknown_metric_key_or_configuration() throws IOException {
    assertThatThrownBy(() -> read("""
        name: t
        cases: c
        docs: d
        configs: hybrid
        expect: [{config: hybrid, metric: recall7, expected: 1, tolerance: 0}]
        """)).hasMessageContaining("unknown metric 'recall7'").hasMessageContaining("recall5");
    assertThatThrownBy(() -> read("name: t\ncases: c\ndocs: d\nconfigs: x\nfloor: 1\n"))
        .hasMessageContaining("floor");
    ExpectedScores e = read("""
        name: t
        cases: c
        docs: d
        configs: hybrid
        expect: [{config: rrf, metric: recall5, expected: 1, tolerance: 0}]
        """);
    assertThatThrownBy(() -> e.failures(List.of(result("hybrid", 1, null))))
        .hasMessageContaining("'rrf'");
  }
}
