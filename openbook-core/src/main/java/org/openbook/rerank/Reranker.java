package org.openbook.rerank;

import java.util.List;

/**
 * Scores passages against a query, the second stage after fusion. Known implementations: a
 * cross-encoder behind HTTP ({@link HttpReranker}), any LangChain4j {@code ScoringModel}, such as
 * a local ONNX cross-encoder ({@link ScoringModelReranker}), and a listwise LLM reranker in
 * {@code openbook-llm}.
 *
 * <p>An implementation only scores; ordering, tie-breaking, the time limit and the fallback to
 * the fused order are the stage's ({@link RerankingRetriever}), so every reranker behaves the
 * same when it fails.
 */
public interface Reranker {

  /** A short id for diagnostics, e.g. {@code http:bge-reranker-v2-m3}. */
  String id();

  /**
   * Scores {@code passages} for {@code query}.
   *
   * @param query    the question, non-blank
   * @param passages the candidate texts in fused order, non-empty
   * @param topN     how many of the best the caller will keep, 1 ≤ topN ≤ passages.size(); an
   *                 implementation may return only those (as a server's {@code top_n} does)
   *                 or score them all
   * @return one score per scored passage, in any order; {@link RerankScore#index()} is the
   *     0-based position in {@code passages}; higher is more relevant
   * @throws RerankException when the scorer fails or replies with something unusable
   */
  List<RerankScore> rerank(String query, List<String> passages, int topN) throws RerankException;
}
