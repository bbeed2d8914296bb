package org.openbook.llm;

import java.util.List;

/**
 * One search the agent made.
 *
 * @param step           1-based search number
 * @param query          the query the model chose (empty when its arguments were unusable)
 * @param chunkIds       ids of the passages returned to the model, in result order (empty when
 *                       the search found nothing readable or gate 1 blocked it)
 * @param numbers        the global passage numbers [n] those passages carry, same order
 * @param bestDenseScore the search's best dense cosine (NaN when the dense route found nothing)
 * @param note           why nothing was returned ({@code below gate}, {@code invalid arguments},
 *                       {@code unknown tool …}, {@code retrieval failed: …}), or empty
 */
public record AgentStep(
    int step,
    String query,
    List<String> chunkIds,
    List<Integer> numbers,
    double bestDenseScore,
    String note) {

  public AgentStep {
    chunkIds = List.copyOf(chunkIds);
    numbers = List.copyOf(numbers);
  }
}
