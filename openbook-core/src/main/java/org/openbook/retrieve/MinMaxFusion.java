package org.openbook.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
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
    Map<String, RrfFusion.Acc> byId = new LinkedHashMap<>();
    add(byId, dense, denseWeight, true);
    add(byId, sparse, sparseWeight, false);
    List<RrfFusion.Acc> all = new ArrayList<>(byId.values());
    all.sort(Comparator.comparingDouble((RrfFusion.Acc a) -> -a.fused)
        .thenComparingInt(RrfFusion.Acc::bestRank)
        .thenComparing(a -> a.chunk.id()));
    List<Hit> hits = new ArrayList<>(all.size());
    all.forEach(a -> hits.add(a.toHit()));
    return hits;
  }

  private static void add(Map<String, RrfFusion.Acc> byId, List<ScoredChunk> route, double weight,
      boolean isDense) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    for (ScoredChunk s : route) {
      min = Math.min(min, s.score());
      max = Math.max(max, s.score());
    }
    double span = max - min;
    for (ScoredChunk s : route) {
      Chunk c = s.chunk();
      RrfFusion.Acc a = byId.computeIfAbsent(c.id(), id -> new RrfFusion.Acc(c));
      if (isDense) {
        a.denseRank = s.rank();
        a.denseScore = s.score();
      } else {
        a.sparseRank = s.rank();
        a.sparseScore = s.score();
      }
      a.fused += weight * (span > 0 ? (s.score() - min) / span : 1.0);
    }
  }
}
