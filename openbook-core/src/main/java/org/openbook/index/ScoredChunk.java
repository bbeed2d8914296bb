package org.openbook.index;

import org.openbook.chunk.Chunk;

/**
 * One result of one retrieval route.
 *
 * @param chunk the stored chunk
 * @param rank  1-based rank within the route
 * @param score the route's own score: cosine similarity in [-1, 1] for the dense route (higher is
 *              better), BM25 score ≥ 0 for the sparse route
 */
public record ScoredChunk(Chunk chunk, int rank, double score) {}
