package org.openbook.retrieve;

import java.util.List;
import org.openbook.index.ScoredChunk;

/** Merges the dense and sparse route results into one ranking, keyed by chunk id. */
public interface Fusion {

  /** Stable id for reports, e.g. {@code rrf(k=60,dense=1.0,sparse=1.0)}. */
  String id();

  /**
   * Fuses two ranked lists.
   *
   * @param dense  dense route results, rank 1 first
   * @param sparse sparse route results, rank 1 first
   * @return every chunk of either list exactly once, best first, carrying both routes' ranks and
   *     scores
   */
  List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse);

  /**
   * Fuses two ranked lists knowing the BM25 route's absolute scale; by default the scale is
   * ignored (RRF uses ranks only).
   *
   * @param sparseMaxScore the highest BM25 score any chunk could reach for this query ({@link
   *                       org.openbook.index.ChunkStore.SparseSearch#maxSparseScore}), or NaN
   *                       if unknown
   */
  default List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse,
      double sparseMaxScore) {
    return fuse(dense, sparse);
  }

  /**
   * Whether {@link #fuse(List, List, double)} reads the BM25 scale, so the retriever asks the
   * store for it (one more index look-up per query; on SolrCloud one more request) only then.
   */
  default boolean usesSparseMaxScore() {
    return false;
  }
}
