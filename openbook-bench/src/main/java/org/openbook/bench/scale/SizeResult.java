package org.openbook.bench.scale;

import java.util.List;
import org.openbook.lucene.DenseSearchStats;

/**
 * Everything measured at one corpus size, in one run.
 *
 * @param chunks              corpus size
 * @param indexSeconds        wall time to write and commit every chunk into a fresh store
 *                            (vectors given, no embedding)
 * @param indexBytes          size of the index folder on disk
 * @param segments            Lucene segments after the commit
 * @param embedding           query embedding alone (the model, no cache)
 * @param dense               dense route only, query vector given (no embedding)
 * @param bm25                BM25 route only
 * @param hybrid              both routes and the fusion, query vector given (no embedding)
 * @param hybridWithEmbedding {@code OpenBook.search}: embedding + both routes + fusion
 * @param servingStats        dense-route counters during the timed queries
 * @param recall              HNSW recall rows
 * @param rareFilter          dense route with a department filter that allows about 1% of the
 *                            chunks, vector given
 * @param rareStats           dense-route counters during those queries
 * @param probe               memory while serving (separate JVM), or null when not run
 * @param hnsw                the HNSW settings measured, e.g. {@code M 16, beam width 100,
 *                            efSearch 50}; null in reports written before it was recorded
 * @param mergeSeconds        wall time of the force-merge after the build (then {@code
 *                            segments} counts the merged index), or null when none ran
 * @param loadAverage         the machine's 1-minute load average before → after the timed
 *                            queries ({@code /proc/loadavg}), or null where unknown
 */
public record SizeResult(int chunks, double indexSeconds, long indexBytes, int segments,
    Latency embedding, Latency dense, Latency bm25, Latency hybrid, Latency hybridWithEmbedding,
    DenseSearchStats servingStats, List<RecallRow> recall, Latency rareFilter,
    DenseSearchStats rareStats, Probe probe, String hnsw, Double mergeSeconds,
    String loadAverage) {

  /**
   * One HNSW recall measurement.
   *
   * @param filter       departments allowed
   * @param allowedShare share of the corpus the filter allows
   * @param k            top-k asked of the HNSW search (10, or fetch-k as the retriever asks)
   * @param recall10     mean share of the exact filtered top-10 (by chunk id) found in the HNSW
   *                     top 10
   * @param recall10Threshold mean share of the HNSW top 10 whose exact cosine is at least the
   *                     exact 10th cosine minus {@link ExactKnn#EPSILON} (ANN-Benchmarks'
   *                     distance-threshold recall, which counts a tie at the 10th place as
   *                     found); null in reports written before it was recorded
   * @param candidates   nearest neighbours the HNSW search was asked for (max(k, efSearch))
   * @param stats        dense-route counters during these queries
   */
  public record RecallRow(String filter, double allowedShare, int k, double recall10,
      Double recall10Threshold, Integer candidates, DenseSearchStats stats) {}

  /**
   * Memory of a separate serving JVM after its queries.
   *
   * @param xmx           the {@code -Xmx} it ran with
   * @param rssKb         {@code VmRSS}
   * @param hwmKb         {@code VmHWM} (peak RSS)
   * @param heapUsedMb    heap in use after a full GC
   * @param heapCommittedMb heap committed
   */
  public record Probe(String xmx, long rssKb, long hwmKb, double heapUsedMb,
      double heapCommittedMb) {}
}
