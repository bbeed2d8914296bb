package org.openbook.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.openbook.answer.EvidenceGate;

/**
 * Calibration of the two-signal gate 1 ({@link EvidenceGate}): per question the gate's
 * {@link EvidenceGate.Verdict} on the top-k passages the answer would use, next to the best
 * cosine of the dense route alone (the old rule), for answerable and unanswerable questions.
 *
 * <p>{@link #render} prints a trade-off table: for each dense threshold, the old rule
 * (dense route only) and the two-signal rule at several lexical thresholds — refusal recall
 * (share of unanswerable questions refused), false-refusal rate (share of answerable questions
 * refused) and refusal precision. Nothing is suggested: the table is for a person to choose from,
 * as {@link GateCalibration} does for one signal.
 *
 * <p>Immutable.
 */
public final class TwoSignalCalibration {

  /**
   * What gate 1 sees for one question.
   *
   * @param routeDense best cosine of the dense route (principal-filtered), NaN when none
   * @param verdict    the two-signal gate's verdict on the top-k hits
   */
  public record Evidence(double routeDense, EvidenceGate.Verdict verdict) {

    /** Whether the old rule (dense route best cosine ≥ {@code t}) lets it through. */
    public boolean passesOld(double t) {
      return routeDense >= t;
    }

    /**
     * Whether the two-signal rule lets it through: top-k best cosine ≥ {@code t}, or an
     * identifier match, or a lexical share ≥ {@code lexical} (with a rare term).
     */
    public boolean passesNew(double t, double lexical) {
      return verdict.bestDense() >= t || !verdict.matchedTerm().isEmpty()
          || verdict.bestLexical() >= lexical;
    }
  }

  /** Dense thresholds of the table. */
  static final double[] DENSE = {0.45, 0.50, 0.53, 0.54, 0.55, 0.56, 0.57, 0.58, 0.60, 0.65};
  /** Lexical thresholds of the table; above 1 means the lexical share is off. */
  static final double[] LEXICAL = {0.6, 0.7, 0.8, 0.9, 1.0, Double.POSITIVE_INFINITY};

  private final List<Evidence> answerable;
  private final List<Evidence> unanswerable;

  /**
   * @throws IllegalArgumentException if either group is empty
   */
  public TwoSignalCalibration(List<Evidence> answerable, List<Evidence> unanswerable) {
    if (answerable.isEmpty() || unanswerable.isEmpty()) {
      throw new IllegalArgumentException("calibration needs answerable and unanswerable "
          + "questions, got " + answerable.size() + " and " + unanswerable.size());
    }
    this.answerable = List.copyOf(answerable);
    this.unanswerable = List.copyOf(unanswerable);
  }

  /** Refusal decisions of the old rule at dense threshold {@code t}. */
  public RefusalCounts old(double t) {
    return count(e -> !e.passesOld(t));
  }

  /** Refusal decisions of the two-signal rule at {@code t} and {@code lexical}. */
  public RefusalCounts twoSignal(double t, double lexical) {
    return count(e -> !e.passesNew(t, lexical));
  }

  private RefusalCounts count(java.util.function.Predicate<Evidence> refuses) {
    RefusalCounts c = RefusalCounts.EMPTY;
    for (Evidence e : unanswerable) {
      c = c.add(true, refuses.test(e));
    }
    for (Evidence e : answerable) {
      c = c.add(false, refuses.test(e));
    }
    return c;
  }

  /** Share of each group let through by the identifier signal alone, for the report. */
  private static double identifierShare(List<Evidence> es) {
    return (double) es.stream().filter(e -> !e.verdict().matchedTerm().isEmpty()).count()
        / es.size();
  }

  /** The trade-off table as text (see the class comment). */
  public String render() {
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "answerable n=%d, unanswerable n=%d; identifier match "
        + "in the top-k: answerable %.3f, unanswerable %.3f%n", answerable.size(),
        unanswerable.size(), identifierShare(answerable), identifierShare(unanswerable)));
    sb.append("rule                              dense-t  refusal-R  false-refusal  refusal-P\n");
    List<String> rows = new ArrayList<>();
    for (double t : DENSE) {
      rows.add(row("old: dense route only", t, old(t)));
      for (double l : LEXICAL) {
        String name = Double.isInfinite(l) ? "two-signal, identifier only"
            : String.format(Locale.ROOT, "two-signal, lexical >= %.1f", l);
        rows.add(row(name, t, twoSignal(t, l)));
      }
    }
    rows.forEach(sb::append);
    return sb.toString();
  }

  /**
   * A finer look at one lexical threshold: for each dense threshold from {@code from} to
   * {@code to} (inclusive, {@code step} apart), the refusals of the old rule and of the
   * two-signal rule as counts (refused unanswerable of all unanswerable, refused answerable of
   * all answerable) and shares, so neighbouring thresholds can be compared question by question.
   *
   * @param lexical lexical threshold of the two-signal rule (above 1: lexical share off)
   * @throws IllegalArgumentException if {@code step} is not positive or {@code to < from}
   */
  public String renderSweep(double lexical, double from, double to, double step) {
    if (!(step > 0) || to < from) {
      throw new IllegalArgumentException("sweep needs step > 0 and to >= from, got from " + from
          + ", to " + to + ", step " + step);
    }
    StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
        "dense-t  old: refused-unanswerable  false-refusals   two-signal (lexical %.2f): "
            + "refused-unanswerable  false-refusals%n", lexical));
    // integer steps, so 0.55 + 5 x 0.002 is printed as 0.560, not 0.5599999
    long n = Math.round((to - from) / step);
    for (long i = 0; i <= n; i++) {
      double t = Math.round((from + i * step) * 1e6) / 1e6;
      RefusalCounts o = old(t);
      RefusalCounts w = twoSignal(t, lexical);
      sb.append(String.format(Locale.ROOT, "%7.3f  %s  %s   %s  %s%n", t, share(
          o.refusedUnanswerable(), unanswerable.size()), share(o.refusedAnswerable(),
          answerable.size()), share(w.refusedUnanswerable(), unanswerable.size()),
          share(w.refusedAnswerable(), answerable.size())));
    }
    return sb.toString();
  }

  private static String share(int k, int n) {
    return String.format(Locale.ROOT, "%5d/%-5d %.3f", k, n, (double) k / n);
  }

  private static String row(String name, double t, RefusalCounts c) {
    return String.format(Locale.ROOT, "%-33s %7.2f  %9.3f  %13.3f  %9s%n", name, t, c.recall(),
        c.falseRefusalRate(), Double.isNaN(c.precision()) ? "-"
            : String.format(Locale.ROOT, "%.3f", c.precision()));
  }
}
