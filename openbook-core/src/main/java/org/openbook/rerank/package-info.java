/**
 * Reranking: the stage between fusion and generation.
 *
 * <p>{@link org.openbook.rerank.RerankingRetriever} wraps the fused retriever: it takes the top
 * {@code rerank.fetchK} fused candidates (default
 * {@value org.openbook.rerank.RerankingRetriever#DEFAULT_FETCH_K}), has a
 * {@link org.openbook.rerank.Reranker} score them against the question, and keeps the top k in
 * score order (ties by fused rank, then chunk id). Each kept hit carries
 * {@link org.openbook.retrieve.Hit#rerankScore()} and
 * {@link org.openbook.retrieve.Hit#rerankRank()}; its dense, BM25 and fused scores stay as they
 * were, each with its own meaning.
 *
 * <p>A reranker is a cross-encoder (query and passage read together) behind HTTP
 * ({@link org.openbook.rerank.HttpReranker}: Cohere/Jina-shaped servers and Hugging Face TEI),
 * a local ONNX cross-encoder through LangChain4j
 * ({@link org.openbook.rerank.ScoringModelReranker#onnx}), or a listwise LLM reranker
 * ({@code org.openbook.llm.LlmReranker}). Reranking is an improvement, never a dependency: a
 * reranker that fails, times out or replies with nonsense leaves the fused order in place and
 * says {@code skipped: <why>} in the diagnostics.
 *
 * <p>Score scales differ per reranker (sigmoid probabilities in [0, 1], raw logits, rank-derived
 * scores for the LLM), so a gate-1 threshold on the rerank score is calibrated per reranker and
 * model.
 */
package org.openbook.rerank;
