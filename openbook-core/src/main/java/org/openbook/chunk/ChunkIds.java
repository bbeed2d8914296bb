package org.openbook.chunk;

/**
 * The one place chunk ids are built and taken apart: {@code <docId>#<ordinal>}, where
 * {@code docId} is the document's source path and {@code ordinal} its 0-based position.
 */
public final class ChunkIds {
  private ChunkIds() {}

  /**
   * The id of chunk {@code ordinal} of document {@code docId}.
   *
   * @throws IllegalArgumentException when {@code docId} is blank or {@code ordinal < 0}
   */
  public static String of(String docId, int ordinal) {
    if (docId == null || docId.isBlank()) {
      throw new IllegalArgumentException("chunk id: docId must not be blank");
    }
    if (ordinal < 0) {
      throw new IllegalArgumentException("chunk id: ordinal must be >= 0, got " + ordinal);
    }
    return docId + "#" + ordinal;
  }

  /**
   * The document id of {@code chunkId} (everything before the last {@code #}).
   *
   * @throws IllegalArgumentException when {@code chunkId} has no {@code #<ordinal>} suffix
   */
  public static String docId(String chunkId) {
    int hash = chunkId == null ? -1 : chunkId.lastIndexOf('#');
    if (hash <= 0 || hash == chunkId.length() - 1) {
      throw new IllegalArgumentException("not a chunk id (<docId>#<ordinal>): '" + chunkId + "'");
    }
    return chunkId.substring(0, hash);
  }
}
