package org.openbook.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore;
import org.openbook.index.ScoredChunk;
import org.openbook.testing.HashEmbedder;

/** The retriever with scripted routes: what each route is asked, and how results combine. */
class HybridRetrieverTest {

  private static Chunk chunk(String id) {
    return new Chunk(id, id, 0, "text " + id, "text " + id, List.of(), 0, 0, 7 + id.length(),
        Map.of("source", id + ".md", "dept", "public"));
  }

  /** Returns its scripted list (cut to topN) and records every call's arguments. */
  private static class FakeRoute implements ChunkStore.DenseSearch, ChunkStore.SparseSearch {
    final List<ScoredChunk> results;
    final List<String> calls = new ArrayList<>();

    FakeRoute(String... idsAndScores) {
      results = new ArrayList<>();
      for (int i = 0; i < idsAndScores.length; i += 2) {
        results.add(new ScoredChunk(chunk(idsAndScores[i]), i / 2 + 1,
            Double.parseDouble(idsAndScores[i + 1])));
      }
    }

    @Override
    public List<ScoredChunk> searchDense(float[] v, int topN, AccessFilter filter) {
      calls.add("dense topN=" + topN + " depts=" + new TreeSet<>(filter.departments()));
      return results.subList(0, Math.min(topN, results.size()));
    }

    @Override
    public List<ScoredChunk> searchSparse(String text, int topN, AccessFilter filter) {
      calls.add("sparse '" + text + "' topN=" + topN + " depts=" + new TreeSet<>(filter.departments()));
      return results.subList(0, Math.min(topN, results.size()));
    }
  }

  private static final Principal HR = new Principal("hr", Set.of("hr"));

  @Test
  void should_ask_both_routes_for_fetch_k_with_the_principals_filter_and_cut_to_top_k()
      throws Exception {
    FakeRoute dense = new FakeRoute("a", "0.9", "b", "0.8", "c", "0.7");
    FakeRoute sparse = new FakeRoute("c", "12.0", "d", "6.0");
    HybridRetriever r = new HybridRetriever(new HashEmbedder(), dense, sparse, RrfFusion.DEFAULT);

    SearchResult result = r.retrieve(new Query("年假", HR, 2, 3));

    assertThat(dense.calls).containsExactly("dense topN=3 depts=[hr, public]");
    assertThat(sparse.calls).containsExactly("sparse '年假' topN=3 depts=[hr, public]");
    // RRF 1:1, k=60: c is in both routes (3rd dense, 1st sparse) and wins; a is next.
    assertThat(result.hits()).extracting(h -> h.chunk().id()).containsExactly("c", "a");
    Hit c = result.hits().get(0);
    assertThat(c.denseRank()).isEqualTo(3);
    assertThat(c.denseScore()).isEqualTo(0.7);
    assertThat(c.sparseRank()).isEqualTo(1);
    assertThat(c.sparseScore()).isEqualTo(12.0);
    assertThat(c.fusedScore()).isEqualTo(1 / 63.0 + 1 / 61.0);
    assertThat(result.bestDenseScore()).isEqualTo(0.9);
    assertThat(result.denseCandidates()).isEqualTo(3);
    assertThat(result.sparseCandidates()).isEqualTo(2);
  }

  @Test
  void should_run_only_the_chosen_route_and_report_no_cosine_without_the_dense_one()
      throws Exception {
    FakeRoute dense = new FakeRoute("a", "0.9");
    FakeRoute sparse = new FakeRoute("b", "3.0");

    SearchResult s = new HybridRetriever(new HashEmbedder(), dense, sparse, RrfFusion.DEFAULT,
        HybridRetriever.Mode.SPARSE).retrieve(Query.of("q", HR, 5));

    assertThat(dense.calls).isEmpty();
    assertThat(s.hits()).extracting(h -> h.chunk().id()).containsExactly("b");
    assertThat(s.hits().get(0).denseRank()).isZero();
    assertThat(s.bestDenseScore()).isNaN();
    sparse.calls.clear();

    SearchResult d = new HybridRetriever(new HashEmbedder(), dense, sparse, RrfFusion.DEFAULT,
        HybridRetriever.Mode.DENSE).retrieve(Query.of("q", HR, 5));
    assertThat(sparse.calls).isEmpty();
    assertThat(d.hits()).extracting(h -> h.chunk().id()).containsExactly("a");
  }

  @Test
  void should_search_the_bm25_route_while_the_dense_route_runs() throws Exception {
    // Each route waits until the other has started: run one after the other, the first would
    // wait in vain and fail; no timing is measured.
    CountDownLatch denseStarted = new CountDownLatch(1);
    CountDownLatch sparseStarted = new CountDownLatch(1);
    FakeRoute dense = new FakeRoute("a", "0.9") {
      @Override
      public List<ScoredChunk> searchDense(float[] v, int topN, AccessFilter filter) {
        denseStarted.countDown();
        awaitOther(sparseStarted);
        return super.searchDense(v, topN, filter);
      }
    };
    FakeRoute sparse = new FakeRoute("b", "3.0") {
      @Override
      public List<ScoredChunk> searchSparse(String text, int topN, AccessFilter filter) {
        sparseStarted.countDown();
        awaitOther(denseStarted);
        return super.searchSparse(text, topN, filter);
      }
    };

    SearchResult r = new HybridRetriever(new HashEmbedder(), dense, sparse, RrfFusion.DEFAULT)
        .retrieve(Query.of("q", HR, 5));

    assertThat(r.hits()).extracting(h -> h.chunk().id()).containsExactlyInAnyOrder("a", "b");
  }

  @Test
  void should_throw_the_bm25_routes_io_error_as_it_was() {
    FakeRoute dense = new FakeRoute("a", "0.9");
    ChunkStore.SparseSearch failing = (text, topN, filter) -> {
      throw new IOException("index closed");
    };

    assertThatThrownBy(() -> new HybridRetriever(new HashEmbedder(), dense, failing,
        RrfFusion.DEFAULT).retrieve(Query.of("q", HR, 5)))
        .isExactlyInstanceOf(IOException.class).hasMessage("index closed");
  }

  private static void awaitOther(CountDownLatch other) {
    try {
      if (!other.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("the other route did not start: routes ran one after the other");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
