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
 * @param missingShards   shards of a distributed index that did not answer, so the hits come
 *                        from part of the index ({@link org.openbook.index.SearchCoverage});
 *                        empty when the search was complete
 */
public record SearchResult(List<Hit> hits, double bestDenseScore, int denseCandidates,
    int sparseCandidates, List<String> missingShards) {

  public SearchResult {
    hits = List.copyOf(hits);
    missingShards = List.copyOf(missingShards);
  }

  /** A complete retrieval (every shard answered). */
  public SearchResult(
      List<Hit> hits, double bestDenseScore, int denseCandidates, int sparseCandidates) {
    this(hits, bestDenseScore, denseCandidates, sparseCandidates, List.of());
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
