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
 */
package org.openbook.llm;
