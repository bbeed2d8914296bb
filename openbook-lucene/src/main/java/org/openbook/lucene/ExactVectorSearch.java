package org.openbook.lucene;

import java.io.IOException;
import java.util.Comparator;
import java.util.PriorityQueue;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Brute-force nearest neighbours over the documents a filter allows: the fallback when the HNSW
 * search returns fewer results than asked although more documents are allowed. That happens when
 * many identical vectors (a repetitive log file, boilerplate pages) disconnect the graph
 * (apache/lucene#12627, #13611). Cost is linear in the allowed documents, so it runs only then.
 */
final class ExactVectorSearch {
  private ExactVectorSearch() {}

  /**
   * The {@code topN} allowed documents with a vector in {@code field} with the highest {@link
   * ChunkFields#SIMILARITY} to {@code unit}, scored exactly as the HNSW query scores them.
   */
  static ScoreDoc[] topN(IndexSearcher searcher, String field, Query filter, float[] unit,
      int topN) throws IOException {
    Weight allowed = searcher.createWeight(searcher.rewrite(filter),
        ScoreMode.COMPLETE_NO_SCORES, 1f);
    // min-heap of the best topN so far: lowest score (then highest doc id) on top
    PriorityQueue<ScoreDoc> best = new PriorityQueue<>(topN,
        Comparator.comparingDouble((ScoreDoc d) -> d.score).thenComparingInt(d -> -d.doc));
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = allowed.scorer(leaf);
      FloatVectorValues vectors = leaf.reader().getFloatVectorValues(field);
      if (scorer == null || vectors == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      DocIdSetIterator docs = scorer.iterator();
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        if (vectors.docID() < doc) {
          vectors.advance(doc);
        }
        if (vectors.docID() != doc) {
          continue;
        }
        float score = ChunkFields.SIMILARITY.compare(unit, vectors.vectorValue());
        best.add(new ScoreDoc(leaf.docBase + doc, score));
        if (best.size() > topN) {
          best.poll();
        }
      }
    }
    ScoreDoc[] out = new ScoreDoc[best.size()];
    for (int i = out.length - 1; i >= 0; i--) {
      out[i] = best.poll();
    }
    return out;
  }
}
