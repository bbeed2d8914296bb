package org.openbook.answer;

import java.util.List;
import java.util.Locale;

/**
 * The fixed refusal sentence the generator must use when the sources do not answer (gate 2 of
 * the two refusal gates), one per answer language.
 *
 * @param chinese sentence for Chinese questions, non-blank
 * @param english sentence for English questions, non-blank
 */
public record RefusalPolicy(String chinese, String english) {

  /** The defaults: {@code 根据现有文档无法回答该问题。} and its English counterpart. */
  public static final RefusalPolicy DEFAULT =
      new RefusalPolicy(
          "根据现有文档无法回答该问题。", "The documents do not contain an answer to this question.");

  public RefusalPolicy {
    if (chinese == null || chinese.isBlank()) {
      throw new IllegalArgumentException("refusal.chinese must not be blank");
    }
    if (english == null || english.isBlank()) {
      throw new IllegalArgumentException("refusal.english must not be blank");
    }
    chinese = chinese.strip();
    english = english.strip();
  }

  /** The sentence in the language of {@code question} (see {@link AnswerLanguage#of}). */
  public String sentenceFor(String question) {
    return sentenceFor(AnswerLanguage.of(question));
  }

  /** The sentence for {@code language}. */
  public String sentenceFor(AnswerLanguage language) {
    return language == AnswerLanguage.ZH ? chinese : english;
  }

  /**
   * The refusal sentence that {@code reply} is or starts with, in either language, or null.
   * Citation markers, surrounding whitespace and the refusal's end punctuation are ignored;
   * English is compared case-insensitively. A reply that merely begins with the same words but
   * continues the sentence ("…该问题中的第二点是…") is not a refusal.
   */
  public String match(String reply) {
    String r = normalise(CitationMarkers.strip(reply));
    for (String sentence : List.of(chinese, english)) {
      String s = stripEndPunctuation(normalise(sentence));
      if (r.startsWith(s)) {
        String rest = r.substring(s.length());
        if (rest.isEmpty() || isPunctuationOrSpace(rest.codePointAt(0))) {
          return sentence;
        }
      }
    }
    return null;
  }

  /** Whether {@code reply} is a refusal (see {@link #match}). */
  public boolean isRefusal(String reply) {
    return match(reply) != null;
  }

  private static String normalise(String s) {
    return s.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }

  private static String stripEndPunctuation(String s) {
    int end = s.length();
    while (end > 0 && isPunctuationOrSpace(s.codePointBefore(end))) {
      end -= Character.charCount(s.codePointBefore(end));
    }
    return s.substring(0, end);
  }

  private static boolean isPunctuationOrSpace(int cp) {
    return Character.isWhitespace(cp) || !Character.isLetterOrDigit(cp);
  }
}
