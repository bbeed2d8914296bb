package org.openbook.chunk;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Splits Chinese, English and mixed text into sentence spans without losing a character: the
 * spans returned for a range are contiguous and their concatenation equals the range.
 *
 * <p>Rules, applied left to right:
 *
 * <ul>
 *   <li>Chinese terminators {@code 。！？；…｡} (and runs of them, such as {@code ……} or {@code ！？})
 *       always end a sentence. Closing quotes, brackets and further punctuation directly after
 *       them ({@code 」』”）} …) stay with the sentence.
 *   <li>ASCII {@code . ! ?} (and full-width {@code ．}) end a sentence only when followed —
 *       after optional closing quotes/brackets — by whitespace or the end of the text, so
 *       {@code 3.14}, {@code v1.2.3} and {@code zlib.h} are never split; and not after a common
 *       abbreviation ({@code e.g. i.e. Mr. Dr. etc. vs. No. 5} …) or a list number at the start of
 *       a line ({@code 1. item}).
 *   <li>A blank line (a line break, optional spaces, another line break) ends a sentence; a single
 *       line break inside a paragraph does not.
 *   <li>Whitespace after a sentence end belongs to that sentence, so every sentence but the first
 *       starts with a visible character.
 * </ul>
 *
 * <p>ICU4J's {@code BreakIterator.getSentenceInstance} (UAX #29) was not used as the base: it
 * ends a sentence at every line break, does not treat {@code ；} and {@code …} as terminators, and
 * splits after abbreviations unless a locale-specific suppression list is configured, so fixing
 * its output would take more code than this scanner. Stateless and thread-safe.
 */
public final class SentenceSplitter {

  /** Terminators that end a sentence wherever they stand. */
  private static final String CJK_TERMINATORS = "。！？；…｡";

  /** Terminators that end a sentence only before whitespace or the end of the text. */
  private static final String ASCII_TERMINATORS = ".!?．";

  /** Closing quotes and brackets that stay with the sentence they close. */
  private static final String CLOSERS = "\"'”’)）]］}｝」』】〕〉》";

  /**
   * Punctuation that must never begin a sentence (see {@link #isClosingPunctuation}); ASCII quotes
   * are left out because they open as often as they close.
   */
  private static final String NEVER_FIRST = "。！？；，、：）」』”’.!?;,:…｡．)]}］｝】〕〉》";

  /**
   * Words that, followed by a period, do not end a sentence. Case-sensitive on purpose: the
   * lower-case word "no." ends sentences ("I said no. Then …"); "No." only counts before a digit,
   * see {@link #isAbbreviation}.
   */
  private static final Set<String> ABBREVIATIONS =
      Set.of(
          "e.g", "i.e", "E.g", "I.e", "etc", "vs", "cf", "approx", "al", "Mr", "Mrs", "Ms", "Dr",
          "Prof", "Sr", "Jr", "St", "Inc", "Ltd", "Co", "Fig", "fig", "Vol", "vol", "pp", "No",
          "Nr", "no");

  private SentenceSplitter() {}

  /**
   * Splits the whole text.
   *
   * @return contiguous spans covering {@code [0, text.length())}; empty for empty text
   */
  public static List<Span> split(CharSequence text) {
    return split(text, 0, text.length());
  }

  /**
   * Splits {@code text[from, to)}; offsets in the result are absolute in {@code text}.
   *
   * @return contiguous spans from {@code from} to {@code to}; empty when {@code from == to}
   * @throws IndexOutOfBoundsException if the range is not inside the text
   */
  public static List<Span> split(CharSequence text, int from, int to) {
    Objects.checkFromToIndex(from, to, text.length());
    List<Span> spans = new ArrayList<>();
    int start = from;
    int i = from;
    while (i < to) {
      int end = sentenceEndAt(text, i, to);
      if (end < 0) {
        i++;
        continue;
      }
      end = skipWhitespace(text, end, to);
      if (end < to && isClosingPunctuation(text.charAt(end))) {
        // e.g. "Hi. , then": the comma cannot open a sentence, so this was no sentence end.
        i = end;
        continue;
      }
      spans.add(new Span(start, end));
      start = end;
      i = end;
    }
    if (start < to) {
      spans.add(new Span(start, to));
    }
    return spans;
  }

  /**
   * Whether {@code c} is punctuation that closes or continues a clause, which a chunk or sentence
   * should not start with: {@code 。！？；，、：）」』”…} and ASCII {@code .!?;,:} and closing
   * brackets. A sentence returned by {@link #split} never starts with one, except the first.
   */
  public static boolean isClosingPunctuation(char c) {
    return NEVER_FIRST.indexOf(c) >= 0;
  }

  /**
   * If a sentence ends by something starting at {@code i}, returns the offset just after the
   * terminating punctuation (before trailing whitespace); otherwise -1.
   */
  private static int sentenceEndAt(CharSequence text, int i, int to) {
    char c = text.charAt(i);
    if (CJK_TERMINATORS.indexOf(c) >= 0) {
      int j = i + 1;
      while (j < to && (NEVER_FIRST.indexOf(text.charAt(j)) >= 0
          || CLOSERS.indexOf(text.charAt(j)) >= 0)) {
        j++;
      }
      return j;
    }
    if (ASCII_TERMINATORS.indexOf(c) >= 0) {
      int runEnd = i + 1;
      while (runEnd < to && ASCII_TERMINATORS.indexOf(text.charAt(runEnd)) >= 0) {
        runEnd++;
      }
      int j = runEnd;
      while (j < to && CLOSERS.indexOf(text.charAt(j)) >= 0) {
        j++;
      }
      if (j < to && !Character.isWhitespace(text.charAt(j))) {
        return -1;
      }
      boolean singlePeriod = runEnd == i + 1 && (c == '.' || c == '．');
      if (singlePeriod && (isAbbreviation(text, i, j, to) || isListNumber(text, i))) {
        return -1;
      }
      return j;
    }
    if (c == '\n' && isBlankLineAt(text, i, to)) {
      return i;
    }
    return -1;
  }

  /** Whether a line break at {@code i} is followed by optional blanks and another line break. */
  private static boolean isBlankLineAt(CharSequence text, int i, int to) {
    for (int j = i + 1; j < to; j++) {
      char c = text.charAt(j);
      if (c == '\n') {
        return true;
      }
      if (!Character.isWhitespace(c)) {
        return false;
      }
    }
    return false;
  }

  /** Whether the word before the period at {@code dot} is a known abbreviation. */
  private static boolean isAbbreviation(CharSequence text, int dot, int afterPunct, int to) {
    int t = dot;
    while (t > 0 && (Character.isLetter(text.charAt(t - 1)) || text.charAt(t - 1) == '.')) {
      t--;
    }
    String word = text.subSequence(t, dot).toString();
    if (!ABBREVIATIONS.contains(word)) {
      return false;
    }
    if (word.equals("No") || word.equals("no") || word.equals("Nr")) {
      // "No. 5" is a number sign; "No." before anything else is the word "no".
      int k = skipWhitespace(text, afterPunct, to);
      return k < to && Character.isDigit(text.charAt(k));
    }
    return true;
  }

  /** Whether the period at {@code dot} follows a number that starts its line ("1. item"). */
  private static boolean isListNumber(CharSequence text, int dot) {
    int t = dot;
    while (t > 0 && Character.isDigit(text.charAt(t - 1))) {
      t--;
    }
    if (t == dot) {
      return false;
    }
    while (t > 0 && (text.charAt(t - 1) == ' ' || text.charAt(t - 1) == '\t')) {
      t--;
    }
    return t == 0 || text.charAt(t - 1) == '\n';
  }

  private static int skipWhitespace(CharSequence text, int i, int to) {
    while (i < to && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    return i;
  }
}
