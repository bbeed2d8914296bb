package org.openbook.analysis;

/**
 * Finds words hyphenated across a line break (typical of text extracted from PDFs) and says which
 * characters to drop; the rules are those of step 1 in {@link NormalizedText}.
 */
final class LineBreakHyphens {

  /** Characters that join the parts of an identifier, as in {@link TokenScanner}. */
  private static final String CONNECTORS = "-_./:";

  private LineBreakHyphens() {}

  /**
   * For each char of {@code s}, whether de-hyphenation drops it: the hyphen and the line break
   * (with the spaces or tabs around it) of {@code infor-\nmation}; only the line break of {@code
   * ZQ-\n7781}.
   */
  static boolean[] droppedChars(CharSequence s) {
    int n = s.length();
    boolean[] dropped = new boolean[n];
    for (int h = 1; h < n; h++) {
      char c = s.charAt(h);
      if (c != '-' && c != '\u2010' && c != '\u00AD') {
        continue;
      }
      int next = afterLineBreak(s, h + 1);
      if (next < 0 || !isLatinWordChar(s, h - 1) || !isLatinWordChar(s, next)) {
        continue;
      }
      int leftStart = h;
      while (leftStart > 0 && isLatinWordChar(s, leftStart - 1)) {
        leftStart--;
      }
      int rightEnd = next;
      while (rightEnd < n && isLatinWordChar(s, rightEnd)) {
        rightEnd++;
      }
      boolean identifierTail = leftStart >= 2 && CONNECTORS.indexOf(s.charAt(leftStart - 1)) >= 0
          && isLatinWordChar(s, leftStart - 2);
      boolean wordHalves = !identifierTail && isLowerCaseWord(s, leftStart, h)
          && isLowerCaseWord(s, next, rightEnd);
      int from = wordHalves || c == '\u00AD' ? h : h + 1;
      for (int k = from; k < next; k++) {
        dropped[k] = true;
      }
    }
    return dropped;
  }

  /**
   * The index after spaces/tabs, exactly one line break ({@code \n}, {@code \r\n} or {@code
   * \r}) and spaces/tabs starting at {@code i}; -1 if there is no line break there, or a second.
   */
  private static int afterLineBreak(CharSequence s, int i) {
    int n = s.length();
    int k = skipBlanks(s, i);
    if (k >= n || (s.charAt(k) != '\n' && s.charAt(k) != '\r')) {
      return -1;
    }
    k += s.charAt(k) == '\r' && k + 1 < n && s.charAt(k + 1) == '\n' ? 2 : 1;
    k = skipBlanks(s, k);
    return k < n && s.charAt(k) != '\n' && s.charAt(k) != '\r' ? k : -1;
  }

  private static int skipBlanks(CharSequence s, int k) {
    while (k < s.length() && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
      k++;
    }
    return k;
  }

  /** A letter or digit outside the Han script (CJK lines are not hyphenated). */
  private static boolean isLatinWordChar(CharSequence s, int i) {
    char c = s.charAt(i);
    return Character.isLetterOrDigit(c)
        && Character.UnicodeScript.of(c) != Character.UnicodeScript.HAN;
  }

  private static boolean isLowerCaseWord(CharSequence s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (!Character.isLowerCase(s.charAt(k))) {
        return false;
      }
    }
    return to > from;
  }
}
