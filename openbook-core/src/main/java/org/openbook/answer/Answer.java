package org.openbook.answer;

import java.util.List;

/**
 * The result of asking a question.
 *
 * @param status      how it ended
 * @param text        the answer text shown to the user (the refusal sentence when refused); out-of-
 *                    range citation markers are removed from it
 * @param citations   the distinct valid citations in order of first use
 * @param sources     the numbered sources exactly as the generator saw them (empty when gate 1
 *                    refused)
 * @param diagnostics what the checks found
 */
public record Answer(
    AnswerStatus status,
    String text,
    List<Citation> citations,
    List<Source> sources,
    AnswerDiagnostics diagnostics) {

  public Answer {
    citations = List.copyOf(citations);
    sources = List.copyOf(sources);
  }

  /** This answer with {@code diagnostics} replaced. */
  public Answer withDiagnostics(AnswerDiagnostics diagnostics) {
    return new Answer(status, text, citations, sources, diagnostics);
  }
}
