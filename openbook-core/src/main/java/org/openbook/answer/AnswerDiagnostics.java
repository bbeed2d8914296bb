package org.openbook.answer;

import java.util.List;

/**
 * What happened while answering, for the CLI, the API and the evaluation harness.
 *
 * @param generator           id of the generator used ({@code extractive} or the LLM model), or
 *                            empty when gate 1 refused
 * @param bestDenseScore      best dense cosine among readable chunks (NaN if unknown)
 * @param threshold           gate-1 threshold in force
 * @param invalidCitations    citation markers that name no given source, as numbers (0, 5, …)
 * @param uncitedSentences    answer sentences that carry no citation
 * @param unsupportedCitations citations whose sentence the cited passage does not support
 * @param retrievalMillis     time spent retrieving
 * @param generationMillis    time spent generating
 * @param reason              failure reason, or empty
 */
public record AnswerDiagnostics(
    String generator,
    double bestDenseScore,
    double threshold,
    List<Integer> invalidCitations,
    List<String> uncitedSentences,
    List<Integer> unsupportedCitations,
    long retrievalMillis,
    long generationMillis,
    String reason) {

  public AnswerDiagnostics {
    invalidCitations = List.copyOf(invalidCitations);
    uncitedSentences = List.copyOf(uncitedSentences);
    unsupportedCitations = List.copyOf(unsupportedCitations);
  }
}
