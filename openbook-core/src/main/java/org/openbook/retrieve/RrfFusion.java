package org.openbook.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

/**
 * Weighted Reciprocal Rank Fusion: {@code score(d) = Σ_routes w / (k + rank(d))}, rank 1-based; a
 * route that did not return {@code d} adds nothing. From Cormack, Clarke and Büttcher, "Reciprocal
 * Rank Fusion outperforms Condorcet and individual Rank Learning Methods", SIGIR 2009, where
 * {@code k = 60}. Entries are keyed by chunk id, never by text, so equal passages from different
 * files stay apart. Ties are broken by best single-route rank, then chunk id, so the order is
 * deterministic.
 *
 * @param k            the RRF constant, &gt; 0
 * @param denseWeight  weight of the dense route, ≥ 0
 * @param sparseWeight weight of the sparse route, ≥ 0
 */
public record RrfFusion(double k, double denseWeight, double sparseWeight) implements Fusion {

  /** k = 60 and equal weights, as in the paper. */
  public static final RrfFusion DEFAULT = new RrfFusion(60, 1.0, 1.0);

  public RrfFusion {
    if (!(k > 0) || denseWeight < 0 || sparseWeight < 0) {
      throw new IllegalArgumentException("RRF needs k > 0 and weights >= 0");
    }
  }

  @Override
  public String id() {
    return "rrf(k=" + k + ",dense=" + denseWeight + ",sparse=" + sparseWeight + ")";
  }

  @Override
  public List<Hit> fuse(List<ScoredChunk> dense, List<ScoredChunk> sparse) {
    Map<String, Acc> byId = new LinkedHashMap<>();
    for (ScoredChunk s : dense) {
      Acc a = byId.computeIfAbsent(s.chunk().id(), id -> new Acc(s.chunk()));
      a.denseRank = s.rank();
      a.denseScore = s.score();
      a.fused += denseWeight / (k + s.rank());
    }
    for (ScoredChunk s : sparse) {
      Acc a = byId.computeIfAbsent(s.chunk().id(), id -> new Acc(s.chunk()));
      a.sparseRank = s.rank();
      a.sparseScore = s.score();
      a.fused += sparseWeight / (k + s.rank());
    }
    List<Acc> all = new ArrayList<>(byId.values());
    all.sort(Comparator.comparingDouble((Acc a) -> -a.fused)
        .thenComparingInt(Acc::bestRank)
        .thenComparing(a -> a.chunk.id()));
    List<Hit> hits = new ArrayList<>(all.size());
    for (Acc a : all) {
      hits.add(a.toHit());
    }
    return hits;
  }

  /** Mutable accumulator for one chunk id while fusing. */
  static final class Acc {
    final Chunk chunk;
    int denseRank;
    double denseScore = Double.NaN;
    int sparseRank;
    double sparseScore = Double.NaN;
    double fused;

    Acc(Chunk chunk) {
      this.chunk = chunk;
    }

    int bestRank() {
      int d = denseRank == 0 ? Integer.MAX_VALUE : denseRank;
      int s = sparseRank == 0 ? Integer.MAX_VALUE : sparseRank;
      return Math.min(d, s);
    }

    Hit toHit() {
      return new Hit(chunk, denseRank, denseScore, sparseRank, sparseScore, fused, Double.NaN);
    }
  }
}
