package org.openbook.embed;

/**
 * Decides whether a text goes to the Chinese or the English dense route by its script: the
 * number of Han characters against the number of Latin-letter words.
 *
 * <p>Why a script count and not a language-identification library: the decision has two
 * outcomes and they coincide with scripts (the English model cannot read Han characters at all;
 * the Chinese model reads the English words mixed into Chinese text). Counting is exact,
 * deterministic and costs nothing per query, and works on one-word queries where n-gram
 * identifiers (Lingua, Tika/Optimaize) are least reliable.
 *
 * <p>Rule: a Han character and a Latin word are one unit each (a Chinese character carries about
 * as much as an English word and is one model token); the text is {@link Language#ZH} when Han
 * characters are at least {@link #HAN_SHARE} of the units, else {@link Language#EN}. So a
 * Chinese sentence full of identifiers ("在 Spring Boot 中配置 DataSource") is Chinese, an
 * English sentence quoting one Chinese name ("the city of 北京 (Beijing) in 2008") is English.
 * Digits and punctuation do not count; a text with neither script is {@link Language#EN}
 * ({@link #detect} never fails).
 */
public final class LanguageDetector {

  /**
   * Share of Han units from which a text is Chinese. 0.3: a Chinese text keeps at least about
   * one Han character per two English words even when dense with identifiers, while an English
   * text rarely has more than a name or two in Chinese.
   */
  public static final double HAN_SHARE = 0.3;

  private LanguageDetector() {}

  /** The route language of {@code text} (null or empty: {@link Language#EN}). */
  public static Language detect(CharSequence text) {
    ScriptCounts c = count(text);
    int units = c.han() + c.latinWords();
    return units > 0 && c.han() >= HAN_SHARE * units ? Language.ZH : Language.EN;
  }

  /**
   * Han characters and Latin-letter words (maximal runs of Latin letters) in {@code text}.
   *
   * @param text any text, null counts as empty
   */
  public static ScriptCounts count(CharSequence text) {
    if (text == null) {
      return new ScriptCounts(0, 0);
    }
    int han = 0;
    int words = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); ) {
      int cp = Character.codePointAt(text, i);
      i += Character.charCount(cp);
      Character.UnicodeScript script = Character.UnicodeScript.of(cp);
      boolean latin = script == Character.UnicodeScript.LATIN && Character.isLetter(cp);
      if (script == Character.UnicodeScript.HAN) {
        han++;
      }
      if (latin && !inWord) {
        words++;
      }
      inWord = latin;
    }
    return new ScriptCounts(han, words);
  }

  /**
   * @param han        Han code points
   * @param latinWords maximal runs of Latin letters
   */
  public record ScriptCounts(int han, int latinWords) {}
}
