package org.openbook.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/**
 * A small sentence splitter for answers and passages: ends a sentence at a line break, after
 * {@code 。！？} (and their runs), and after ASCII {@code .!?} followed by whitespace or the end.
 * Closing quotes/brackets and citation markers that follow the end punctuation stay with the
 * sentence they close ({@code "申请。[1]"}, {@code "applied. [1] Next"}), so a marker written
 * after the full stop still belongs to its sentence. Decimals such as {@code 8.1.4} never end a
 * sentence.
 */
final class Sentences {

  private static final String CJK_END = "。！？";
  private static final String ASCII_END = ".!?";
  private static final String CLOSERS = "”’」』）)\"'】》";

  private Sentences() {}

  /** The sentences of {@code text}, stripped, empty ones dropped. */
  static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    Matcher marker = CitationMarkers.MARKER.matcher(text);
    int start = 0;
    int i = 0;
    int n = text.length();
    while (i < n) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        add(out, text, start, i);
        start = ++i;
        continue;
      }
      boolean cjk = CJK_END.indexOf(c) >= 0;
      if (!cjk && ASCII_END.indexOf(c) < 0) {
        i++;
        continue;
      }
      int j = i + 1;
      while (j < n && (CJK_END.indexOf(text.charAt(j)) >= 0 || ASCII_END.indexOf(text.charAt(j)) >= 0)) {
        j++;
      }
      while (j < n && CLOSERS.indexOf(text.charAt(j)) >= 0) {
        j++;
      }
      j = skipMarkers(text, j, marker);
      if (cjk || j == n || Character.isWhitespace(text.charAt(j))) {
        add(out, text, start, j);
        start = j;
      }
      i = j;
    }
    add(out, text, start, n);
    return out;
  }

  /** Number of letters and digits in {@code s} once citation markers are removed. */
  static int contentLength(String s) {
    String t = CitationMarkers.strip(s);
    int count = 0;
    for (int i = 0; i < t.length(); ) {
      int cp = t.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        count++;
      }
    }
    return count;
  }

  private static int skipMarkers(String text, int from, Matcher marker) {
    int j = from;
    while (true) {
      int k = j;
      while (k < text.length() && (text.charAt(k) == ' ' || text.charAt(k) == '\t')) {
        k++;
      }
      marker.region(k, text.length());
      if (k < text.length() && marker.lookingAt()) {
        j = marker.end();
      } else {
        return j;
      }
    }
  }

  private static void add(List<String> out, String text, int from, int to) {
    String s = text.substring(from, to).strip();
    if (!s.isEmpty()) {
      out.add(s);
    }
  }
}
