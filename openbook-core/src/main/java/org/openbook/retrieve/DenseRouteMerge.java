package org.openbook.retrieve;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

/**
 * Merges the results of two dense fields searched for one question (the primary model's and the
 * English model's) into one dense list. Cosines of two models are on different scales (bge-en
 * puts unrelated English pairs near 0.5, bge-zh near 0.3), so each list is min-max normalised
 * over its own candidates and the two are added with equal weight; a chunk in one list only gets
 * that list's part. The merged score is therefore in [0, 2], not a cosine: it only orders the
 * dense candidates before fusion with BM25 (gate 1 keeps the primary route's cosine, see
 * {@link HybridRetriever}).
 *
 * <p>Equal weights are what docs/BENCHMARKS.md measured (XQuAD en and en→zh).
 */
final class DenseRouteMerge {
  private DenseRouteMerge() {}

  /** One list, ranks 1..n by merged score (ties: chunk id), every chunk once. */
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
      double max = route.stream().mapToDouble(ScoredChunk::score).max().orElse(0);
      double min = route.stream().mapToDouble(ScoredChunk::score).min().orElse(0);
      for (ScoredChunk s : route) {
        // One candidate, or all equal: no spread to normalise, count it fully.
        double n = max > min ? (s.score() - min) / (max - min) : 1.0;
        chunks.putIfAbsent(s.chunk().id(), s.chunk());
        score.merge(s.chunk().id(), n, Double::sum);
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
