package org.openbook.answer;

/**
 * The language an answer is written in, chosen from the question: Chinese when at least
 * {@link #HAN_SHARE_FOR_CHINESE} of the question's letters are Han characters, else English.
 */
public enum AnswerLanguage {
  ZH,
  EN;

  /**
   * Share of Han characters among all letters from which a question counts as Chinese.
   * Provisional: 0.3 keeps mixed questions such as {@code "ERR_4517是什么"} (3 Han of 6 letters)
   * Chinese, while an English question quoting one Chinese term stays English.
   */
  public static final double HAN_SHARE_FOR_CHINESE = 0.3;

  /** The language of {@code text}; English when it has no letters at all. */
  public static AnswerLanguage of(String text) {
    int letters = 0;
    int han = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetter(cp)) {
        letters++;
        if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
          han++;
        }
      }
    }
    return letters > 0 && (double) han / letters >= HAN_SHARE_FOR_CHINESE ? ZH : EN;
  }
}
