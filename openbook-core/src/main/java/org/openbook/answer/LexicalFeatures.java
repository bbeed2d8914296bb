package org.openbook.answer;

import com.ibm.icu.text.RuleBasedNumberFormat;
import com.ibm.icu.util.ULocale;
import java.text.ParsePosition;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.openbook.analysis.NormalizedText;
import org.tartarus.snowball.ext.EnglishStemmer;

/**
 * Cheap lexical features for overlap scoring, identical for questions, answer sentences and
 * passages: Han character bigrams (a lone Han character counts as itself) and lower-cased runs of
 * other letters/digits. A run keeps inner {@code . _ - /} between letters or digits and {@code :}
 * between digits, so
 * {@code ZQ-7781}, {@code ERR_4517}, {@code 8.1.4} and {@code 10:00} are one feature each.
 * English stop words (Lucene's {@link EnglishAnalyzer#ENGLISH_STOP_WORDS_SET}) are skipped so
 * that "the" and "is" do not make unrelated sentences overlap, and plain English words are
 * reduced to their Snowball stem so "sessions" and "session" overlap.
 * Chinese numerals inside Han text additionally yield their Arabic value ({@code 三天} gives
 * {@code 3}, {@code 二十三} gives {@code 23}), parsed with ICU's Chinese spell-out rules, so a
 * number is compared as a number whichever way it is written; a lone {@code 一} is skipped
 * because it is mostly part of a word (一些, 统一).
 * Text is normalised first like the BM25 analysis's ({@link NormalizedText}: full-width digits
 * and letters become ASCII, Traditional Chinese becomes Simplified). Citation markers
 * are removed before tokenising so their digits never count as numbers.
 */
final class LexicalFeatures {

  private static final String JOINERS = "._-/:";
  private static final CharArraySet STOP_WORDS = EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
  private static final String HAN_DIGITS = "零〇一二三四五六七八九";
  private static final String HAN_NUMERALS = HAN_DIGITS + "两十百千万亿";
  /** ICU formats are not thread-safe; one per thread. */
  private static final ThreadLocal<RuleBasedNumberFormat> SPELLOUT = ThreadLocal.withInitial(
      () -> new RuleBasedNumberFormat(ULocale.CHINESE, RuleBasedNumberFormat.SPELLOUT));

  private LexicalFeatures() {}

  /** The distinct features of {@code text}, in order of first occurrence. */
  static Set<String> of(String text) {
    String t = normalise(text);
    Set<String> out = new LinkedHashSet<>();
    int i = 0;
    int n = t.length();
    while (i < n) {
      int cp = t.codePointAt(i);
      if (isHan(cp)) {
        int end = i;
        while (end < n && isHan(t.codePointAt(end))) {
          end += Character.charCount(t.codePointAt(end));
        }
        addHanBigrams(t.substring(i, end), out);
        addHanNumbers(t.substring(i, end), out);
        i = end;
      } else if (Character.isLetterOrDigit(cp)) {
        int end = i;
        while (end < n) {
          int c = t.codePointAt(end);
          if (Character.isLetterOrDigit(c) && !isHan(c)) {
            end += Character.charCount(c);
          } else if (JOINERS.indexOf(c) >= 0 && end + 1 < n
              && Character.isLetterOrDigit(t.codePointAt(end + 1)) && !isHan(t.codePointAt(end + 1))
              // ':' joins only digits (10:00): NFKC turns the Chinese colon of "E5：PM2.5" into ':'
              && (c != ':' || (Character.isDigit(t.codePointBefore(end))
                  && Character.isDigit(t.codePointAt(end + 1))))) {
            end++;
          } else {
            break;
          }
        }
        String word = t.substring(i, end);
        if (!STOP_WORDS.contains(word)) {
          out.add(stem(word));
        }
        i = end;
      } else {
        i += Character.charCount(cp);
      }
    }
    return out;
  }

  /**
   * Snowball English stem of a plain lower-case word ("sessions" → "session"), so inflections
   * overlap; identifiers and numbers (anything with a digit or joiner) are kept as they are.
   */
  static String stem(String word) {
    for (int k = 0; k < word.length(); k++) {
      if (!Character.isLetter(word.charAt(k)) || word.charAt(k) > 'z') {
        return word;
      }
    }
    EnglishStemmer stemmer = STEMMER.get();
    stemmer.setCurrent(word);
    stemmer.stem();
    return stemmer.getCurrent();
  }

  /** Snowball stemmers keep state; one per thread. */
  private static final ThreadLocal<EnglishStemmer> STEMMER =
      ThreadLocal.withInitial(EnglishStemmer::new);

  /**
   * Unit characters that bind a number into a quantity: time (天 小时 秒 月 年 周 日), counts and
   * classifiers (个 张 次 档 层 件 台 倍), money and measures (元 折 度 米 升 克).
   */
  private static final String UNITS = "天个张次小时秒分元年月日周号档层件台人岁倍折度米升克";

  /**
   * Quantities of {@code text}: each number directly followed (after at most one space) by a unit
   * character, as number + unit ({@code 3 个工作日} → {@code 3个}, {@code 七天} → {@code 7天}).
   * They make the support check bind a number to what it counts, so "3 个工作日" is not supported
   * by a passage that only has "3 张照片" and "2 个工作日". Numbers inside identifiers
   * ({@code E2}, {@code PM2.5}) are not quantities.
   */
  static Set<String> quantities(String text) {
    String t = normalise(text);
    Set<String> out = new LinkedHashSet<>();
    int n = t.length();
    int i = 0;
    while (i < n) {
      char c = t.charAt(i);
      boolean startsNumber = isAsciiDigit(c)
          && (i == 0 || !Character.isLetterOrDigit(t.charAt(i - 1)) || isHan(t.charAt(i - 1)))
          && (i == 0 || t.charAt(i - 1) != '.');
      if (startsNumber) {
        int end = i;
        while (end < n && (isAsciiDigit(t.charAt(end))
            || (t.charAt(end) == '.' && end + 1 < n && isAsciiDigit(t.charAt(end + 1))))) {
          end++;
        }
        boolean inIdentifier = end < n && Character.isLetter(t.charAt(end)) && !isHan(t.charAt(end));
        if (!inIdentifier) {
          addQuantity(t.substring(i, end), t, end, out);
        }
        i = end;
      } else if (HAN_NUMERALS.indexOf(c) >= 0) {
        int end = i;
        while (end < n && HAN_NUMERALS.indexOf(t.charAt(end)) >= 0) {
          end++;
        }
        String numeral = t.substring(i, end);
        String value = numeral.equals("一") ? null : hanNumberValue(numeral);
        if (value != null) {
          addQuantity(value, t, end, out);
        }
        i = end;
      } else {
        i++;
      }
    }
    return out;
  }

  private static void addQuantity(String number, String t, int after, Set<String> out) {
    int j = after < t.length() && t.charAt(after) == ' ' ? after + 1 : after;
    if (j < t.length() && UNITS.indexOf(t.charAt(j)) >= 0) {
      out.add(number + t.charAt(j));
    }
  }

  /**
   * Markers removed (their digits are no numbers), then the BM25 analysis's normalisation ({@link
   * NormalizedText}: NFKC, invisible characters removed, Traditional folded to Simplified, so a
   * Simplified question overlaps a Traditional sentence), lower-cased.
   */
  private static String normalise(String text) {
    return NormalizedText.of(CitationMarkers.strip(text)).text().toLowerCase(Locale.ROOT);
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Whether a feature carries a number (a digit); such features are checked strictly. */
  static boolean isNumeric(String feature) {
    for (int i = 0; i < feature.length(); i++) {
      if (Character.isDigit(feature.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  private static void addHanBigrams(String run, Set<String> out) {
    int[] cps = run.codePoints().toArray();
    if (cps.length == 1) {
      out.add(run);
      return;
    }
    for (int k = 0; k + 1 < cps.length; k++) {
      out.add(new String(cps, k, 2));
    }
  }

  private static void addHanNumbers(String run, Set<String> out) {
    int i = 0;
    while (i < run.length()) {
      if (HAN_NUMERALS.indexOf(run.charAt(i)) < 0) {
        i++;
        continue;
      }
      int end = i;
      while (end < run.length() && HAN_NUMERALS.indexOf(run.charAt(end)) >= 0) {
        end++;
      }
      String numeral = run.substring(i, end);
      if (!numeral.equals("一")) {
        String value = hanNumberValue(numeral);
        if (value != null) {
          out.add(value);
        }
      }
      i = end;
    }
  }

  /** The Arabic value of a Chinese numeral ({@code 二十三} → 23, {@code 二〇二四} → 2024), or null. */
  static String hanNumberValue(String numeral) {
    if (numeral.chars().allMatch(c -> HAN_DIGITS.indexOf(c) >= 0)) {
      // no unit characters: read digit by digit, as in 二〇二四
      StringBuilder digits = new StringBuilder();
      for (char c : numeral.toCharArray()) {
        digits.append(c == '零' ? 0 : "〇一二三四五六七八九".indexOf(c));
      }
      return digits.toString();
    }
    ParsePosition pos = new ParsePosition(0);
    Number n = SPELLOUT.get().parse(numeral, pos);
    return n != null && pos.getIndex() == numeral.length() ? Long.toString(n.longValue()) : null;
  }

  private static boolean isHan(int cp) {
    return Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN;
  }
}
