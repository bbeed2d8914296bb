package org.openbook.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

/**
 * Merges the results of the primary dense field and a language field (the English model's)
 * searched for one question into one dense list. Cosines of two models are on different scales,
 * so each list is min-max normalised over its own candidates, the language field's with weight 1
 * and the primary field's with {@link #PRIMARY_WEIGHT}; a chunk in one list only gets that
 * list's part. The merged score is therefore in [0, 1 + {@link #PRIMARY_WEIGHT}], not a cosine:
 * it only orders the dense candidates before fusion with BM25 (gate 1 keeps the primary field's
 * cosine, see {@link HybridRetriever}).
 */
final class DenseRouteMerge {
  /**
   * Weight of the primary (Chinese-model) list against the language field's 1. Measured on XQuAD
   * en, dense only (docs/BENCHMARKS.md, "Language-aware dense routes"): English model alone R@1
   * 0.934 / MRR@10 0.959; with the primary list at 0.1 / 0.2 / 0.3 / 0.5 / 1.0: 0.940 / 0.942 /
   * 0.939 / 0.929 / 0.836 R@1. The primary list stays in at all because it is the only one
   * holding Chinese passages for an English question.
   */
  static final double PRIMARY_WEIGHT = 0.2;

  private DenseRouteMerge() {}

  /**
   * One list, ranks 1..n by merged score (ties: chunk id), every chunk once.
   *
   * @param a the primary field's results (weight {@link #PRIMARY_WEIGHT})
   * @param b the language field's results (weight 1)
   */
  static List<ScoredChunk> merge(List<ScoredChunk> a, List<ScoredChunk> b) {
    if (b.isEmpty()) {
      return a;
    }
    if (a.isEmpty()) {
      return b;
    }
    Map<String, Chunk> chunks = new LinkedHashMap<>();
    Map<String, Double> score = new LinkedHashMap<>();
    for (List<ScoredChunk> route : List.of(a, b)) {
      double weight = route == a ? PRIMARY_WEIGHT : 1.0;
      double max = route.stream().mapToDouble(ScoredChunk::score).max().orElse(0);
      double min = route.stream().mapToDouble(ScoredChunk::score).min().orElse(0);
      for (ScoredChunk s : route) {
        // One candidate, or all equal: no spread to normalise, count it fully.
        double n = max > min ? (s.score() - min) / (max - min) : 1.0;
        chunks.putIfAbsent(s.chunk().id(), s.chunk());
        score.merge(s.chunk().id(), weight * n, Double::sum);
      }
    }
    List<String> ids = new ArrayList<>(score.keySet());
    ids.sort(Comparator.comparingDouble((String id) -> -score.get(id))
        .thenComparing(Comparator.naturalOrder()));
    List<ScoredChunk> out = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      out.add(new ScoredChunk(chunks.get(ids.get(i)), i + 1, score.get(ids.get(i))));
    }
    return out;
  }
}
