/**
 * The embedded {@link org.openbook.index.ChunkStore}: {@link org.openbook.lucene.LuceneChunkStore}
 * keeps BM25 text, HNSW vectors, stored chunks and the index manifest in one Lucene directory.
 */
package org.openbook.lucene;
