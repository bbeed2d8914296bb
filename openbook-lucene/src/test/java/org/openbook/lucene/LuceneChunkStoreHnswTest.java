package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.lucene.TestCorpus.ANALYSIS;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.ScoredChunk;
import org.openbook.index.VectorEncoding;

/**
 * {@code store.lucene.hnsw}: the graph parameters reach Lucene's HNSW format and are recorded;
 * {@code efSearch} widens the graph search but returns top-N; force-merge leaves one segment.
 */
class LuceneChunkStoreHnswTest {

  @TempDir Path dir;

  private static Chunk[] corpus(int n) {
    Chunk[] chunks = new Chunk[n];
    for (int i = 0; i < n; i++) {
      chunks[i] = chunk("d" + i + ".md", "HR", "第" + i + "条：员工手册条款 " + (i * 7919 % 1000)
          + " 关于出差、报销与年假。");
    }
    return chunks;
  }

  private static IndexManifest manifest(org.openbook.index.HnswGraph graph) {
    return TestCorpus.hashManifest().withHnsw(graph);
  }

  /** The largest number of level-0 neighbours of any node in any segment's graph. */
  private int maxLevel0Degree() throws IOException {
    int max = 0;
    try (FSDirectory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : r.leaves()) {
        var perField = (PerFieldKnnVectorsFormat.FieldsReader)
            ((CodecReader) leaf.reader()).getVectorReader();
        HnswGraph graph = ((HnswGraphProvider) perField.getFieldReader("vector"))
            .getGraph("vector");
        for (int node = 0; node < graph.size(); node++) {
          graph.seek(0, node);
          int degree = 0;
          while (graph.nextNeighbor() != DocIdSetIterator.NO_MORE_DOCS) {
            degree++;
          }
          max = Math.max(max, degree);
        }
      }
    }
    return max;
  }

  @Test
  void should_build_the_graph_with_the_configured_m_and_record_it_in_the_manifest()
      throws IOException {
    org.openbook.index.HnswGraph narrow = new org.openbook.index.HnswGraph(2, 8);
    try (LuceneChunkStore store = LuceneChunkStore.open(dir, manifest(narrow), ANALYSIS)) {
      addAll(store, corpus(80));
      assertThat(store.manifest().hnsw()).isEqualTo(narrow);
    }

    // Lucene keeps at most 2 * M neighbours per node on level 0
    assertThat(maxLevel0Degree()).isLessThanOrEqualTo(4);
    assertThat(LuceneChunkStore.readManifest(dir).orElseThrow().hnsw()).isEqualTo(narrow);
  }

  @Test
  void should_build_wider_graphs_with_lucenes_default_m() throws IOException {
    try (LuceneChunkStore store = LuceneChunkStore.open(dir, TestCorpus.hashManifest(),
        ANALYSIS)) {
      addAll(store, corpus(80));
      assertThat(store.manifest().hnsw())
          .isEqualTo(new org.openbook.index.HnswGraph(16, 100));
    }

    assertThat(maxLevel0Degree()).isGreaterThan(4);
  }

  @Test
  void should_pass_m_and_beam_width_to_lucenes_vector_formats_for_every_encoding() {
    org.openbook.index.HnswGraph graph = new org.openbook.index.HnswGraph(32, 200);
    for (VectorEncoding e : VectorEncoding.values()) {
      assertThat(IndexFolder.codec(e, graph).knnVectorsFormat() instanceof
          PerFieldKnnVectorsFormat perField ? perField.getKnnVectorsFormatForField("vector")
          .toString() : "").contains("maxConn=32").contains("beamWidth=200");
    }
  }

  @Test
  void should_keep_the_graph_parameters_an_existing_index_was_built_with() throws IOException {
    org.openbook.index.HnswGraph narrow = new org.openbook.index.HnswGraph(2, 8);
    try (LuceneChunkStore store = LuceneChunkStore.open(dir, manifest(narrow), ANALYSIS)) {
      addAll(store, corpus(40));
    }
    try (LuceneChunkStore store = LuceneChunkStore.open(dir, TestCorpus.hashManifest(),
        ANALYSIS)) {
      Chunk[] more = corpus(80);
      addAll(store, java.util.Arrays.copyOfRange(more, 40, 80));
      store.forceMerge(1);

      assertThat(store.manifest().hnsw()).isEqualTo(narrow);
    }
    // the merged segment was written with the index's own M, not the run's default
    assertThat(maxLevel0Degree()).isLessThanOrEqualTo(4);
    assertThat(LuceneChunkStore.readManifest(dir).orElseThrow().hnsw()).isEqualTo(narrow);
  }

  @Test
  void should_ask_the_graph_for_ef_search_candidates_and_return_the_best_top_n()
      throws IOException {
    Chunk[] chunks = corpus(60);
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunks);
      float[] q = TestCorpus.hashed(chunks[7]).vector();
      List<String> narrow = TestCorpus.ids(store.searchDense(q, 5, HR));

      assertThat(store.candidates(5)).isEqualTo(5);
      store.setEfSearch(40);

      assertThat(store.efSearch()).isEqualTo(40);
      assertThat(store.candidates(5)).isEqualTo(40);
      assertThat(store.candidates(50)).isEqualTo(50);
      List<ScoredChunk> wide = store.searchDense(q, 5, HR);
      assertThat(wide).hasSize(5);
      assertThat(wide.get(0).chunk().id()).isEqualTo(chunks[7].id());
      // a small graph is searched exhaustively either way: same top 5, best first
      assertThat(TestCorpus.ids(wide)).isEqualTo(narrow);
      assertThat(wide).isSortedAccordingTo((a, b) -> Double.compare(b.score(), a.score()));
      assertThatThrownBy(() -> store.setEfSearch(0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("efSearch");
    }
  }

  @Test
  void should_force_merge_to_the_given_segment_count_keeping_every_chunk_and_the_manifest()
      throws IOException {
    Chunk[] chunks = corpus(30);
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      for (int i = 0; i < 3; i++) { // three commits, three segments
        addAll(store, java.util.Arrays.copyOfRange(chunks, i * 10, i * 10 + 10));
      }
      assertThat(store.segmentCount()).isEqualTo(3);
      IndexManifest before = store.manifest();

      store.forceMerge(1);

      assertThat(store.segmentCount()).isEqualTo(1);
      assertThat(store.count()).isEqualTo(30);
      assertThat(store.manifest()).isEqualTo(before);
      assertThat(LuceneChunkStore.readManifest(dir).orElseThrow()).isEqualTo(before);
      assertThat(store.searchDense(TestCorpus.hashed(chunks[21]).vector(), 1, HR).get(0)
          .chunk().id()).isEqualTo(chunks[21].id());
      assertThatThrownBy(() -> store.forceMerge(0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSegments");
    }
  }

  @Test
  void should_read_a_manifest_without_graph_parameters_as_lucenes_defaults() {
    IndexManifest old = new IndexManifest("m", 4, "cosine", "a", "c", 0, 0, null, null);

    assertThat(old.hnsw()).isEqualTo(new org.openbook.index.HnswGraph(16, 100));
    assertThat(new ArrayList<>(List.of(old.hnsw().describe()))).containsExactly(
        "m=16, beamWidth=100");
  }

  @Test
  void should_search_each_segment_for_its_own_top_k_when_cross_segment_pruning_is_off()
      throws IOException {
    Chunk[] chunks = corpus(30);
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      for (int i = 0; i < 3; i++) { // three segments
        addAll(store, java.util.Arrays.copyOfRange(chunks, i * 10, i * 10 + 10));
      }
      assertThat(store.crossSegmentPruning()).isTrue();
      float[] q = TestCorpus.hashed(chunks[12]).vector();
      try (FSDirectory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
        org.apache.lucene.search.IndexSearcher searcher =
            new org.apache.lucene.search.IndexSearcher(r);
        LeafReaderContext leaf = r.leaves().get(0);
        // Lucene's default: one heap shared by the segments' searches
        assertThat(new CountingKnnQuery("vector", q, 5, null, new java.util.concurrent.atomic
            .AtomicLong(), true).getKnnCollectorManager(5, searcher).newCollector(100, leaf))
            .isInstanceOf(org.apache.lucene.search.knn.MultiLeafKnnCollector.class);
        // off: a plain per-segment top-k collector
        assertThat(new CountingKnnQuery("vector", q, 5, null, new java.util.concurrent.atomic
            .AtomicLong(), false).getKnnCollectorManager(5, searcher).newCollector(100, leaf))
            .isExactlyInstanceOf(org.apache.lucene.search.TopKnnCollector.class);
      }

      store.setCrossSegmentPruning(false);

      assertThat(store.crossSegmentPruning()).isFalse();
      List<ScoredChunk> hits = store.searchDense(q, 5, HR);
      assertThat(hits).hasSize(5);
      assertThat(hits.get(0).chunk().id()).isEqualTo(chunks[12].id());
    }
  }
}
