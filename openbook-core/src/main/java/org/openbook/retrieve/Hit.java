package org.openbook.retrieve;

import org.openbook.chunk.Chunk;

/**
 * One fused retrieval result. Each score keeps its own meaning and is never compared with
 * another kind: {@code denseScore} is a cosine similarity, {@code sparseScore} a BM25 score,
 * {@code fusedScore} the fusion's score (RRF or normalised), {@code rerankScore} a reranker's.
 *
 * @param chunk       the chunk
 * @param denseRank   1-based rank in the dense route, or 0 if that route did not return it
 * @param denseScore  cosine similarity of query and chunk in [-1, 1] by the primary embedding
 *                    model, or NaN if not returned (or returned only by a language route's
 *                    field, see {@link HybridRetriever})
 * @param sparseRank  1-based rank in the BM25 route, or 0 if that route did not return it
 * @param sparseScore BM25 score, or NaN if not returned
 * @param fusedScore  fusion score (higher is better)
 * @param rerankScore reranker score (its scale depends on the reranker, see
 *                    {@code org.openbook.rerank}), or NaN when no reranker scored this hit
 * @param rerankRank  1-based rank after reranking, or 0 when no reranker scored this hit
 */
public record Hit(
    Chunk chunk,
    int denseRank,
    double denseScore,
    int sparseRank,
    double sparseScore,
    double fusedScore,
    double rerankScore,
    int rerankRank) {

  /** A hit no reranker has scored ({@code rerankRank} 0). */
  public Hit(Chunk chunk, int denseRank, double denseScore, int sparseRank, double sparseScore,
      double fusedScore, double rerankScore) {
    this(chunk, denseRank, denseScore, sparseRank, sparseScore, fusedScore, rerankScore, 0);
  }

  /** This hit with a reranker's score and the 1-based rank it gave. */
  public Hit withRerank(double score, int rank) {
    return new Hit(chunk, denseRank, denseScore, sparseRank, sparseScore, fusedScore, score, rank);
  }
}
