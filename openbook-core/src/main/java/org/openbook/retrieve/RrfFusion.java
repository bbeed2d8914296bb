package org.openbook.retrieve;

import java.util.List;
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
    FusedScores fused = new FusedScores();
    for (ScoredChunk s : dense) {
      fused.addDense(s, denseWeight / (k + s.rank()));
    }
    for (ScoredChunk s : sparse) {
      fused.addSparse(s, sparseWeight / (k + s.rank()));
    }
    return fused.ranked();
  }
}
