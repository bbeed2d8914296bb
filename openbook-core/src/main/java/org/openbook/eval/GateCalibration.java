package org.openbook.eval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Calibration of gate 1 (refuse when the best dense cosine is below a threshold) from the best
 * cosines of answerable and unanswerable questions.
 *
 * <p>The groups separate when every answerable score is above every unanswerable one; the
 * suggested threshold is then the midpoint of the gap, which refuses all unanswerable and no
 * answerable question of this sample. When they overlap, no threshold is suggested: the overlap
 * and the trade-off at each observed score are reported instead, so nobody ships an invented
 * number.
 *
 * <p>Immutable.
 */
public final class GateCalibration {

  private final double[] answerable;
  private final double[] unanswerable;

  /**
   * @param answerable   best cosines of answerable questions (NaN entries are dropped)
   * @param unanswerable best cosines of unanswerable questions (NaN entries are dropped)
   * @throws IllegalArgumentException if either group has no score
   */
  public GateCalibration(double[] answerable, double[] unanswerable) {
    this.answerable = Arrays.stream(answerable).filter(v -> !Double.isNaN(v)).sorted().toArray();
    this.unanswerable =
        Arrays.stream(unanswerable).filter(v -> !Double.isNaN(v)).sorted().toArray();
    if (this.answerable.length == 0 || this.unanswerable.length == 0) {
      throw new IllegalArgumentException("calibration needs at least one answerable and one "
          + "unanswerable score, got " + this.answerable.length + " and "
          + this.unanswerable.length);
    }
  }

  /** Whether every answerable score is strictly above every unanswerable one. */
  public boolean separable() {
    return answerable[0] > unanswerable[unanswerable.length - 1];
  }

  /** The midpoint of the gap when {@link #separable()}, else NaN. */
  public double suggestedThreshold() {
    return separable() ? (answerable[0] + unanswerable[unanswerable.length - 1]) / 2 : Double.NaN;
  }

  /** Refusal decisions if the gate refused every score below {@code threshold}. */
  public RefusalCounts at(double threshold) {
    RefusalCounts c = RefusalCounts.EMPTY;
    for (double v : unanswerable) {
      c = c.add(true, v < threshold);
    }
    for (double v : answerable) {
      c = c.add(false, v < threshold);
    }
    return c;
  }

  /**
   * The trade-off at each distinct observed score used as threshold (refuse below it), lowest
   * first: {@code threshold, refusal recall, refusal precision, false-refusal rate}.
   */
  public List<double[]> sweep() {
    TreeSet<Double> points = new TreeSet<>();
    Arrays.stream(answerable).forEach(points::add);
    Arrays.stream(unanswerable).forEach(points::add);
    List<double[]> rows = new ArrayList<>();
    for (double t : points) {
      RefusalCounts c = at(t);
      rows.add(new double[] {t, c.recall(), c.precision(), c.falseRefusalRate()});
    }
    return rows;
  }

  /** Minimum, median (nearest rank) and maximum of a sorted group. */
  static double[] summary(double[] sorted) {
    return new double[] {sorted[0], Percentiles.of(sorted, 50), sorted[sorted.length - 1]};
  }

  /**
   * A plain-text report: both distributions (min/median/max and a histogram in 0.05-wide bins),
   * the verdict, and the suggested threshold with the precision/recall it gives, or the overlap.
   */
  public String render() {
    StringBuilder out = new StringBuilder();
    double[] a = summary(answerable);
    double[] u = summary(unanswerable);
    out.append(String.format(Locale.ROOT, "answerable   n=%d  min %.3f  median %.3f  max %.3f%n",
        answerable.length, a[0], a[1], a[2]));
    out.append(String.format(Locale.ROOT, "unanswerable n=%d  min %.3f  median %.3f  max %.3f%n",
        unanswerable.length, u[0], u[1], u[2]));
    out.append("\nbest dense cosine histogram (A = answerable, U = unanswerable)\n");
    // Integer bin indices, so float steps cannot drop the last bin.
    int first = (int) Math.floor(Math.min(a[0], u[0]) * 20);
    int last = (int) Math.floor(Math.max(a[2], u[2]) * 20);
    int most = 1;
    for (int bin = first; bin <= last; bin++) {
      most = Math.max(most, Math.max(countBin(answerable, bin), countBin(unanswerable, bin)));
    }
    // Bars are at most 40 characters; the counts are printed as numbers anyway.
    double scale = Math.min(1.0, 40.0 / most);
    for (int bin = first; bin <= last; bin++) {
      double b = bin / 20.0;
      int na = countBin(answerable, bin);
      int nu = countBin(unanswerable, bin);
      out.append(String.format(Locale.ROOT, "[%.2f, %.2f)  A %-4d %-40s U %-4d %s%n", b,
          b + 0.05, na, "#".repeat(bar(na, scale)), nu, "=".repeat(bar(nu, scale))));
    }
    out.append('\n');
    if (separable()) {
      double t = suggestedThreshold();
      RefusalCounts c = at(t);
      out.append(String.format(Locale.ROOT, "verdict: SEPARABLE (gap %.3f .. %.3f)%n",
          u[2], a[0]));
      out.append(String.format(Locale.ROOT,
          "suggested gate-1 threshold: %.3f  -> refusal precision %.3f, recall %.3f, "
              + "false-refusal rate %.3f on this sample%n",
          t, c.precision(), c.recall(), c.falseRefusalRate()));
    } else {
      int ansInOverlap = count(answerable, a[0], u[2] + 1e-12);
      int unsInOverlap = count(unanswerable, a[0], u[2] + 1e-12);
      out.append(String.format(Locale.ROOT,
          "verdict: NOT SEPARABLE: overlap [%.3f, %.3f] holds %d of %d answerable and %d of %d "
              + "unanswerable questions; no threshold refuses all unanswerable without refusing "
              + "answerable ones.%n",
          a[0], u[2], ansInOverlap, answerable.length, unsInOverlap, unanswerable.length));
      RefusalCounts safe = at(a[0]);
      out.append(String.format(Locale.ROOT,
          "highest threshold with no false refusal on this sample: %.3f (refuses below it) -> "
              + "refusal recall %.3f, precision %s%n",
          a[0], safe.recall(), EvalReport.f3(safe.precision())));
      out.append("\nthreshold sweep (refuse below t; one row per 0.01 for large samples), up to "
          + "full refusal recall:\n"
          + "   t      refusal-R  refusal-P  false-refusal\n");
      List<double[]> rows = sweep();
      if (rows.size() > 40) {
        rows = onGrid(rows);
      }
      for (double[] row : rows) {
        out.append(String.format(Locale.ROOT, "  %.3f    %.3f      %s      %.3f%n", row[0], row[1],
            EvalReport.f3(row[2]), row[3]));
        if (row[1] >= 1) {
          break;
        }
      }
    }
    return out.toString();
  }

  /** A non-empty count keeps at least one character. */
  private static int bar(int n, double scale) {
    return n == 0 ? 0 : Math.max(1, (int) Math.round(n * scale));
  }

  /** For large samples: the last sweep row at or below each multiple of 0.01. */
  private static List<double[]> onGrid(List<double[]> rows) {
    List<double[]> kept = new ArrayList<>();
    long cell = Long.MIN_VALUE;
    for (int i = 0; i < rows.size(); i++) {
      long c = (long) Math.floor(rows.get(i)[0] * 100);
      boolean lastInCell = i + 1 == rows.size()
          || (long) Math.floor(rows.get(i + 1)[0] * 100) != c;
      if (lastInCell && c != cell) {
        kept.add(rows.get(i));
        cell = c;
      }
    }
    return kept;
  }

  private static int countBin(double[] values, int bin) {
    int n = 0;
    for (double v : values) {
      if ((int) Math.floor(v * 20) == bin) {
        n++;
      }
    }
    return n;
  }

  private static int count(double[] values, double from, double to) {
    int n = 0;
    for (double v : values) {
      if (v >= from && v < to) {
        n++;
      }
    }
    return n;
  }
}
