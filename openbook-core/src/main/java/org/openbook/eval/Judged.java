package org.openbook.eval;

import java.util.List;
import java.util.Set;

/**
 * One ranked result list judged against the gold items of one query.
 *
 * @param matches   for each rank (index 0 = rank 1) the indices of the gold items the result at
 *                  that rank satisfies; an empty set for a non-relevant result
 * @param goldCount number of gold items of the query, ≥ 1
 */
public record Judged(List<Set<Integer>> matches, int goldCount) {

  public Judged {
    if (goldCount < 1) {
      throw new IllegalArgumentException("a judged query needs at least one gold item");
    }
    matches = matches.stream().map(Set::copyOf).toList();
  }

  /** A ranking for a query with a single gold item; {@code relevant[i]} is rank i+1. */
  public static Judged single(boolean... relevant) {
    List<Set<Integer>> m = new java.util.ArrayList<>(relevant.length);
    for (boolean r : relevant) {
      m.add(r ? Set.of(0) : Set.of());
    }
    return new Judged(m, 1);
  }
}
