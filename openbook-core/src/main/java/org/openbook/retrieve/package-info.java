/**
 * Hybrid retrieval: one question, two routes, one fused list.
 *
 * <pre>
 * question ──▶ Query(text, Principal, top-k, fetch-k)
 *                │
 *                ├──▶ dense top-fetchK  (cosine over the vector field) ─┐
 *                ├──▶ BM25 top-fetchK   (the same analyzer as ingest)  ─┴─ Fusion ─▶ top-k Hits
 *                └─ Principal's departments: the filter runs INSIDE both routes
 * </pre>
 *
 * <p>{@link org.openbook.retrieve.HybridRetriever} runs the routes and a
 * {@link org.openbook.retrieve.Fusion}: {@link org.openbook.retrieve.MinMaxFusion} (normalised
 * scores, weighted) or {@link org.openbook.retrieve.RrfFusion} (Reciprocal Rank Fusion, Cormack
 * et al., SIGIR 2009). Fusion keys by chunk id, never by text. Every {@link
 * org.openbook.retrieve.Hit} keeps each route's own rank and score (a cosine is never compared
 * with a BM25 or an RRF score); {@link org.openbook.retrieve.SearchResult} also carries the best
 * dense cosine, the gate-1 signal.
 */
package org.openbook.retrieve;
