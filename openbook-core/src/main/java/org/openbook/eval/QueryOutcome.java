package org.openbook.eval;

/**
 * What one configuration did with one labelled question.
 *
 * @param id            the question's id
 * @param type          its query type ({@code exact}, {@code paraphrase}, …), or {@code ""}
 * @param judged        the ranking judged against the gold items, or null when the question has
 *                      no gold (an unanswerable one)
 * @param latencyMillis retrieval time in milliseconds, ≥ 0
 * @param expectRefuse  whether the right behaviour is a refusal
 * @param refused       whether the answer pipeline refused, or null when refusal was not measured
 *                      for this configuration
 */
public record QueryOutcome(
    String id, String type, Judged judged, double latencyMillis, boolean expectRefuse,
    Boolean refused) {}
