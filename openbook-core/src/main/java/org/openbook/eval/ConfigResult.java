package org.openbook.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scores of one retrieval configuration over one question set.
 *
 * @param name        short configuration name, e.g. {@code hybrid}
 * @param description what it is, e.g. {@code rrf(k=60.0,dense=1.0,sparse=1.0)}
 * @param overall     ranking metrics over every question with gold
 * @param byType      the same per query type, sorted by type
 * @param refusal     refusal decisions, or null when refusal was not measured
 * @param latencyP50  median retrieval latency in ms (NaN without timings)
 * @param latencyP95  95th-percentile retrieval latency in ms (NaN without timings)
 * @param rerankP50   median time of the reranking stage in ms, part of the latency above (NaN
 *                    when the configuration does not rerank)
 * @param answers     answers holding every expected fragment, or null when not measured
 */
public record ConfigResult(
    String name, String description, RankingScores overall,
    Map<String, RankingScores> byType, RefusalCounts refusal, double latencyP50,
    double latencyP95, double rerankP50, AnswerContains answers) {

  public ConfigResult {
    byType = java.util.Collections.unmodifiableMap(new TreeMap<>(byType));
  }

  /** A result without the answer-content check. */
  public ConfigResult(String name, String description, RankingScores overall,
      Map<String, RankingScores> byType, RefusalCounts refusal, double latencyP50,
      double latencyP95, double rerankP50) {
    this(name, description, overall, byType, refusal, latencyP50, latencyP95, rerankP50, null);
  }

  /**
   * Aggregates the outcomes of one configuration.
   *
   * @param outcomes one per question; questions without gold count only towards refusal
   */
  public static ConfigResult summarize(String name, String description,
      List<QueryOutcome> outcomes) {
    List<Judged> all = new ArrayList<>();
    Map<String, List<Judged>> perType = new TreeMap<>();
    RefusalCounts refusal = null;
    AnswerContains answers = null;
    double[] latency = new double[outcomes.size()];
    List<Double> rerank = new ArrayList<>();
    int i = 0;
    for (QueryOutcome o : outcomes) {
      latency[i++] = o.latencyMillis();
      if (!Double.isNaN(o.rerankMillis())) {
        rerank.add(o.rerankMillis());
      }
      if (o.judged() != null) {
        all.add(o.judged());
        perType.computeIfAbsent(o.type(), t -> new ArrayList<>()).add(o.judged());
      }
      if (o.refused() != null) {
        refusal = (refusal == null ? RefusalCounts.EMPTY : refusal)
            .add(o.expectRefuse(), o.refused());
      }
      if (o.holdsAll() != null) {
        answers = (answers == null ? AnswerContains.EMPTY : answers).add(o.id(), o.holdsAll());
      }
    }
    Map<String, RankingScores> byType = new TreeMap<>();
    perType.forEach((t, js) -> byType.put(t, RankingScores.of(js)));
    return new ConfigResult(name, description, RankingScores.of(all), byType, refusal,
        Percentiles.of(latency, 50), Percentiles.of(latency, 95),
        rerank.isEmpty() ? Double.NaN
            : Percentiles.of(rerank.stream().mapToDouble(Double::doubleValue).toArray(), 50),
        answers);
  }
}
