package org.openbook.answer;

import java.util.List;
import java.util.function.Consumer;
import org.openbook.index.AccessFilter;

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

  /**
   * As {@link #generate(String, List, Consumer)} for a principal who may read {@code scope}: a
   * generator that consults index statistics (the extractive one's key-term coverage) counts
   * them there only, so a word found only where the caller cannot read reads as absent. The
   * default ignores the scope (a generator that uses no statistics).
   */
  default String generate(String question, List<Source> sources, AccessFilter scope,
      Consumer<String> onText) throws GenerationException {
    return generate(question, sources, onText);
  }
}
