package org.openbook.answer;

import java.util.List;

/**
 * What {@link CitationChecker} found in an answer.
 *
 * @param text             the answer with out-of-range markers removed and every kept marker in
 *                         canonical form ({@code [1,5]} with 3 sources becomes {@code [1]}, {@code
 *                         【2】} becomes {@code [2]})
 * @param valid            distinct cited numbers within 1..sourceCount, in order of first use
 * @param invalid          distinct cited numbers outside 1..sourceCount (0, 5, …), in order of
 *                         first appearance
 * @param sentences        every sentence of {@link #text} with its valid citations
 * @param uncitedSentences sentences that make a claim but cite nothing (the refusal sentence, the
 *                         extractive answer's notes about the documents ({@code CoverageNotes}) and
 *                         fragments shorter than {@link CitationChecker#MIN_CLAIM_LENGTH} are not
 *                         listed)
 */
public record CitationReport(
    String text,
    List<Integer> valid,
    List<Integer> invalid,
    List<CitedSentence> sentences,
    List<String> uncitedSentences) {

  public CitationReport {
    valid = List.copyOf(valid);
    invalid = List.copyOf(invalid);
    sentences = List.copyOf(sentences);
    uncitedSentences = List.copyOf(uncitedSentences);
  }
}
