package org.openbook.conversation;

import java.util.List;
import org.openbook.answer.GenerationException;

/**
 * Turns a follow-up question into a standalone question before retrieval, so "那退款多久发起？"
 * after a question about cross-border orders retrieves the cross-border refund passage.
 * Known variants: {@link KeyTermCarryOver} (offline, no LLM) and the app's LLM rewriter.
 */
@FunctionalInterface
public interface QuestionRewriter {

  /**
   * Rewrites {@code followUp}.
   *
   * @param followUp the new question as asked, non-blank
   * @param history  the conversation's earlier turns, oldest first; never empty
   * @return the standalone question to retrieve with (may equal {@code followUp}), non-blank
   * @throws GenerationException when an LLM rewriter fails (endpoint error, timeout)
   */
  String rewrite(String followUp, List<Turn> history) throws GenerationException;
}
