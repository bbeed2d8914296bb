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
 */
public record SearchResult(
    List<Hit> hits, double bestDenseScore, int denseCandidates, int sparseCandidates) {

  public SearchResult {
    hits = List.copyOf(hits);
  }

  /** A retrieval that found nothing. */
  public static SearchResult empty() {
    return new SearchResult(List.of(), Double.NaN, 0, 0);
  }
}
