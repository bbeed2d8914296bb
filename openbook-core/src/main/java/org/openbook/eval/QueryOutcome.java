package org.openbook.eval;

/**
 * What one configuration did with one labelled question.
 *
 * @param id            the question's id
 * @param type          its query type ({@code exact}, {@code paraphrase}, …), or {@code ""}
 * @param judged        the ranking judged against the gold items, or null when the question has
 *                      no gold (an unanswerable one)
 * @param latencyMillis retrieval time in milliseconds including the reranking stage, ≥ 0
 * @param expectRefuse  whether the right behaviour is a refusal
 * @param refused       whether the answer pipeline refused, or null when refusal was not measured
 *                      for this configuration
 * @param rerankMillis  of {@code latencyMillis}, the time the reranking stage took; NaN when the
 *                      configuration has no reranking stage
 * @param holdsAll      whether the answer holds every {@code answer_contains} fragment
 *                      ({@link AnswerContains#holdsAll}); null when not measured (no answer was
 *                      asked, or the case expects a refusal or lists no fragment)
 */
public record QueryOutcome(
    String id, String type, Judged judged, double latencyMillis, boolean expectRefuse,
    Boolean refused, double rerankMillis, Boolean holdsAll) {

  /** An outcome without an answer-content check. */
  public QueryOutcome(String id, String type, Judged judged, double latencyMillis,
      boolean expectRefuse, Boolean refused, double rerankMillis) {
    this(id, type, judged, latencyMillis, expectRefuse, refused, rerankMillis, null);
  }

  /** An outcome of a configuration without a reranking stage. */
  public QueryOutcome(String id, String type, Judged judged, double latencyMillis,
      boolean expectRefuse, Boolean refused) {
    this(id, type, judged, latencyMillis, expectRefuse, refused, Double.NaN);
  }
}
