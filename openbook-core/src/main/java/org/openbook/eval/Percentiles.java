package org.openbook.eval;

import java.util.Arrays;

/** Nearest-rank percentiles of a sample (e.g. latencies in milliseconds). */
public final class Percentiles {

  private Percentiles() {}

  /**
   * The nearest-rank {@code p}-th percentile: the smallest value such that at least {@code p}% of
   * the sample is ≤ it, i.e. sorted[ceil(p / 100 · n) − 1].
   *
   * @param values the sample, not modified; NaN when empty
   * @param p      percentile in (0, 100]
   */
  public static double of(double[] values, double p) {
    if (!(p > 0 && p <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
    }
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100 * sorted.length);
    return sorted[Math.max(rank, 1) - 1];
  }
}
