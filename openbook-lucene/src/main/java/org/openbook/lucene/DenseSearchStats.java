package org.openbook.lucene;

/**
 * Counters of the dense route of one {@link LuceneChunkStore} since it was opened, to see how
 * often a kNN search is not an HNSW graph search (the performance report prints them).
 *
 * @param queries           dense searches run ({@link LuceneChunkStore#searchDense} calls with a
 *                          non-empty filter)
 * @param segmentSearches   per-segment kNN searches (one per index segment per query)
 * @param exactSegments     segment searches Lucene ran as exact (brute-force) search instead of
 *                          the graph: when the filter allows fewer documents of the segment than
 *                          the graph search would visit, or the graph search visited that many
 *                          without finishing ({@code AbstractKnnVectorQuery#exactSearch})
 * @param fallbacks         queries where the HNSW result had fewer than top-N hits although the
 *                          filter allows more, so OpenBook's own exact search over every allowed
 *                          chunk replaced it ({@code ExactVectorSearch})
 * @param fallbackNanos     wall time spent in those fallbacks, in nanoseconds
 */
public record DenseSearchStats(long queries, long segmentSearches, long exactSegments,
    long fallbacks, long fallbackNanos) {

  /** The counters accumulated after {@code earlier} was taken (this minus earlier). */
  public DenseSearchStats since(DenseSearchStats earlier) {
    return new DenseSearchStats(queries - earlier.queries,
        segmentSearches - earlier.segmentSearches, exactSegments - earlier.exactSegments,
        fallbacks - earlier.fallbacks, fallbackNanos - earlier.fallbackNanos);
  }
}
