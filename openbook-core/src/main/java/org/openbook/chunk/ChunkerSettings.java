package org.openbook.chunk;

/**
 * Chunking budget, in UTF-16 chars of {@code raw} text.
 *
 * @param maxChars     largest chunk {@code raw} length; must leave room for the contextual prefix
 *                     inside the embedding model's 512-token input
 * @param overlapChars most chars of whole trailing sentences repeated at the start of the next
 *                     chunk of the same section (0 = no overlap)
 * @param maxPrefixChars longest contextual prefix (title + heading path) put in front of
 *                     {@code raw} in {@code embedText}; longer prefixes are shortened
 * @param tableRowsPerChunk most data rows (besides the repeated header rows) in one chunk of a
 *                     table too long for a single chunk; 0 = as many as the budget allows.
 *                     A table that fits in one chunk is kept whole either way
 */
public record ChunkerSettings(int maxChars, int overlapChars, int maxPrefixChars,
    int tableRowsPerChunk) {

  /**
   * Defaults: 400 chars of text + at most 80 chars of prefix stay under 512 tokens of
   * bge-small-zh-v1.5 (about one token per CJK char, fewer for Latin text). A long table is cut
   * into one chunk per row, each with the header rows (record-level chunks, as Dify and RAGFlow
   * index spreadsheet rows): a chunk of many rows embeds as a blur of all of them, and under
   * BM25 its one matching row term is outweighed by the prefix and header terms that every chunk
   * of the table shares. Measured on the office fixture (docs/BENCHMARKS.md, issue 11): hybrid
   * Recall@5 0.917 with rows packed to the char budget, 0.958 with one row per chunk.
   */
  public static final ChunkerSettings DEFAULT = new ChunkerSettings(400, 80, 80, 1);

  public ChunkerSettings {
    if (maxChars < 2) {
      throw new IllegalArgumentException("maxChars must be >= 2, got " + maxChars);
    }
    if (overlapChars < 0 || overlapChars >= maxChars) {
      throw new IllegalArgumentException("overlapChars must be in [0, maxChars), got " + overlapChars);
    }
    if (maxPrefixChars < 0) {
      throw new IllegalArgumentException("maxPrefixChars must be >= 0, got " + maxPrefixChars);
    }
    if (tableRowsPerChunk < 0) {
      throw new IllegalArgumentException(
          "tableRowsPerChunk must be >= 0 (0 = no limit), got " + tableRowsPerChunk);
    }
  }

  /** A budget whose long tables are packed with as many rows as fit ({@code tableRowsPerChunk} 0). */
  public ChunkerSettings(int maxChars, int overlapChars, int maxPrefixChars) {
    this(maxChars, overlapChars, maxPrefixChars, 0);
  }

  /**
   * Stable text form recorded in the index manifest, e.g. {@code max=400,overlap=80,prefix=80,
   * tableRows=1}; the row limit is left out when there is none, so such ids read as before.
   */
  public String id() {
    return "max=" + maxChars + ",overlap=" + overlapChars + ",prefix=" + maxPrefixChars
        + (tableRowsPerChunk == 0 ? "" : ",tableRows=" + tableRowsPerChunk);
  }
}
