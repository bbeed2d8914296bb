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
 */
public record ChunkerSettings(int maxChars, int overlapChars, int maxPrefixChars) {

  /**
   * Defaults: 400 chars of text + at most 80 chars of prefix stay under 512 tokens of
   * bge-small-zh-v1.5 (about one token per CJK char, fewer for Latin text).
   */
  public static final ChunkerSettings DEFAULT = new ChunkerSettings(400, 80, 80);

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
  }

  /** Stable text form recorded in the index manifest. */
  public String id() {
    return "max=" + maxChars + ",overlap=" + overlapChars + ",prefix=" + maxPrefixChars;
  }
}
