package org.openbook.answer;

import java.util.List;
import java.util.Map;

/**
 * Per-citation lexical support found by {@link SupportChecker}.
 *
 * @param scores    for each validly cited number, its lowest support score over the claims
 *                  citing it, in [0, 1]; iteration order = order of first use
 * @param threshold the score a citation needs to count as supported
 */
public record SupportReport(Map<Integer, Double> scores, double threshold) {

  public SupportReport {
    scores = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(scores));
  }

  /** Whether citation {@code n} is supported; true for a number that was not checked. */
  public boolean supported(int n) {
    return scores.getOrDefault(n, 1.0) >= threshold;
  }

  /** The cited numbers whose support is below the threshold, in order of first use. */
  public List<Integer> unsupported() {
    return scores.keySet().stream().filter(n -> !supported(n)).toList();
  }
}
