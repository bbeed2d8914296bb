package org.openbook.answer;

/**
 * The two messages sent to a chat model.
 *
 * @param system the rules (system message)
 * @param user   the numbered sources and the question (user message)
 */
public record Prompt(String system, String user) {}
