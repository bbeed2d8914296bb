package org.openbook.llm;

import java.util.List;
import org.openbook.answer.Answer;

/**
 * What agentic asking returns: the checked answer, whose sources are every passage the model saw
 * (numbered globally across searches), and the trace of its searches.
 *
 * @param answer the answer
 * @param trace  the searches in order
 */
public record AgentAnswer(Answer answer, List<AgentStep> trace) {

  public AgentAnswer {
    trace = List.copyOf(trace);
  }
}
