package org.openbook.lucene;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.QueryTimeout;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TopDocs;

/**
 * Lucene's filtered HNSW query, counting the segments it searches exactly instead of through the
 * graph (the store's {@link DenseSearchStats#exactSegments()}). Search behaviour is unchanged.
 */
final class CountingKnnQuery extends KnnFloatVectorQuery {
  private final AtomicLong exactSegments;

  CountingKnnQuery(String field, float[] target, int k, Query filter, AtomicLong exactSegments) {
    super(field, target, k, filter);
    this.exactSegments = exactSegments;
  }

  @Override
  protected TopDocs exactSearch(LeafReaderContext context, DocIdSetIterator acceptIterator,
      QueryTimeout queryTimeout) throws IOException {
    exactSegments.incrementAndGet();
    return super.exactSearch(context, acceptIterator, queryTimeout);
  }
}
