package org.openbook.embed;

import com.ibm.icu.text.Transliterator;

/**
 * Traditional→Simplified folding of the text the Chinese model embeds: bge-small-zh-v1.5 was
 * trained on Simplified Chinese, so a Traditional passage and question are embedded in the
 * script the model knows (DRCD measurement in docs/BENCHMARKS.md). Uses ICU4J's
 * {@code Traditional-Simplified} transliterator (character and phrase tables from Unicode
 * CLDR/Unihan).
 *
 * <p>Only texts that are Traditional are folded ({@link #isTraditional}): the transform is not
 * the identity on Simplified text (it maps e.g. 著 to 着 and 乾 to 干, and 著名, 乾隆 are correct
 * Simplified), and leaving Simplified text byte-identical keeps its vectors (and their cache
 * entries) unchanged. The offsets and the quoted text of a chunk are untouched: this is only the
 * model's input.
 */
public final class ChineseFolding {

  private static final Transliterator T2S = Transliterator.getInstance("Traditional-Simplified");
  private static final Transliterator S2T = Transliterator.getInstance("Simplified-Traditional");

  private ChineseFolding() {}

  /**
   * {@code text} in Simplified characters when it {@link #isTraditional is Traditional}, else
   * {@code text} itself.
   */
  public static String toSimplifiedIfTraditional(String text) {
    String folded = transform(T2S, text);
    if (folded.equals(text)) {
      return text;
    }
    return evidence(T2S, text) > evidence(S2T, text) ? folded : text;
  }

  /**
   * Whether {@code text} is Traditional Chinese: more of its Han characters change under
   * Traditional→Simplified (這, 個, 臺) than under Simplified→Traditional (这, 个, 台). A
   * character both scripts share (的, 是) is evidence for neither; 著 (as in 著名) counts as
   * Traditional evidence but is outweighed in any Simplified sentence by its Simplified-only
   * characters.
   */
  public static boolean isTraditional(String text) {
    return !toSimplifiedIfTraditional(text).equals(text);
  }

  /** Han code points of {@code text} that {@code t} changes, each transformed alone. */
  private static int evidence(Transliterator t, String text) {
    int n = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
        String c = new String(Character.toChars(cp));
        if (!transform(t, c).equals(c)) {
          n++;
        }
      }
    }
    return n;
  }

  private static String transform(Transliterator t, String text) {
    // A Transliterator is not safe for concurrent use.
    synchronized (t) {
      return t.transliterate(text);
    }
  }
}
