package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.openbook.embed.Embedder;
import org.openbook.index.AccessFilter;
import org.openbook.index.ScoredChunk;
import org.openbook.lucene.LuceneChunkStore;

/** Checks that an index's routes, stored chunks and manifest describe the same chunks. */
final class IndexConsistency {

  private IndexConsistency() {}

  /** Every chunk id the dense route can return, from an exhaustive search. */
  static Set<String> denseIds(LuceneChunkStore store, Embedder embedder, AccessFilter filter)
      throws IOException {
    long n = store.count();
    // topN above the document count makes Lucene search the filtered set exactly, not via HNSW
    return ids(store.searchDense(embedder.embed("任何 any"), (int) (2 * n + 10), filter));
  }

  /** Chunk ids the BM25 route returns for {@code query}, all of them. */
  static Set<String> sparseIds(LuceneChunkStore store, String query, AccessFilter filter)
      throws IOException {
    return ids(store.searchSparse(query, (int) (2 * store.count() + 10), filter));
  }

  static Set<String> ids(List<ScoredChunk> hits) {
    Set<String> out = new TreeSet<>();
    hits.forEach(h -> out.add(h.chunk().id()));
    return out;
  }

  /**
   * Asserts: stored ids = dense ids (= BM25 ids for {@code everyChunkWord}, a word every chunk
   * holds, when not null); manifest chunk and document counts = the index's.
   */
  static void assertConsistent(LuceneChunkStore store, Embedder embedder, AccessFilter filter,
      String everyChunkWord) throws IOException {
    Set<String> stored = new TreeSet<>(store.chunkIds());
    assertThat(stored).hasSize((int) store.count());
    assertThat(denseIds(store, embedder, filter)).isEqualTo(stored);
    if (everyChunkWord != null) {
      assertThat(sparseIds(store, everyChunkWord, filter)).isEqualTo(stored);
    }
    assertThat(store.manifest().chunks()).isEqualTo(store.count());
    assertThat(store.manifest().documents()).isEqualTo(store.documentIds().size());
  }
}
