package org.openbook.analysis;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import java.text.Normalizer;

/**
 * Whether a question has something to search for. A question is accepted when, after NFKC and
 * with every {@code Default_Ignorable_Code_Point} (ICU's property: zero-width space, word joiner,
 * BOM, soft hyphen, bidi marks) and every control character (NUL, tab, newline) left out, it
 * still holds a letter, a digit or other number, or an ideograph. A string with a lone surrogate
 * (malformed UTF-16, e.g. JSON {@code "\ud800"}) is refused whatever else it holds: it cannot be
 * encoded for the index, the log or a reply. Questions made only of spaces (NBSP, U+3000),
 * punctuation, symbols or invisible characters are refused before they reach retrieval, where
 * they would analyse to nothing.
 */
public final class QuestionText {

  private QuestionText() {}

  /**
   * Why {@code question} cannot be asked, or null when it can.
   *
   * @return a sentence naming the fault (for a 400 or an {@link IllegalArgumentException}), or
   *     null
   */
  public static String problem(String question) {
    if (question == null) {
      return "the question is missing";
    }
    for (int i = 0; i < question.length(); i++) {
      char c = question.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < question.length()
          && Character.isLowSurrogate(question.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return "the question is not valid UTF-16 (a lone surrogate at index " + i + ")";
      }
    }
    String n = Normalizer.normalize(question, Normalizer.Form.NFKC);
    boolean content = n.codePoints().anyMatch(QuestionText::isContent);
    return content ? null
        : "the question has no letters, digits or ideographs (only spaces, punctuation, control"
            + " or invisible characters)";
  }

  /**
   * {@code question} itself when {@link #problem} finds nothing.
   *
   * @throws IllegalArgumentException naming the fault otherwise
   */
  public static String require(String question) {
    String p = problem(question);
    if (p != null) {
      throw new IllegalArgumentException(p);
    }
    return question;
  }

  private static boolean isContent(int cp) {
    if (Character.isISOControl(cp)
        || UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)) {
      return false;
    }
    int type = Character.getType(cp);
    return Character.isLetter(cp) || Character.isIdeographic(cp)
        || type == Character.DECIMAL_DIGIT_NUMBER || type == Character.LETTER_NUMBER
        || type == Character.OTHER_NUMBER;
  }
}
