package org.openbook.eval;

import java.util.HashSet;
import java.util.Set;

/**
 * Per-query ranking metrics over a {@link Judged} list. All values are in [0, 1].
 *
 * <p>Gold items, not results, are what is counted: several chunks may satisfy the same gold item
 * (two chunks of one paragraph), and only the first of them counts, so a ranking cannot score
 * above 1 by repeating one passage.
 */
public final class RankingMetrics {

  private RankingMetrics() {}

  /**
   * Recall@k: distinct gold items satisfied by the top {@code k} results, divided by the number
   * of gold items (the kb-demo README's definition).
   *
   * @param k cut-off, ≥ 1
   */
  public static double recall(Judged j, int k) {
    requirePositive(k);
    Set<Integer> found = new HashSet<>();
    for (int i = 0; i < Math.min(k, j.matches().size()); i++) {
      found.addAll(j.matches().get(i));
    }
    return (double) found.size() / j.goldCount();
  }

  /**
   * Reciprocal rank with cut-off: 1 / rank of the first result satisfying any gold item, or 0 if
   * none does within the top {@code k} (MRR@k is the mean over queries).
   */
  public static double reciprocalRank(Judged j, int k) {
    requirePositive(k);
    for (int i = 0; i < Math.min(k, j.matches().size()); i++) {
      if (!j.matches().get(i).isEmpty()) {
        return 1.0 / (i + 1);
      }
    }
    return 0;
  }

  /**
   * nDCG@k with binary gain (Järvelin and Kekäläinen 2002, log2 discount): a result gains 1 when
   * it satisfies a gold item no earlier result satisfied, else 0; DCG = Σ gain_i / log2(i + 1)
   * over ranks i = 1..k; the ideal DCG puts min(goldCount, k) gains at ranks 1.. .
   */
  public static double ndcg(Judged j, int k) {
    requirePositive(k);
    Set<Integer> seen = new HashSet<>();
    double dcg = 0;
    for (int i = 0; i < Math.min(k, j.matches().size()); i++) {
      boolean newItem = false;
      for (int g : j.matches().get(i)) {
        newItem |= seen.add(g);
      }
      if (newItem) {
        dcg += 1 / log2(i + 2);
      }
    }
    double ideal = 0;
    for (int i = 0; i < Math.min(j.goldCount(), k); i++) {
      ideal += 1 / log2(i + 2);
    }
    return dcg / ideal;
  }

  private static double log2(double x) {
    return Math.log(x) / Math.log(2);
  }

  private static void requirePositive(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("cut-off k must be >= 1, got " + k);
    }
  }
}
