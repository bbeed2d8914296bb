/**
 * The store SPI: where embedded chunks live and how the two retrieval routes reach them.
 *
 * <pre>
 * Chunk ──Embedder──▶ vector ─┐
 *       ──Analyzer──▶ tokens ─┴──▶ ChunkStore (one id space)
 *                                   ├─ BM25 field   ◀── SparseSearch (filter inside)
 *                                   ├─ vector field ◀── DenseSearch  (filter inside, HNSW)
 *                                   └─ stored fields + IndexManifest (model, dimension,
 *                                      analyzer, chunker; a mismatch is refused)
 * </pre>
 *
 * <p>Small capability interfaces rather than one wide one, nested in
 * {@link org.openbook.index.ChunkStore}: {@code DenseSearch} and {@code SparseSearch} (the two
 * routes), {@code DocumentCatalog} (which documents, with which content hash, for incremental
 * ingest) and {@code ChunkWriter} (replace and delete by document, commit);
 * {@link org.openbook.index.IndexStore} is what a backend implements as a whole. The permission
 * filter ({@link org.openbook.index.AccessFilter}) is applied inside each route before top-k,
 * never after. Implementations: the embedded Lucene index ({@code openbook-lucene}) and a
 * SolrCloud collection ({@code openbook-solr}); both pass one contract suite.
 */
package org.openbook.index;
