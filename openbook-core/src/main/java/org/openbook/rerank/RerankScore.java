package org.openbook.rerank;

/**
 * A reranker's score for one passage.
 *
 * @param index 0-based position of the passage in the list given to {@link Reranker#rerank}
 * @param score relevance, higher is better; finite; the scale is the reranker's own (see each
 *              implementation), so a threshold is calibrated per reranker and model
 */
public record RerankScore(int index, double score) {}
