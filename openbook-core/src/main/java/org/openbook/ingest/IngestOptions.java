package org.openbook.ingest;

import org.openbook.embed.EmbeddingCache;

/**
 * Limits and durability settings of an ingest run.
 *
 * @param maxChunksPerDocument a document that yields more chunks than this is skipped and
 *                             reported ("too many chunks (N &gt; limit)"), never truncated;
 *                             {@code >= 1}
 * @param commitEvery          commit after this many changed documents (indexed or removed), so
 *                             a long run that is killed keeps its progress; {@code >= 1}. Every
 *                             commit carries a manifest matching the index at that commit.
 * @param cache                embedding cache consulted before the model and filled after it, or
 *                             {@code null} for none; committed together with the index
 */
public record IngestOptions(int maxChunksPerDocument, int commitEvery, EmbeddingCache cache) {

  /**
   * Default chunk limit: 10,000 chunks is about 4 MB of text at the default 400-char chunk, a
   * long book; more usually means a log or data dump that would swamp search results.
   */
  public static final int DEFAULT_MAX_CHUNKS_PER_DOCUMENT = 10_000;

  /**
   * Default commit interval: each commit writes a new Lucene segment (with its own HNSW graph),
   * so committing every few files would fragment the index; 200 documents keeps a killed run's
   * loss to well under a minute of embedding with the default model.
   */
  public static final int DEFAULT_COMMIT_EVERY = 200;

  /** Defaults, no cache. */
  public static final IngestOptions DEFAULTS =
      new IngestOptions(DEFAULT_MAX_CHUNKS_PER_DOCUMENT, DEFAULT_COMMIT_EVERY, null);

  public IngestOptions {
    if (maxChunksPerDocument < 1) {
      throw new IllegalArgumentException(
          "maxChunksPerDocument must be >= 1, got " + maxChunksPerDocument);
    }
    if (commitEvery < 1) {
      throw new IllegalArgumentException("commitEvery must be >= 1, got " + commitEvery);
    }
  }

  /** These options with {@code cache}. */
  public IngestOptions withCache(EmbeddingCache cache) {
    return new IngestOptions(maxChunksPerDocument, commitEvery, cache);
  }
}
