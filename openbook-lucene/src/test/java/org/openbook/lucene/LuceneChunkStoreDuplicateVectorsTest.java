package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.ScoredChunk;

/**
 * Many identical vectors (a repetitive log file indexed beside real documents) can split the
 * HNSW graph so that the approximate search misses reachable documents. The dense route must
 * still return the best allowed chunks and as many as asked for.
 */
class LuceneChunkStoreDuplicateVectorsTest {

  @Test
  void should_find_the_best_chunk_among_many_identical_vectors(@TempDir Path dir)
      throws IOException {
    int dims = TestCorpus.EMBEDDER.dimension();
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      List<EmbeddedChunk> log = new ArrayList<>();
      float[] heartbeat = unit(dims, 0);
      for (int i = 0; i < 400; i++) {
        log.add(new EmbeddedChunk(
            TestCorpus.chunk("logs/service.log", i, "HR", "INFO heartbeat ok"), heartbeat));
      }
      store.replaceDocument("logs/service.log", log);
      for (int d = 1; d <= 20; d++) {
        store.replaceDocument("docs/" + d, List.of(new EmbeddedChunk(
            TestCorpus.chunk("docs/" + d, 0, "HR", "document " + d), unit(dims, d))));
      }
      store.commit();

      List<ScoredChunk> hits = store.searchDense(unit(dims, 7), 50, TestCorpus.HR);

      assertThat(hits).hasSize(50);
      assertThat(hits.get(0).chunk().docId()).isEqualTo("docs/7");
      assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-5));
      for (int i = 1; i < hits.size(); i++) {
        assertThat(hits.get(i).score()).isLessThanOrEqualTo(hits.get(i - 1).score());
        assertThat(hits.get(i).rank()).isEqualTo(i + 1);
      }
    }
  }

  /** A unit vector mostly along axis {@code axis}, with a small shared component. */
  private static float[] unit(int dims, int axis) {
    float[] v = new float[dims];
    v[dims - 1] = 0.3f;
    v[axis] = 0.95f;
    return v;
  }
}
