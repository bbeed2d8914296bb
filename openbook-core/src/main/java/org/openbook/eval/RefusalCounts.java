package org.openbook.eval;

/**
 * Confusion counts of refusal decisions, with "refuse" as the positive class.
 *
 * @param refusedUnanswerable  expected refuse and refused (true positive)
 * @param refusedAnswerable    expected answer but refused: a false refusal (false positive)
 * @param answeredUnanswerable expected refuse but answered (false negative)
 * @param answeredAnswerable   expected answer and answered (true negative)
 */
public record RefusalCounts(
    int refusedUnanswerable, int refusedAnswerable, int answeredUnanswerable,
    int answeredAnswerable) {

  /** No decisions yet. */
  public static final RefusalCounts EMPTY = new RefusalCounts(0, 0, 0, 0);

  /** These counts plus one decision. */
  public RefusalCounts add(boolean expectRefuse, boolean refused) {
    return new RefusalCounts(
        refusedUnanswerable + (expectRefuse && refused ? 1 : 0),
        refusedAnswerable + (!expectRefuse && refused ? 1 : 0),
        answeredUnanswerable + (expectRefuse && !refused ? 1 : 0),
        answeredAnswerable + (!expectRefuse && !refused ? 1 : 0));
  }

  /** Decisions counted. */
  public int total() {
    return refusedUnanswerable + refusedAnswerable + answeredUnanswerable + answeredAnswerable;
  }

  /** Of the refusals, the share that were right; NaN when nothing was refused. */
  public double precision() {
    return ratio(refusedUnanswerable, refusedUnanswerable + refusedAnswerable);
  }

  /** Of the unanswerable questions, the share refused; NaN when there were none. */
  public double recall() {
    return ratio(refusedUnanswerable, refusedUnanswerable + answeredUnanswerable);
  }

  /** Of the answerable questions, the share refused; NaN when there were none. */
  public double falseRefusalRate() {
    return ratio(refusedAnswerable, refusedAnswerable + answeredAnswerable);
  }

  /** Share of all decisions that were right (refused iff expected); NaN when empty. */
  public double accuracy() {
    return ratio(refusedUnanswerable + answeredAnswerable, total());
  }

  private static double ratio(int a, int b) {
    return b == 0 ? Double.NaN : (double) a / b;
  }
}
