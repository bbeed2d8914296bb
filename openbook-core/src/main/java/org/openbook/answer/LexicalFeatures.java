package org.openbook.answer;

import com.ibm.icu.text.RuleBasedNumberFormat;
import com.ibm.icu.util.ULocale;
import java.text.Normalizer;
import java.text.ParsePosition;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.en.EnglishAnalyzer;

/**
 * Cheap lexical features for overlap scoring, identical for questions, answer sentences and
 * passages: Han character bigrams (a lone Han character counts as itself) and lower-cased runs of
 * other letters/digits. A run keeps inner {@code . _ - / :} between letters or digits, so
 * {@code ZQ-7781}, {@code ERR_4517}, {@code 8.1.4} and {@code 10:00} are one feature each.
 * English stop words (Lucene's {@link EnglishAnalyzer#ENGLISH_STOP_WORDS_SET}) are skipped so
 * that "the" and "is" do not make unrelated sentences overlap.
 * Chinese numerals inside Han text additionally yield their Arabic value ({@code 三天} gives
 * {@code 3}, {@code 二十三} gives {@code 23}), parsed with ICU's Chinese spell-out rules, so a
 * number is compared as a number whichever way it is written; a lone {@code 一} is skipped
 * because it is mostly part of a word (一些, 统一).
 * Text is NFKC-normalised first (full-width digits and letters become ASCII). Citation markers
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
    String t = Normalizer.normalize(CitationMarkers.strip(text), Normalizer.Form.NFKC)
        .toLowerCase(Locale.ROOT);
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
              && Character.isLetterOrDigit(t.codePointAt(end + 1)) && !isHan(t.codePointAt(end + 1))) {
            end++;
          } else {
            break;
          }
        }
        String word = t.substring(i, end);
        if (!STOP_WORDS.contains(word)) {
          out.add(word);
        }
        i = end;
      } else {
        i += Character.charCount(cp);
      }
    }
    return out;
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
