package org.openbook.eval;

import java.util.List;

/**
 * Mean ranking metrics over a set of judged queries; every value in [0, 1], NaN when
 * {@code queries} is 0.
 *
 * @param queries number of judged queries averaged
 * @param recall1 mean Recall@1
 * @param recall3 mean Recall@3
 * @param recall5 mean Recall@5
 * @param recall10 mean Recall@10
 * @param mrr10   mean reciprocal rank, cut off at 10
 * @param ndcg10  mean nDCG@10 (binary gain)
 */
public record RankingScores(
    int queries, double recall1, double recall3, double recall5, double recall10, double mrr10,
    double ndcg10) {

  /** Averages {@link RankingMetrics} over {@code judged}. */
  public static RankingScores of(List<Judged> judged) {
    int n = judged.size();
    double r1 = 0, r3 = 0, r5 = 0, r10 = 0, mrr = 0, ndcg = 0;
    for (Judged j : judged) {
      r1 += RankingMetrics.recall(j, 1);
      r3 += RankingMetrics.recall(j, 3);
      r5 += RankingMetrics.recall(j, 5);
      r10 += RankingMetrics.recall(j, 10);
      mrr += RankingMetrics.reciprocalRank(j, 10);
      ndcg += RankingMetrics.ndcg(j, 10);
    }
    return new RankingScores(n, r1 / n, r3 / n, r5 / n, r10 / n, mrr / n, ndcg / n);
  }

  /** Mean Recall@k for k in 1, 3, 5, 10. */
  public double recallAt(int k) {
    return switch (k) {
      case 1 -> recall1;
      case 3 -> recall3;
      case 5 -> recall5;
      case 10 -> recall10;
      default -> throw new IllegalArgumentException("recall is kept for k = 1, 3, 5, 10, not " + k);
    };
  }
}
