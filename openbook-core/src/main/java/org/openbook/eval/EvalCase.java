package org.openbook.eval;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.openbook.chunk.Chunk;

/**
 * One labelled question in the kb-demo {@code cases.jsonl} format.
 *
 * @param id             unique id ({@code q01}); {@code line N} when the file gives none
 * @param question       the question text, not blank
 * @param type           query type ({@code exact}, {@code paraphrase}, …), or {@code ""}
 * @param principal      who asks, or null for the anonymous principal
 * @param expectRefuse   true when the right behaviour is a refusal ({@code "expect":"refuse"})
 * @param gold           the passages needed to answer; empty for refusal cases
 * @param answerContains fragments the answer must contain
 */
public record EvalCase(
    String id, String question, String type, String principal, boolean expectRefuse,
    List<Gold> gold, List<String> answerContains) {

  public EvalCase {
    gold = List.copyOf(gold);
    answerContains = List.copyOf(answerContains);
  }

  /**
   * A gold passage: a retrieved chunk satisfies it when it comes from {@code source} and its raw
   * text contains {@code contains} verbatim.
   *
   * @param source   path relative to the corpus root, '/'-separated
   * @param contains a verbatim snippet of that file
   */
  public record Gold(String source, String contains) {
    /** Whether {@code chunk} satisfies this gold item. */
    public boolean matches(Chunk chunk) {
      return source.equals(chunk.source()) && chunk.raw().contains(contains);
    }
  }

  /**
   * Judges a ranking against {@link #gold()}.
   *
   * @return the judged ranking, or null when this case has no gold
   */
  public Judged judge(List<Chunk> ranking) {
    if (gold.isEmpty()) {
      return null;
    }
    List<Set<Integer>> matches = new ArrayList<>(ranking.size());
    for (Chunk c : ranking) {
      Set<Integer> m = new java.util.HashSet<>();
      for (int g = 0; g < gold.size(); g++) {
        if (gold.get(g).matches(c)) {
          m.add(g);
        }
      }
      matches.add(m);
    }
    return new Judged(matches, gold.size());
  }
}
