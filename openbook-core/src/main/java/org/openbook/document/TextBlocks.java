package org.openbook.document;

import java.util.ArrayList;
import java.util.List;

/** Offset helpers shared by the loaders: blank-line paragraphs and whitespace trimming. */
final class TextBlocks {

  private TextBlocks() {}

  /**
   * Splits {@code text[from, to)} into paragraphs separated by lines that are empty or blank.
   * Each span is trimmed of surrounding whitespace, so it is never empty or whitespace-only.
   *
   * @return {@code [start, end)} pairs in order, absolute offsets into {@code text}
   */
  static List<int[]> paragraphs(String text, int from, int to) {
    List<int[]> out = new ArrayList<>();
    int paraStart = -1;
    int lineStart = from;
    while (lineStart < to) {
      int nl = text.indexOf('\n', lineStart);
      int lineEnd = nl < 0 || nl >= to ? to : nl;
      boolean blank = text.substring(lineStart, lineEnd).isBlank();
      if (blank && paraStart >= 0) {
        addTrimmed(out, text, paraStart, lineStart);
        paraStart = -1;
      } else if (!blank && paraStart < 0) {
        paraStart = lineStart;
      }
      lineStart = lineEnd + 1;
    }
    if (paraStart >= 0) {
      addTrimmed(out, text, paraStart, to);
    }
    return out;
  }

  /** Adds {@code [start, end)} shrunk to its non-whitespace content, if any remains. */
  static void addTrimmed(List<int[]> out, String text, int start, int end) {
    int[] span = trim(text, start, end);
    if (span != null) {
      out.add(span);
    }
  }

  /** {@code [start, end)} without leading/trailing whitespace, or null when nothing remains. */
  static int[] trim(String text, int start, int end) {
    while (start < end && Character.isWhitespace(text.charAt(start))) {
      start++;
    }
    while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    return end > start ? new int[] {start, end} : null;
  }
}
