/**
 * LLM generation over OpenAI-compatible endpoints.
 *
 * <p>{@link org.openbook.llm.LlmConfig#fromEnvironment} reads {@code OPENBOOK_LLM_BASE_URL},
 * {@code OPENBOOK_LLM_MODEL}, {@code OPENBOOK_LLM_API_KEY} and
 * {@code OPENBOOK_LLM_TIMEOUT_SECONDS}; without a base URL the app answers extractively.
 * {@link org.openbook.llm.OpenAiGenerator} implements {@link org.openbook.answer.Generator}
 * with LangChain4j's streaming OpenAI client, prompted by
 * {@link org.openbook.answer.PromptBuilder}; {@link org.openbook.llm.SurrogateSafeBuffer} keeps
 * streamed pieces on code point boundaries.
 *
 * <p>{@link org.openbook.llm.LlmQuestionRewriter} rewrites a follow-up into a standalone question
 * for {@link org.openbook.conversation.ConversationService}. {@link org.openbook.llm.AgenticAnswerer}
 * is {@code ask --agent}: the model gets the {@code search_knowledge_base} tool, bound to the
 * caller's principal, searches within a {@link org.openbook.llm.AgenticAnswerer.Budget}, and its
 * answer cites the passages it saw (numbered globally, checked by
 * {@link org.openbook.answer.ReplyChecker}); the searches are returned as
 * {@link org.openbook.llm.AgentStep}s. Both use the non-streaming client without retries, so an
 * endpoint error or timeout is reported at once.
 */
package org.openbook.llm;
