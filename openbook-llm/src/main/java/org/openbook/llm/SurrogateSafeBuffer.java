package org.openbook.llm;

/**
 * Holds back a trailing high surrogate of a streamed text piece until its low surrogate
 * arrives, so every emitted piece contains whole code points and encodes to valid UTF-8 on its
 * own (bug case R19, feed 3: an upstream token ending with the high surrogate of {@code 𠮷}).
 * The concatenation of everything {@link #push} and {@link #flush} return equals the
 * concatenation of the input. Not thread-safe; one per stream.
 */
public final class SurrogateSafeBuffer {

  private char pending;
  private boolean hasPending;

  /**
   * Adds a piece.
   *
   * @return the text that is safe to emit now, possibly empty
   */
  public String push(String piece) {
    StringBuilder sb = new StringBuilder(piece.length() + 1);
    if (hasPending) {
      sb.append(pending);
      hasPending = false;
    }
    sb.append(piece);
    int n = sb.length();
    if (n > 0 && Character.isHighSurrogate(sb.charAt(n - 1))) {
      pending = sb.charAt(n - 1);
      hasPending = true;
      sb.setLength(n - 1);
    }
    return sb.toString();
  }

  /**
   * Ends the stream.
   *
   * @return whatever was held back (a high surrogate that never got its partner), or empty
   */
  public String flush() {
    if (!hasPending) {
      return "";
    }
    hasPending = false;
    return String.valueOf(pending);
  }
}
