package org.openbook.answer;

import java.util.List;
import org.openbook.retrieve.Query;

/**
 * Answers one standalone question from the index, with numbered citations or a refusal.
 *
 * <p>Implemented by {@link AnswerService} (retrieve once, gate, generate, check) and by the
 * tool-calling agent in {@code openbook-llm} (the model searches up to a budget, then answers);
 * the agent's searches travel in {@link AnswerDiagnostics#agentTrace()}. Callers — the CLI, the
 * HTTP API, {@link org.openbook.conversation.ConversationService} — see only this interface.
 */
@FunctionalInterface
public interface Answerer {

  /**
   * Answers {@code query}.
   *
   * @param query    question, principal (whose departments filter every route) and top-k
   * @param listener receives the numbered sources before any text, then the text as produced
   * @return the answer, never null; retrieval and generation failures are
   *     {@link AnswerStatus#FAILED} with the reason in the diagnostics, not exceptions
   */
  Answer ask(Query query, Listener listener);

  /** Receives an answer as it is produced. Both methods do nothing by default. */
  interface Listener {
    /** Does nothing: for callers that only want the final {@link Answer}. */
    Listener NONE = new Listener() { };

    /** The numbered sources, exactly as the generator will see them; called before any text. */
    default void onSources(List<Source> sources) {}

    /** A piece of answer text (whole code points). */
    default void onText(String text) {}
  }
}
