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
 * the identity on Simplified text (it maps e.g. 著 to 着, and 著名 is correct Simplified), and
 * leaving Simplified text byte-identical keeps its vectors (and their cache entries) unchanged.
 * The offsets and the quoted text of a chunk are untouched: this is only the model's input.
 */
public final class ChineseFolding {

  /**
   * Share of Han characters the transform changes from which a text counts as Traditional.
   * Traditional Chinese prose changes roughly every third to fifth character (的 stays, 這 / 個 /
   * 們 / 說 / 會 change); Simplified prose changes well under 1 % (著, 乾, 瞭 in a few words).
   */
  public static final double TRADITIONAL_SHARE = 0.05;

  private static final Transliterator T2S = Transliterator.getInstance("Traditional-Simplified");

  private ChineseFolding() {}

  /**
   * {@code text} in Simplified characters when it {@link #isTraditional is Traditional}, else
   * {@code text} itself.
   */
  public static String toSimplifiedIfTraditional(String text) {
    String folded = fold(text);
    return isTraditional(text, folded) ? folded : text;
  }

  /** Whether at least {@link #TRADITIONAL_SHARE} of {@code text}'s Han characters fold. */
  public static boolean isTraditional(String text) {
    return isTraditional(text, fold(text));
  }

  private static boolean isTraditional(String text, String folded) {
    if (text.length() != folded.length()) {
      // Phrase rules changed lengths: certainly Traditional-specific forms were present.
      return true;
    }
    int han = 0;
    int changed = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN) {
        han++;
        if (c != folded.charAt(i)) {
          changed++;
        }
      }
    }
    return han > 0 && changed >= TRADITIONAL_SHARE * han;
  }

  private static String fold(String text) {
    // A Transliterator is not safe for concurrent use.
    synchronized (T2S) {
      return T2S.transliterate(text);
    }
  }
}
