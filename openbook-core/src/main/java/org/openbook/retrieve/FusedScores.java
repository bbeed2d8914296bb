package org.openbook.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

/**
 * The bookkeeping every {@link Fusion} shares: one entry per chunk id (never per text), each
 * route's rank and score kept as returned, a fused score accumulated from the routes'
 * contributions, and one deterministic order: fused score descending, then best single-route
 * rank, then chunk id.
 */
final class FusedScores {
  private final Map<String, Entry> byId = new LinkedHashMap<>();

  /** Records a dense-route result and adds {@code contribution} to its fused score. */
  void addDense(ScoredChunk s, double contribution) {
    Entry e = entry(s.chunk());
    e.denseRank = s.rank();
    e.denseScore = s.score();
    e.fused += contribution;
  }

  /** Records a sparse-route result and adds {@code contribution} to its fused score. */
  void addSparse(ScoredChunk s, double contribution) {
    Entry e = entry(s.chunk());
    e.sparseRank = s.rank();
    e.sparseScore = s.score();
    e.fused += contribution;
  }

  /** Every chunk recorded, best first. */
  List<Hit> ranked() {
    List<Entry> all = new ArrayList<>(byId.values());
    all.sort(Comparator.comparingDouble((Entry e) -> -e.fused)
        .thenComparingInt(Entry::bestRank)
        .thenComparing(e -> e.chunk.id()));
    List<Hit> hits = new ArrayList<>(all.size());
    for (Entry e : all) {
      hits.add(new Hit(e.chunk, e.denseRank, e.denseScore, e.sparseRank, e.sparseScore, e.fused,
          Double.NaN));
    }
    return hits;
  }

  private Entry entry(Chunk c) {
    return byId.computeIfAbsent(c.id(), id -> new Entry(c));
  }

  /** Mutable accumulator for one chunk id while fusing. */
  private static final class Entry {
    final Chunk chunk;
    int denseRank;
    double denseScore = Double.NaN;
    int sparseRank;
    double sparseScore = Double.NaN;
    double fused;

    Entry(Chunk chunk) {
      this.chunk = chunk;
    }

    int bestRank() {
      int d = denseRank == 0 ? Integer.MAX_VALUE : denseRank;
      int s = sparseRank == 0 ? Integer.MAX_VALUE : sparseRank;
      return Math.min(d, s);
    }
  }
}
