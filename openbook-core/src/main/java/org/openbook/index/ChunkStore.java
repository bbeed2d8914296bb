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

  /**
   * Looks up a chunk by id among those {@code filter} allows: empty both when there is no such
   * chunk and when its department is not allowed. Use it for every lookup a caller's request
   * names, so that "exists but not yours" and "does not exist" do the same work. Stores should
   * apply the filter inside the query (the default filters after {@link #get(String)}).
   */
  default Optional<org.openbook.chunk.Chunk> get(String chunkId, AccessFilter filter)
      throws IOException {
    return get(chunkId).filter(c -> filter.allows(c.dept()));
  }

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
     *     is not its dimension; the default is a store with the primary field only, which has
     *     none
     */
    default List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
        AccessFilter filter) throws IOException {
      throw new IllegalArgumentException("the index has no dense field '" + field
          + "' (it was built with one embedding model)");
    }
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

    /**
     * The highest BM25 score any chunk could reach for {@code queryText} in this index: the sum,
     * over the query's term clauses, of clause weight × idf, the limit of BM25's saturating term
     * score as term frequency grows (Lucene's {@code BM25Similarity}, which omits the classic
     * {@code (k1 + 1)} factor). Query terms absent from the index count with the idf of a term
     * in no document, so a chunk that matches one common word of a long question scores a small
     * share of it. Fusion uses it as the BM25 route's absolute scale. Counted index-wide, like
     * BM25's own IDF, so it matches the scores it scales: a side channel of score magnitudes
     * only (docs/SERVER.md), which is why raw scores are shown to writers only and no message
     * may be derived from it (use {@link TermStatistics}, which is filtered).
     *
     * @return the bound (≥ 0), or NaN when the store cannot compute it (the default)
     */
    default double maxSparseScore(String queryText) throws IOException {
      return Double.NaN;
    }
  }

  /**
   * Document frequencies of BM25 terms, for judging how rare a matched term is (gate 1's lexical
   * signal, gate 2's term weights and its "the documents say nothing about …" notes). Counts are
   * over the chunks {@code filter} allows only, the same filter the caller's searches use: a
   * count over every department would tell a caller whether a word occurs where it may not read.
   * There is deliberately no unfiltered variant.
   */
  interface TermStatistics {
    /** Number of chunks with a BM25 text field that {@code filter} allows, ≥ 0. */
    long docCount(AccessFilter filter) throws IOException;

    /**
     * Number of chunks {@code filter} allows whose BM25 text field contains {@code term}, in
     * [0, {@link #docCount(AccessFilter)}].
     *
     * @param term one analysed token exactly as indexed (e.g. {@code err_4517}, {@code 滤芯})
     */
    long docFreq(String term, AccessFilter filter) throws IOException;
  }

  /** Lists the documents in the index: for incremental ingest and the document library. */
  interface DocumentCatalog {
    /**
     * Every document id in the committed index mapped to the content hash its chunks were built
     * from (the {@code contentHash} chunk metadata; empty string when absent).
     */
    java.util.Map<String, String> documentHashes() throws IOException;

    /**
     * Every document of the committed index with its department, title, chunk count and content
     * hash, sorted by source. Department and title are those of the document's first chunk.
     */
    List<DocumentEntry> documents() throws IOException;
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
