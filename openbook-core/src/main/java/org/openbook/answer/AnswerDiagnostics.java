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
 * @param rewrittenQuestion   the standalone question actually retrieved for when a follow-up in a
 *                            conversation was rewritten (see {@code org.openbook.conversation}),
 *                            or empty when the question was used as asked
 * @param agentTrace          the searches the agent made, in order; empty unless the answer came
 *                            from the tool-calling agent
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
    String reason,
    String rewrittenQuestion,
    List<AgentStep> agentTrace) {

  public AnswerDiagnostics {
    agentTrace = agentTrace == null ? List.of() : List.copyOf(agentTrace);
    invalidCitations = List.copyOf(invalidCitations);
    uncitedSentences = List.copyOf(uncitedSentences);
    unsupportedCitations = List.copyOf(unsupportedCitations);
    rewrittenQuestion = rewrittenQuestion == null ? "" : rewrittenQuestion;
  }

  /** These diagnostics with {@code rewrittenQuestion} set (null becomes empty). */
  public AnswerDiagnostics withRewrittenQuestion(String rewrittenQuestion) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace);
  }

  /** These diagnostics with {@code reason} replaced. */
  public AnswerDiagnostics withReason(String reason) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace);
  }

  /** These diagnostics with the agent's {@code trace}. */
  public AnswerDiagnostics withAgentTrace(List<AgentStep> trace) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, trace);
  }
}
