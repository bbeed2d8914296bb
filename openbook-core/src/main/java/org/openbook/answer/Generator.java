package org.openbook.answer;

import java.util.List;
import java.util.function.Consumer;

/**
 * Writes an answer from numbered sources only. Never touches the index.
 */
public interface Generator {

  /** Id shown in diagnostics, e.g. {@code extractive} or {@code openai:deepseek-chat}. */
  String id();

  /**
   * Generates an answer.
   *
   * @param question the user's question
   * @param sources  the numbered sources [1]..[k], exactly what the user will see
   * @param onText   receives the answer text as it is produced (whole code points only); may be
   *                 called once with the whole text
   * @return the complete answer text, citing sources as {@code [n]}, or the refusal sentence
   * @throws GenerationException when the generator fails (endpoint error, timeout)
   */
  String generate(String question, List<Source> sources, Consumer<String> onText)
      throws GenerationException;
}
