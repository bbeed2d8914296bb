package org.openbook.index;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * An index of chunks with a BM25 text field and a dense vector field in one id space. The
 * search routes are small capability interfaces ({@link DenseSearch}, {@link SparseSearch},
 * {@link ChunkWriter}) so the compiler says what a backend can do.
 */
public interface ChunkStore extends Closeable {

  /** What the index was built with, and its current counts. */
  IndexManifest manifest() throws IOException;

  /** Number of chunks visible to searches now. */
  long count() throws IOException;

  /** Looks up a chunk by id. */
  Optional<org.openbook.chunk.Chunk> get(String chunkId) throws IOException;

  /** Dense (vector) retrieval. */
  interface DenseSearch {
    /**
     * The {@code topN} chunks nearest to {@code queryVector} among those {@code filter} allows.
     *
     * @param queryVector L2-normalised query embedding
     * @param topN        how many to return, ≥ 1
     * @param filter      applied inside the search, before top-N
     * @return ranks 1..n, score = cosine similarity (higher is better)
     */
    List<ScoredChunk> searchDense(float[] queryVector, int topN, AccessFilter filter)
        throws IOException;

    /**
     * As {@link #searchDense(float[], int, AccessFilter)} over a further vector field of the
     * manifest ({@link IndexManifest#denseFields()}); only chunks that have a vector in that
     * field can be returned.
     *
     * @param field       a {@link DenseField#name()} of the manifest
     * @param queryVector L2-normalised query embedding by that field's model
     * @throws IllegalArgumentException if the manifest has no such field or the vector's length
     *     is not its dimension
     */
    List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
        AccessFilter filter) throws IOException;
  }

  /** Sparse (BM25) retrieval. */
  interface SparseSearch {
    /**
     * The {@code topN} best BM25 matches for {@code queryText} among those {@code filter} allows.
     *
     * @return ranks 1..n, score = BM25 score (&gt; 0); chunks sharing no token are not returned
     */
    List<ScoredChunk> searchSparse(String queryText, int topN, AccessFilter filter)
        throws IOException;
  }

  /** Lists the documents in the index, for incremental ingest. */
  interface DocumentCatalog {
    /**
     * Every document id in the committed index mapped to the content hash its chunks were built
     * from (the {@code contentHash} chunk metadata; empty string when absent).
     */
    java.util.Map<String, String> documentHashes() throws IOException;
  }

  /** Writing: add, delete by document, commit. */
  interface ChunkWriter {
    /** Adds the chunks of one document, replacing any chunks it had before. */
    void replaceDocument(String docId, List<EmbeddedChunk> chunks) throws IOException;

    /** Removes every chunk of a document from both routes. */
    void deleteDocument(String docId) throws IOException;

    /** Makes all changes since the last commit durable and visible, atomically. */
    void commit() throws IOException;
  }
}
