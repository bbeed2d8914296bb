package org.openbook.bench.scale;

import java.util.Arrays;
import org.openbook.eval.Percentiles;

/**
 * Percentiles of one series of per-query wall times, in milliseconds.
 *
 * @param n    number of timed queries
 * @param mean arithmetic mean
 */
public record Latency(int n, double p50, double p95, double p99, double mean) {

  /** The percentiles of {@code millis} (nearest-rank, {@link Percentiles}). */
  public static Latency of(double[] millis) {
    return new Latency(millis.length, Percentiles.of(millis, 50), Percentiles.of(millis, 95),
        Percentiles.of(millis, 99), Arrays.stream(millis).average().orElse(Double.NaN));
  }

  /** Single-thread throughput implied by the mean, queries per second. */
  public double qps() {
    return 1000.0 / mean;
  }
}
