package org.openbook.rerank;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;
import org.openbook.retrieve.Retriever;

/**
 * The reranking stage: retrieves the top {@code fetchK} fused candidates from the wrapped
 * retriever, has a {@link Reranker} score them, and returns the top k in the reranker's order
 * with {@link Hit#rerankScore()} and {@link Hit#rerankRank()} set.
 *
 * <p>Order (deterministic: equal inputs give equal order): scored candidates by score
 * descending, ties broken by fused rank ascending, then by chunk id; candidates the reranker did
 * not score (a server that returns only {@code top_n}) follow in fused order, with NaN score and
 * rank 0.
 *
 * <p>Never fails an answer: when the reranker throws, exceeds {@code timeoutMillis}, or returns
 * an unusable reply (an index outside the candidates, an index twice, a non-finite score), the
 * top k in fused order are returned unscored and {@link SearchResult#rerank()} says
 * {@code "skipped: <why>"}. {@link SearchResult#rerankMillis()} is the stage's own wall time, so
 * callers report it apart from retrieval.
 *
 * <p>The passage text given to the reranker is {@link org.openbook.chunk.Chunk#embedText()}
 * (title, heading path and passage), the same text BM25 and the dense route saw.
 */
public final class RerankingRetriever implements Retriever {

  /** Fused candidates reranked when the configuration gives none (issue 13; seeds use 20–50). */
  public static final int DEFAULT_FETCH_K = 20;
  /** Time limit of one reranker call when the configuration gives none, in ms. */
  public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;

  /** Daemon threads, so a hung reranker never keeps the JVM alive; idle ones end after 60 s. */
  private static final ExecutorService CALLS = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "openbook-rerank");
    t.setDaemon(true);
    return t;
  });

  private final Retriever fused;
  private final Reranker reranker;
  private final int fetchK;
  private final long timeoutMillis;

  /**
   * @param fused         the retriever whose fused order is reranked
   * @param reranker      scores the candidates
   * @param fetchK        fused candidates to rerank, ≥ 1; fewer are reranked when k is larger
   *                      (then k candidates are)
   * @param timeoutMillis time limit of one reranker call in ms, ≥ 1
   * @throws IllegalArgumentException for fetchK or timeoutMillis below 1
   */
  public RerankingRetriever(Retriever fused, Reranker reranker, int fetchK, long timeoutMillis) {
    if (fetchK < 1) {
      throw new IllegalArgumentException("rerank.fetchK must be >= 1, got " + fetchK);
    }
    if (timeoutMillis < 1) {
      throw new IllegalArgumentException("rerank.timeoutMs must be >= 1, got " + timeoutMillis);
    }
    this.fused = fused;
    this.reranker = reranker;
    this.fetchK = fetchK;
    this.timeoutMillis = timeoutMillis;
  }

  /** The reranker in use. */
  public Reranker reranker() {
    return reranker;
  }

  @Override
  public SearchResult retrieve(Query query) throws IOException {
    int k = query.topK();
    int candidatesWanted = Math.max(k, fetchK);
    SearchResult wide = fused.retrieve(new Query(query.text(), query.principal(), candidatesWanted,
        Math.max(query.fetchK(), candidatesWanted)));
    List<Hit> candidates = wide.hits();
    if (candidates.isEmpty()) {
      return wide.withRerank(List.of(), "skipped: no candidates", 0);
    }
    long t0 = System.nanoTime();
    List<String> passages = candidates.stream().map(h -> h.chunk().embedText()).toList();
    int topN = Math.min(k, candidates.size());
    List<RerankScore> scores;
    try {
      scores = call(query.text(), passages, topN);
      validate(scores, candidates.size());
    } catch (RerankException e) {
      return wide.withRerank(head(candidates, k), "skipped: " + e.getMessage(), millisSince(t0));
    }
    List<Hit> ordered = order(candidates, scores);
    return wide.withRerank(head(ordered, k),
        reranker.id() + ": " + candidates.size() + " → " + Math.min(k, ordered.size()),
        millisSince(t0));
  }

  private List<RerankScore> call(String text, List<String> passages, int topN)
      throws RerankException {
    Future<List<RerankScore>> f = CALLS.submit(() -> reranker.rerank(text, passages, topN));
    try {
      List<RerankScore> scores = f.get(timeoutMillis, TimeUnit.MILLISECONDS);
      if (scores == null) {
        throw new RerankException(reranker.id() + " returned no scores");
      }
      return scores;
    } catch (TimeoutException e) {
      f.cancel(true);
      throw new RerankException(reranker.id() + " timed out after " + timeoutMillis + " ms");
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new RerankException(reranker.id() + " interrupted");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw new RerankException(cause instanceof RerankException
          ? cause.getMessage()
          : reranker.id() + " failed: " + cause, cause);
    }
  }

  /** Rejects a reply whose indexes or scores cannot be trusted as a whole. */
  static void validate(List<RerankScore> scores, int n) throws RerankException {
    boolean[] seen = new boolean[n];
    for (RerankScore s : scores) {
      if (s == null || s.index() < 0 || s.index() >= n) {
        throw new RerankException("invalid reply: index "
            + (s == null ? "null" : s.index()) + " outside 0.." + (n - 1));
      }
      if (seen[s.index()]) {
        throw new RerankException("invalid reply: index " + s.index() + " scored twice");
      }
      if (!Double.isFinite(s.score())) {
        throw new RerankException("invalid reply: score of index " + s.index() + " is "
            + s.score());
      }
      seen[s.index()] = true;
    }
  }

  /**
   * The candidates in rerank order with score and rank set; see the class comment for the
   * order. {@code candidates} are in fused order, so their position is the fused rank.
   */
  static List<Hit> order(List<Hit> candidates, List<RerankScore> scores) {
    double[] score = new double[candidates.size()];
    Arrays.fill(score, Double.NaN);
    for (RerankScore s : scores) {
      score[s.index()] = s.score();
    }
    List<Integer> positions = new ArrayList<>();
    for (int i = 0; i < candidates.size(); i++) {
      positions.add(i);
    }
    Comparator<Integer> byScore = (a, b) -> {
      boolean sa = !Double.isNaN(score[a]);
      boolean sb = !Double.isNaN(score[b]);
      if (sa != sb) {
        return sa ? -1 : 1;
      }
      return sa ? Double.compare(score[b], score[a]) : 0;
    };
    positions.sort(byScore.thenComparing(Integer::intValue)
        .thenComparing(i -> candidates.get(i).chunk().id()));
    List<Hit> out = new ArrayList<>(candidates.size());
    int rank = 1;
    for (int i : positions) {
      Hit h = candidates.get(i);
      out.add(Double.isNaN(score[i]) ? h : h.withRerank(score[i], rank++));
    }
    return out;
  }

  private static List<Hit> head(List<Hit> hits, int k) {
    return hits.size() <= k ? hits : hits.subList(0, k);
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
