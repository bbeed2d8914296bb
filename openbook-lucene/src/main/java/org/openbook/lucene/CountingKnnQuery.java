package org.openbook.lucene;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.knn.KnnCollectorManager;

/**
 * Lucene's filtered HNSW query, counting the segments it searches exactly instead of through the
 * graph (the store's {@link DenseSearchStats#exactSegments()}), and optionally without Lucene's
 * cross-segment pruning.
 *
 * <p>Since Lucene 9.10 the graph searches of the segments share one global top-k heap ({@code
 * TopKnnCollectorManager} with a {@code MultiLeafKnnCollector}, apache/lucene#12962): a segment
 * stops exploring once its candidates cannot beat the k-th best score found in the segments
 * searched so far. That saves time, but on an index of many segments it also cuts short searches
 * that would have found true neighbours. With {@code crossSegmentPruning} false every segment's
 * graph is searched for its own top-k ({@code TopKnnCollector}, Lucene's behaviour before 9.10),
 * and the per-segment results are merged as before.
 */
final class CountingKnnQuery extends KnnFloatVectorQuery {
  private final AtomicLong exactSegments;
  private final boolean crossSegmentPruning;

  CountingKnnQuery(String field, float[] target, int k, Query filter, AtomicLong exactSegments,
      boolean crossSegmentPruning) {
    super(field, target, k, filter);
    this.exactSegments = exactSegments;
    this.crossSegmentPruning = crossSegmentPruning;
  }

  @Override
  protected KnnCollectorManager getKnnCollectorManager(int k, IndexSearcher searcher) {
    if (crossSegmentPruning) {
      return super.getKnnCollectorManager(k, searcher);
    }
    return (visitedLimit, context) -> new TopKnnCollector(k, visitedLimit);
  }

  @Override
  protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator,
      QueryTimeout queryTimeout) throws IOException {
    exactSegments.incrementAndGet();
    return super.exactSearch(context, acceptIterator, queryTimeout);
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && ((CountingKnnQuery) o).crossSegmentPruning == crossSegmentPruning;
  }

  @Override
  public int hashCode() {
    return 31 * super.hashCode() + Boolean.hashCode(crossSegmentPruning);
  }
}
