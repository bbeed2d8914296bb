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
 * @param rerank              what the reranking stage did: empty when none is configured, else
 *                            {@code "<reranker>: n → k"} or {@code "skipped: <why>"}
 *                            ({@link org.openbook.retrieve.SearchResult#rerank()})
 * @param rerankMillis        time spent reranking, not included in {@code retrievalMillis}
 * @param missingShards       shards of a distributed index that did not answer: the sources come
 *                            from part of the index ({@code store.partialResults: true}); empty
 *                            when retrieval was complete
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
    List<AgentStep> agentTrace,
    String rerank,
    long rerankMillis,
    List<String> missingShards) {

  public AnswerDiagnostics {
    agentTrace = agentTrace == null ? List.of() : List.copyOf(agentTrace);
    invalidCitations = List.copyOf(invalidCitations);
    uncitedSentences = List.copyOf(uncitedSentences);
    unsupportedCitations = List.copyOf(unsupportedCitations);
    rewrittenQuestion = rewrittenQuestion == null ? "" : rewrittenQuestion;
    rerank = rerank == null ? "" : rerank;
    missingShards = missingShards == null ? List.of() : List.copyOf(missingShards);
  }

  /** Diagnostics of a pipeline without a reranking stage. */
  public AnswerDiagnostics(String generator, double bestDenseScore, double threshold,
      List<Integer> invalidCitations, List<String> uncitedSentences,
      List<Integer> unsupportedCitations, long retrievalMillis, long generationMillis,
      String reason, String rewrittenQuestion) {
    this(generator, bestDenseScore, threshold, invalidCitations, uncitedSentences,
        unsupportedCitations, retrievalMillis, generationMillis, reason, rewrittenQuestion,
        List.of(), "", 0, List.of());
  }

  /** These diagnostics with the reranking stage's outcome and time. */
  public AnswerDiagnostics withRerank(String rerank, long rerankMillis) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards);
  }

  /** These diagnostics with {@code rewrittenQuestion} set (null becomes empty). */
  public AnswerDiagnostics withRewrittenQuestion(String rewrittenQuestion) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards);
  }

  /** These diagnostics with {@code reason} replaced. */
  public AnswerDiagnostics withReason(String reason) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards);
  }

  /** These diagnostics with the agent's {@code trace}. */
  public AnswerDiagnostics withAgentTrace(List<AgentStep> trace) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, trace, rerank, rerankMillis, missingShards);
  }

  /** These diagnostics with {@code missingShards} set. */
  public AnswerDiagnostics withMissingShards(List<String> missingShards) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards);
  }

  /** Whether the answer was built from part of a distributed index. */
  public boolean partialResults() {
    return !missingShards.isEmpty();
  }
}
