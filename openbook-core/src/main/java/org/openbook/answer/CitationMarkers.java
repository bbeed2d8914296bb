package org.openbook.answer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Citation marker syntax. A marker is one or more numbers in brackets: {@code [1]}, {@code [1,5]},
 * {@code [1, 5]}, {@code [ 2 ]}, {@code 【2】}, {@code ［1］}, full-width digits {@code [１]}; numbers
 * may be separated by {@code , ， 、 ; ；}. Canonical form is {@code [n]} per number.
 */
final class CitationMarkers {

  static final Pattern MARKER =
      Pattern.compile(
          "[\\[［【]\\s*(\\p{Nd}{1,9}(?:\\s*[,，、;；]\\s*\\p{Nd}{1,9})*)\\s*[\\]］】]");

  private static final Pattern SEPARATOR = Pattern.compile("\\s*[,，、;；]\\s*");

  private CitationMarkers() {}

  /** The distinct numbers of one marker's number list (group 1 of {@link #MARKER}), in order. */
  static List<Integer> numbers(String list) {
    LinkedHashSet<Integer> out = new LinkedHashSet<>();
    for (String part : SEPARATOR.split(list.strip())) {
      int n = 0;
      for (int i = 0; i < part.length(); i++) {
        // Character.digit maps every Unicode decimal digit (full-width ０-９ too) to its value.
        n = n * 10 + Character.digit(part.charAt(i), 10);
      }
      out.add(n);
    }
    return new ArrayList<>(out);
  }

  /** All numbers cited in {@code text}, in order of appearance, repeats kept. */
  static List<Integer> allNumbers(String text) {
    List<Integer> out = new ArrayList<>();
    Matcher m = MARKER.matcher(text);
    while (m.find()) {
      out.addAll(numbers(m.group(1)));
    }
    return out;
  }

  /** {@code text} with every marker removed. */
  static String strip(String text) {
    return MARKER.matcher(text).replaceAll("");
  }

  /** The canonical marker for {@code n}. */
  static String of(int n) {
    return "[" + n + "]";
  }
}
