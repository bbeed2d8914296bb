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
 */
public record Turn(
    String question,
    String standaloneQuestion,
    String answer,
    List<String> citedChunkIds,
    AnswerStatus status) {

  public Turn {
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException("turn.question must not be blank");
    }
    standaloneQuestion =
        standaloneQuestion == null || standaloneQuestion.isBlank() ? question : standaloneQuestion;
    answer = answer == null ? "" : answer;
    citedChunkIds = citedChunkIds == null ? List.of() : List.copyOf(citedChunkIds);
    if (status == null) {
      throw new IllegalArgumentException("turn.status must be set");
    }
  }
}
