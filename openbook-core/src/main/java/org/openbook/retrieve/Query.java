package org.openbook.retrieve;

/**
 * A retrieval request.
 *
 * @param text      the question text
 * @param principal who asks; decides the access filter
 * @param topK      how many fused hits to return, ≥ 1
 * @param fetchK    how many candidates each route returns before fusion, ≥ topK
 */
public record Query(String text, Principal principal, int topK, int fetchK) {

  /** Default candidates per route before fusion. */
  public static final int DEFAULT_FETCH_K = 50;

  public Query {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("question must not be empty");
    }
    if (topK < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + topK);
    }
    fetchK = Math.max(fetchK, topK);
  }

  public static Query of(String text, Principal principal, int topK) {
    return new Query(text, principal, topK, Math.max(DEFAULT_FETCH_K, topK));
  }
}
