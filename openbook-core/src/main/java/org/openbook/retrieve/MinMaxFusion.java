package org.openbook.retrieve;

import java.util.List;
import org.openbook.index.ScoredChunk;

/**
 * Weighted normalised-score fusion ("convex combination", Bruch, Gai and Ingber, "An Analysis of
 * Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): each route's scores are min-max
 * normalised over the list that route returned, {@code n(s) = (s − lo) / (hi − lo)}, and {@code
 * score(d) = denseWeight · n_dense(d) + sparseWeight · n_sparse(d)}; a route that did not return
 * {@code d} adds 0. Unlike RRF it keeps how far apart the scores are, so a BM25 hit that towers
 * over the rest is not flattened to its rank. Keyed by chunk id; ties broken by best single-route
 * rank, then chunk id.
 *
 * <p><b>Minimum spread.</b> Plain min-max ({@code lo} = the list's lowest score, {@code hi} its
 * highest) stretches whatever a route returned to the full [0, 1]: a route with one weak
 * candidate, or with near-equal candidates, gets the whole weight for noise (a question sharing
 * one common word with one passage gives that passage BM25 score 1). So each route's scale is
 * made to span at least a minimum width {@code Δ}, measured in the route's own absolute units,
 * never below the route's theoretical minimum {@code m}:
 * <pre>
 *   hi = max(observed max, m + Δ)
 *   lo = max(m, min(observed min, hi − Δ))
 * </pre>
 * For the dense route {@code m = −1} and {@code Δ = denseMinSpread} (a cosine difference); for
 * BM25 {@code m = 0} and {@code Δ = sparseMinShare} × the query's maximum attainable BM25 score
 * ({@link org.openbook.index.ChunkStore.SparseSearch#maxSparseScore}). A lone BM25 match that
 * reaches {@code Δ} still scores 1; one below it scores its share of {@code Δ}; near-equal scores
 * stay near-equal. When the lists are wide (the usual case on a real corpus) nothing changes.
 * With both minima 0, or when the BM25 bound is unknown (NaN), it is plain min-max, where a
 * route whose scores are all equal gets 1.
 *
 * @param denseWeight    weight of the dense route, ≥ 0
 * @param sparseWeight   weight of the BM25 route, ≥ 0
 * @param denseMinSpread minimum width of the dense scale in cosine units, in [0, 2]
 * @param sparseMinShare minimum width of the BM25 scale as a share of the query's maximum
 *                       attainable BM25 score, in [0, 1]
 */
public record MinMaxFusion(double denseWeight, double sparseWeight, double denseMinSpread,
    double sparseMinShare) implements Fusion {

  /** Equal weights, plain min-max. */
  public static final MinMaxFusion EQUAL = new MinMaxFusion(0.5, 0.5);

  public MinMaxFusion {
    if (!(denseWeight >= 0) || !(sparseWeight >= 0)) {
      throw new IllegalArgumentException("min-max fusion needs weights >= 0");
    }
    if (!(denseMinSpread >= 0 && denseMinSpread <= 2)
        || !(sparseMinShare >= 0 && sparseMinShare <= 1)) {
      throw new IllegalArgumentException("min-max fusion needs a dense minimum spread in [0, 2] "
          + "and a BM25 minimum share in [0, 1], got " + denseMinSpread + " and "
          + sparseMinShare);
    }
  }

  /** Plain min-max with the given weights (no minimum spread). */
  public MinMaxFusion(double denseWeight, double sparseWeight) {
    this(denseWeight, sparseWeight, 0, 0);
  }

  @Override
  public String id() {
    String base = "minmax(dense=" + denseWeight + ",sparse=" + sparseWeight;
    return denseMinSpread == 0 && sparseMinShare == 0 ? base + ")"
        : base + ",denseSpread=" + denseMinSpread + ",sparseShare=" + sparseMinShare + ")";
  }

  /** Only a BM25 minimum share needs the query's maximum attainable BM25 score. */
  @Override
  public boolean usesSparseMaxScore() {
    return sparseMinShare > 0;
  }

  @Override
  public List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse) {
    return fuse(dense, sparse, Double.NaN);
  }

  @Override
  public List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse,
      double sparseMaxScore) {
    FusedScores fused = new FusedScores();
    double[] d = normalised(dense, -1, denseMinSpread);
    for (int i = 0; i < dense.size(); i++) {
      fused.addDense(dense.get(i), denseWeight * d[i]);
    }
    double sparseSpread = sparseMaxScore > 0 ? sparseMinShare * sparseMaxScore : 0;
    double[] s = normalised(sparse, 0, sparseSpread);
    for (int i = 0; i < sparse.size(); i++) {
      fused.addSparse(sparse.get(i), sparseWeight * s[i]);
    }
    return fused.ranked();
  }

  /**
   * {@code (s − lo) / (hi − lo)} over the route's list with the scale widened to at least
   * {@code spread} above {@code floor} (see the class comment); 1 for all when it is empty.
   */
  private static double[] normalised(List<ScoredChunk> route, double floor, double spread) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (ScoredChunk s : route) {
      min = Math.min(min, s.score());
      max = Math.max(max, s.score());
    }
    double hi = Math.max(max, floor + spread);
    double lo = Math.max(floor, Math.min(min, hi - spread));
    double span = hi - lo;
    double[] out = new double[route.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = span > 0 ? (route.get(i).score() - lo) / span : 1.0;
    }
    return out;
  }
}
