package org.openbook.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.bench.IngestThroughputBenchmark.Pair;
import org.openbook.bench.IngestThroughputBenchmark.Phase;

class IngestThroughputBenchmarkTest {

  private static Phase phase(String name, int texts, double seconds, double cpu, double modelCpu) {
    return new Phase(name, texts, seconds, cpu, modelCpu, "1.00");
  }

  @Test
  void should_compare_each_ingest_with_the_raw_phases_just_before_and_after_it() {
    // raw 40, 30, 20 texts/s; ingests 36 and 20 chunks/s
    List<Phase> raws = List.of(phase("raw", 100, 2.5, 5, 5), phase("raw", 100, 100 / 30.0, 6, 6),
        phase("raw", 100, 5, 7, 7));
    List<Phase> ingests = List.of(phase("ingest", 100, 100 / 36.0, 6.5, 5.5),
        phase("ingest", 100, 5, 8, 6));

    List<Pair> pairs = IngestThroughputBenchmark.pairs(raws, ingests);

    assertThat(pairs).hasSize(2);
    assertThat(pairs.get(0).rawRate()).isCloseTo(35.0, within(1e-9));
    assertThat(pairs.get(0).ratio()).isCloseTo(36.0 / 35.0, within(1e-9));
    assertThat(pairs.get(1).before()).isSameAs(raws.get(1));
    assertThat(pairs.get(1).ratio()).isCloseTo(20.0 / 25.0, within(1e-9));
    // CPU: mean raw 0.065 s/text against 0.08 s/chunk, of which 0.02 outside the model
    assertThat(pairs.get(1).cpuRatio()).isCloseTo(0.065 / 0.08, within(1e-9));
    assertThat(pairs.get(1).ingest().otherCpuPerText()).isCloseTo(0.02, within(1e-9));
  }

  @Test
  void should_refuse_a_run_that_is_not_raw_ingest_raw_interleaved() {
    List<Phase> one = List.of(phase("raw", 1, 1, 1, 1));
    assertThatThrownBy(() -> IngestThroughputBenchmark.pairs(one, one))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one raw phase more");
  }

  @Test
  void should_take_the_middle_value_or_the_mean_of_the_middle_two() {
    assertThat(IngestThroughputBenchmark.median(List.of(0.95, 0.80, 0.91))).isEqualTo(0.91);
    assertThat(IngestThroughputBenchmark.median(List.of(0.9, 0.8, 1.0, 0.7))).isCloseTo(0.85, within(1e-12));
    assertThatThrownBy(() -> IngestThroughputBenchmark.median(List.of()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_write_one_row_per_pair_and_the_median_row() {
    List<Phase> raws = List.of(phase("raw", 10, 1, 1, 1), phase("raw", 10, 1, 1, 1));
    String table = IngestThroughputBenchmark.table(
        IngestThroughputBenchmark.pairs(raws, List.of(phase("ingest", 10, 2, 1.25, 1))));

    assertThat(table.split("\n")).hasSize(4);
    assertThat(table).contains("| 1 | 10.0 | 5.0 | 10.0 | **0.50** | 0.1000 | 0.1250 | 0.0250 | 0.80 | 1.00 |")
        .endsWith("| median | | | | **0.50** | | | | 0.80 | |");
  }
}
