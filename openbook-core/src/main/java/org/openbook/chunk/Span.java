package org.openbook.chunk;

/**
 * A half-open range {@code [start, end)} of UTF-16 offsets into some text.
 *
 * @param start 0-based start (inclusive), {@code >= 0}
 * @param end   0-based end (exclusive), {@code >= start}
 */
public record Span(int start, int end) {

  public Span {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
    }
  }

  /** Number of UTF-16 chars covered. */
  public int length() {
    return end - start;
  }

  /** The covered text of {@code text}, which must be the text the offsets refer to. */
  public String of(CharSequence text) {
    return text.subSequence(start, end).toString();
  }
}
