package org.openbook.retrieve;

import java.util.List;
import org.openbook.index.ScoredChunk;

/**
 * Weighted normalised-score fusion ("convex combination", Bruch, Gai and Ingber, "An Analysis of
 * Fusion Functions for Hybrid Retrieval", ACM TOIS 2023): each route's scores are min-max
 * normalised over the list that route returned, {@code n(s) = (s − min) / (max − min)} (1 when
 * all are equal), and {@code score(d) = denseWeight · n_dense(d) + sparseWeight · n_sparse(d)}; a
 * route that did not return {@code d} adds 0. Unlike RRF it keeps how far apart the scores are,
 * so a BM25 hit that towers over the rest is not flattened to its rank. Keyed by chunk id; ties
 * broken by best single-route rank, then chunk id.
 *
 * @param denseWeight  weight of the dense route, ≥ 0
 * @param sparseWeight weight of the BM25 route, ≥ 0
 */
public record MinMaxFusion(double denseWeight, double sparseWeight) implements Fusion {

  /** Equal weights. */
  public static final MinMaxFusion EQUAL = new MinMaxFusion(0.5, 0.5);

  public MinMaxFusion {
    if (!(denseWeight >= 0) || !(sparseWeight >= 0)) {
      throw new IllegalArgumentException("min-max fusion needs weights >= 0");
    }
  }

  @Override
  public String id() {
    return "minmax(dense=" + denseWeight + ",sparse=" + sparseWeight + ")";
  }

  @Override
  public List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse) {
    FusedScores fused = new FusedScores();
    double[] d = normalised(dense);
    for (int i = 0; i < dense.size(); i++) {
      fused.addDense(dense.get(i), denseWeight * d[i]);
    }
    double[] s = normalised(sparse);
    for (int i = 0; i < sparse.size(); i++) {
      fused.addSparse(sparse.get(i), sparseWeight * s[i]);
    }
    return fused.ranked();
  }

  /** {@code (s − min) / (max − min)} over the route's list; 1 for all when they are equal. */
  private static double[] normalised(List<ScoredChunk> route) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (ScoredChunk s : route) {
      min = Math.min(min, s.score());
      max = Math.max(max, s.score());
    }
    double span = max - min;
    double[] out = new double[route.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = span > 0 ? (route.get(i).score() - min) / span : 1.0;
    }
    return out;
  }
}
