package org.openbook.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * Splits normalised text ({@link NormalizedText}) into raw token spans: CJK characters,
 * identifiers with their parts, numbers and words. This is where identifier protection lives
 * (see {@link IdentifierTokenizer}).
 */
final class TokenScanner {

  /** Join the alphanumeric parts of one identifier: {@code ERR_4517}, {@code zlib.h}. */
  private static final String CONNECTORS = "-_./:";

  /**
   * Standards bodies whose numbers are written "BODY number" with a space ({@code ISO 9001}); the
   * space is dropped so the code is one token in any case. Codes with a slash ({@code GB/T}) and
   * short all-capital codes ({@code EN 60601}) qualify without being listed.
   */
  private static final Set<String> STANDARD_BODIES = Set.of(
      "gb", "gjb", "jgj", "hj", "iso", "iec", "ieee", "rfc", "din", "jis", "ansi", "astm", "itu",
      "etsi", "nist");

  /**
   * One raw token: chars [start, end) of the normalised text; {@code term} as emitted; {@code
   * stacked} for a part of the preceding identifier, at the same position as it.
   */
  record Span(int start, int end, String type, String term, boolean stacked) {
    Span(int start, int end, String type, String term) {
      this(start, end, type, term, false);
    }
  }

  private TokenScanner() {}

  /**
   * Scans {@code text}.
   *
   * @param hanRuns whether a run of Han characters is one span (type {@link
   *                IdentifierTokenizer#HAN_RUN}, for a word segmenter) instead of one per char
   */
  static List<Span> scan(String text, boolean hanRuns) {
    List<Span> out = new ArrayList<>();
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      String cjk = cjkType(cp);
      if (cjk != null) {
        int j = i + Character.charCount(cp);
        if (hanRuns && cjk.equals(IdentifierTokenizer.IDEOGRAPHIC)) {
          while (j < n && IdentifierTokenizer.IDEOGRAPHIC.equals(cjkType(text.codePointAt(j)))) {
            j += Character.charCount(text.codePointAt(j));
          }
          cjk = IdentifierTokenizer.HAN_RUN;
        }
        out.add(new Span(i, j, cjk, text.substring(i, j)));
        i = j;
      } else if (isWordChar(cp)) {
        Span span = withStandardNumber(text, readRun(text, i));
        out.add(span);
        out.addAll(IdentifierParts.of(text, span));
        i = span.end();
      } else {
        i += Character.charCount(cp);
      }
    }
    return out;
  }

  /**
   * Reads the longest run of word characters joined by single connectors (each followed by a word
   * character, so a sentence-final "." is not taken) or, between letters, apostrophes.
   */
  private static Span readRun(String s, int start) {
    int n = s.length();
    int j = start;
    boolean connector = false;
    boolean digit = false;
    boolean letter = false;
    while (true) {
      while (j < n && isWordChar(s.codePointAt(j))) {
        int cp = s.codePointAt(j);
        digit |= Character.isDigit(cp);
        letter |= !Character.isDigit(cp);
        j += Character.charCount(cp);
      }
      if (j + 1 < n && CONNECTORS.indexOf(s.charAt(j)) >= 0 && isWordChar(s.codePointAt(j + 1))) {
        connector = true;
        j++;
      } else if (j + 1 < n && (s.charAt(j) == '\'' || s.charAt(j) == '\u2019')
          && Character.isLetter(s.codePointBefore(j)) && Character.isLetter(s.codePointAt(j + 1))) {
        j++;
      } else {
        break;
      }
    }
    String type = connector || (digit && letter)
        ? IdentifierTokenizer.IDENTIFIER
        : digit ? IdentifierTokenizer.NUM : IdentifierTokenizer.WORD;
    return new Span(start, j, type, s.substring(start, j));
  }

  /**
   * Joins a standard code and its number written with a space ({@code GB/T 22239} becomes
   * {@code GB/T22239}), so that spelling and the spaceless one give the same token.
   */
  private static Span withStandardNumber(String s, Span code) {
    if (!isStandardCode(code.term())) {
      return code;
    }
    int k = code.end();
    while (k < s.length() && k - code.end() < 2 && (s.charAt(k) == ' ' || s.charAt(k) == '\t')) {
      k++;
    }
    if (k == code.end() || k >= s.length() || s.charAt(k) < '0' || s.charAt(k) > '9') {
      return code;
    }
    Span number = readRun(s, k);
    return new Span(code.start(), number.end(), IdentifierTokenizer.IDENTIFIER,
        code.term() + number.term());
  }

  private static boolean isStandardCode(String code) {
    boolean upper = true;
    for (int k = 0; k < code.length(); k++) {
      char c = code.charAt(k);
      boolean asciiLetter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (!asciiLetter && CONNECTORS.indexOf(c) < 0) {
        return false;
      }
      upper &= !(c >= 'a' && c <= 'z');
    }
    String lower = code.toLowerCase(Locale.ROOT);
    return code.indexOf('/') > 0
        || STANDARD_BODIES.contains(lower)
        || (upper && code.length() >= 2 && code.length() <= 5
            && !EnglishAnalyzer.ENGLISH_STOP_WORDS_SET.contains(lower));
  }

  /** A letter or digit outside the CJK scripts (those are tokenised per character). */
  static boolean isWordChar(int cp) {
    return Character.isLetterOrDigit(cp) && cjkType(cp) == null;
  }

  /** The StandardTokenizer type CJKBigramFilter expects for {@code cp}, or null if not CJK. */
  private static String cjkType(int cp) {
    Character.UnicodeScript script = Character.UnicodeScript.of(cp);
    switch (script) {
      case HAN:
        return Character.isLetter(cp) || Character.getType(cp) == Character.LETTER_NUMBER
            ? IdentifierTokenizer.IDEOGRAPHIC : null;
      case HIRAGANA:
        return IdentifierTokenizer.HIRAGANA;
      case KATAKANA:
        return Character.isLetter(cp) ? IdentifierTokenizer.KATAKANA : null;
      default:
        return null;
    }
  }
}
