/**
 * Multi-turn conversations: follow-up questions are rewritten into standalone questions before
 * retrieval, so "那退款多久发起？" after a question about cross-border orders retrieves the
 * cross-border refund passage rather than the general refund rule.
 *
 * <p>{@link org.openbook.conversation.ConversationService} loads a
 * {@link org.openbook.conversation.Conversation} from a
 * {@link org.openbook.conversation.ConversationStore} (in memory, or one JSON file per
 * conversation for the CLI), rewrites the follow-up with a
 * {@link org.openbook.conversation.QuestionRewriter} (the LLM when one is configured, else
 * {@link org.openbook.conversation.KeyTermCarryOver}, which carries the previous question's key
 * terms over), asks the standalone question once, and stores the
 * {@link org.openbook.conversation.Turn}. The rewrite is reported in
 * {@link org.openbook.answer.AnswerDiagnostics#rewrittenQuestion()}. A conversation belongs to the
 * principal that started it.
 */
package org.openbook.conversation;
