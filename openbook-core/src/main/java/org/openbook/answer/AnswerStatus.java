package org.openbook.answer;

/** How a question ended. */
public enum AnswerStatus {
  /** Answered from the sources, with citations. */
  ANSWERED,
  /** Gate 1: the best dense cosine was below the threshold; the generator was not called. */
  REFUSED_NO_EVIDENCE,
  /** The generator answered with the fixed refusal sentence. */
  REFUSED_BY_MODEL,
  /** Something failed (endpoint down, timeout); the reason is in the diagnostics. */
  FAILED
}
