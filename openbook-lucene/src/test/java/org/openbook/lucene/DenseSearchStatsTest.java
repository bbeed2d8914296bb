package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.NOTHING;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;
import static org.openbook.lucene.TestCorpus.ids;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dense-route counters the performance report prints (docs/PERFORMANCE.md). */
class DenseSearchStatsTest {

  @TempDir Path dir;

  @Test
  void should_count_queries_segments_and_lucenes_exact_search_of_a_small_filter()
      throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store,
          chunk("c1", "HR", "年终奖在每年一月发放。"),
          chunk("c2", "FIN", "年终奖个税按单独计税方式计算。"),
          chunk("c3", "HR", "年假每年十天。"));
      float[] q = TestCorpus.EMBEDDER.embed("年终奖");
      DenseSearchStats before = store.denseStats();

      // HR allows 2 chunks, fewer than k = 10: Lucene searches the one segment exactly
      assertThat(ids(store.searchDense(q, 10, HR))).containsExactlyInAnyOrder("c1", "c3");
      // no permitted department: no search at all, so nothing is counted
      assertThat(store.searchDense(q, 10, NOTHING)).isEmpty();

      DenseSearchStats d = store.denseStats().since(before);
      assertThat(d).isEqualTo(new DenseSearchStats(1, 1, 1, 0, 0));
    }
  }

  @Test
  void should_subtract_every_counter_in_since() {
    DenseSearchStats later = new DenseSearchStats(10, 40, 3, 2, 5_000);
    DenseSearchStats earlier = new DenseSearchStats(4, 16, 1, 1, 2_000);
    assertThat(later.since(earlier)).isEqualTo(new DenseSearchStats(6, 24, 2, 1, 3_000));
  }
}
