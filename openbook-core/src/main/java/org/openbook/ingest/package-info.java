/**
 * Ingest: a folder in, a consistent index out.
 *
 * <pre>
 * folder ──CorpusWalker──▶ files ──content hash──▶ unchanged? skip (not read)
 *                                      │changed/new
 *                                      ▼
 *          Loader ──▶ Document ──Chunker──▶ Chunks ──Embedder (cache)──▶ ChunkStore.replaceDocument
 * removed / now unloadable sources ──▶ ChunkStore.deleteDocument
 * every N changed documents ──▶ commit (manifest in the same commit)
 * </pre>
 *
 * <p>{@link org.openbook.ingest.Indexer} is incremental by content hash: unchanged files are not
 * re-read or re-embedded, a changed file replaces all its chunks, a removed file leaves no
 * orphan. A killed run leaves the index at its last commit, and the next run completes it. Bad
 * files (corrupt, binary, empty, too large, over the chunk limit) are skipped with a reason in
 * the {@link org.openbook.ingest.IngestReport}; the rest of the run goes on.
 */
package org.openbook.ingest;
