package org.openbook.index;

/**
 * A chunk store with every capability the pipeline uses: both search routes, writing and the
 * document catalog and term statistics. The embedded Lucene store and the SolrCloud store implement it, so the
 * application can hold either behind one type and choose by configuration.
 */
public interface IndexStore extends ChunkStore, ChunkStore.DenseSearch, ChunkStore.SparseSearch,
    ChunkStore.ChunkWriter, ChunkStore.DocumentCatalog,
    ChunkStore.TermStatistics {}
