package org.openbook.embed;

/** An embedding input longer than the model reads; it would otherwise be silently cut. */
public class InputTooLongException extends IllegalArgumentException {
  private final int tokens;
  private final int limit;

  public InputTooLongException(int tokens, int limit, String preview) {
    super("embedding input has " + tokens + " tokens, model limit is " + limit + ": " + preview);
    this.tokens = tokens;
    this.limit = limit;
  }

  public int tokens() {
    return tokens;
  }

  public int limit() {
    return limit;
  }
}
