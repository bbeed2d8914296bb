package org.openbook.retrieve;

import java.util.List;

/**
 * The outcome of retrieving once for a question.
 *
 * @param hits            at most top-k fused hits, best first
 * @param bestDenseScore  highest cosine similarity the dense route found among the chunks the
 *                        principal may read (the gate-1 signal), or NaN when the dense route did
 *                        not run or found nothing
 * @param denseCandidates how many candidates the dense route returned
 * @param sparseCandidates how many candidates the BM25 route returned
 * @param rerank          what the reranking stage did: empty when none is configured,
 *                        {@code "<reranker id>: n → k"} when it reordered, or
 *                        {@code "skipped: <why>"} when it fell back to the fused order
 *                        (see {@code org.openbook.rerank.RerankingRetriever})
 * @param rerankMillis    wall time of the reranking stage in ms (0 when none ran)
 * @param missingShards   shards of a distributed index that did not answer, so the hits come
 *                        from part of the index ({@link org.openbook.index.SearchCoverage});
 *                        empty when the search was complete
 */
public record SearchResult(
    List<Hit> hits, double bestDenseScore, int denseCandidates, int sparseCandidates,
    String rerank, long rerankMillis, List<String> missingShards) {

  public SearchResult {
    hits = List.copyOf(hits);
    rerank = rerank == null ? "" : rerank;
    missingShards = List.copyOf(missingShards);
  }

  /** A complete retrieval without a reranking stage. */
  public SearchResult(
      List<Hit> hits, double bestDenseScore, int denseCandidates, int sparseCandidates) {
    this(hits, bestDenseScore, denseCandidates, sparseCandidates, "", 0, List.of());
  }

  /** A retrieval without a reranking stage, from {@code missingShards} short of the index. */
  public SearchResult(List<Hit> hits, double bestDenseScore, int denseCandidates,
      int sparseCandidates, List<String> missingShards) {
    this(hits, bestDenseScore, denseCandidates, sparseCandidates, "", 0, missingShards);
  }

  /** A complete retrieval with the reranking stage's outcome. */
  public SearchResult(List<Hit> hits, double bestDenseScore, int denseCandidates,
      int sparseCandidates, String rerank, long rerankMillis) {
    this(hits, bestDenseScore, denseCandidates, sparseCandidates, rerank, rerankMillis,
        List.of());
  }

  /** This retrieval with {@code hits} as reordered (or not) by the reranking stage. */
  public SearchResult withRerank(List<Hit> hits, String rerank, long rerankMillis) {
    return new SearchResult(hits, bestDenseScore, denseCandidates, sparseCandidates, rerank,
        rerankMillis, missingShards);
  }

  /** A retrieval that found nothing. */
  public static SearchResult empty() {
    return new SearchResult(List.of(), Double.NaN, 0, 0);
  }

  /** Whether some shard did not answer, so the hits come from part of the index. */
  public boolean partial() {
    return !missingShards.isEmpty();
  }
}
