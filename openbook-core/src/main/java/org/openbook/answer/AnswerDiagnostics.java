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
 * @param bestLexicalEvidence gate 1's lexical signal: the best IDF-weighted key-term share of one
 *                            source in [0, 1] (NaN when the lexical signal is off or the question
 *                            has no key terms; see {@link EvidenceGate})
 * @param gateSignal          which gate-1 signal let the question through ({@code dense},
 *                            {@code identifier}, {@code lexical}), {@code none} when gate 1
 *                            refused, or empty when not recorded
 * @param partialText         the text a generator produced before it failed (e.g. a reply cut
 *                            off by the model's length limit, reason {@code truncated}), or empty
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
    List<String> missingShards,
    double bestLexicalEvidence,
    String gateSignal,
    String partialText) {

  public AnswerDiagnostics {
    invalidCitations = List.copyOf(invalidCitations);
    uncitedSentences = List.copyOf(uncitedSentences);
    unsupportedCitations = List.copyOf(unsupportedCitations);
    rewrittenQuestion = rewrittenQuestion == null ? "" : rewrittenQuestion;
    agentTrace = agentTrace == null ? List.of() : List.copyOf(agentTrace);
    rerank = rerank == null ? "" : rerank;
    missingShards = missingShards == null ? List.of() : List.copyOf(missingShards);
    gateSignal = gateSignal == null ? "" : gateSignal;
    partialText = partialText == null ? "" : partialText;
  }

  /**
   * Diagnostics of one generation: no follow-up rewrite, agent trace, reranking, missing shard,
   * gate-1 details or partial text yet (the {@code with…} methods add them).
   */
  public AnswerDiagnostics(String generator, double bestDenseScore, double threshold,
      List<Integer> invalidCitations, List<String> uncitedSentences,
      List<Integer> unsupportedCitations, long retrievalMillis, long generationMillis,
      String reason, String rewrittenQuestion) {
    this(generator, bestDenseScore, threshold, invalidCitations, uncitedSentences,
        unsupportedCitations, retrievalMillis, generationMillis, reason, rewrittenQuestion,
        List.of(), "", 0, List.of(), Double.NaN, "", "");
  }

  /** These diagnostics with the checker's findings replaced. */
  public AnswerDiagnostics withChecks(List<Integer> invalidCitations,
      List<String> uncitedSentences, List<Integer> unsupportedCitations) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with {@code rewrittenQuestion} set (null becomes empty). */
  public AnswerDiagnostics withRewrittenQuestion(String rewrittenQuestion) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with {@code reason} replaced. */
  public AnswerDiagnostics withReason(String reason) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with the agent's {@code trace}. */
  public AnswerDiagnostics withAgentTrace(List<AgentStep> trace) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, trace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with the reranking stage's outcome and time. */
  public AnswerDiagnostics withRerank(String rerank, long rerankMillis) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with {@code missingShards} set. */
  public AnswerDiagnostics withMissingShards(List<String> missingShards) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with gate 1's lexical signal and the signal that decided. */
  public AnswerDiagnostics withGate(double bestLexicalEvidence, String gateSignal) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** These diagnostics with the partial text of a failed generation. */
  public AnswerDiagnostics withPartialText(String partialText) {
    return new AnswerDiagnostics(generator, bestDenseScore, threshold, invalidCitations,
        uncitedSentences, unsupportedCitations, retrievalMillis, generationMillis, reason,
        rewrittenQuestion, agentTrace, rerank, rerankMillis, missingShards, bestLexicalEvidence,
        gateSignal, partialText);
  }

  /** Whether the answer was built from part of a distributed index. */
  public boolean partialResults() {
    return !missingShards.isEmpty();
  }
}
