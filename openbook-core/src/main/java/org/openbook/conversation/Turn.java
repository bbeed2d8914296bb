package org.openbook.conversation;

import java.util.List;
import org.openbook.answer.AnswerStatus;

/**
 * One finished question–answer exchange of a conversation.
 *
 * @param question           the question as the user asked it
 * @param standaloneQuestion the question retrieval actually used (the rewrite of a follow-up, or
 *                           {@code question} itself)
 * @param answer             the checked answer text shown to the user
 * @param citedChunkIds      ids of the chunks the answer cites, in order of first use
 * @param status             how the answer ended
 * @param sourceChunkIds     ids of every chunk the answer was written from (the numbered
 *                           sources, cited or not); {@code citedChunkIds} when not recorded
 *                           (turns stored before this field)
 */
public record Turn(
    String question,
    String standaloneQuestion,
    String answer,
    List<String> citedChunkIds,
    AnswerStatus status,
    List<String> sourceChunkIds) {

  public Turn {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("turn.question must not be blank");
    }
    standaloneQuestion =
        standaloneQuestion == null || standaloneQuestion.isBlank() ? question : standaloneQuestion;
    answer = answer == null ? "" : answer;
    citedChunkIds = citedChunkIds == null ? List.of() : List.copyOf(citedChunkIds);
    sourceChunkIds = sourceChunkIds == null ? citedChunkIds : List.copyOf(sourceChunkIds);
    if (status == null) {
      throw new IllegalArgumentException("turn.status must be set");
    }
  }

  /** A turn whose sources are its cited chunks. */
  public Turn(String question, String standaloneQuestion, String answer,
      List<String> citedChunkIds, AnswerStatus status) {
    this(question, standaloneQuestion, answer, citedChunkIds, status, null);
  }

  /**
   * This turn with its answer replaced by {@code notice} and every trace of its sources removed
   * (no chunk ids; the standalone question, which a rewriter may have filled from the answer,
   * becomes the question as asked). The status stays.
   */
  public Turn withheld(String notice) {
    return new Turn(question, question, notice, List.of(), status, List.of());
  }
}
