package org.openbook.answer;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The sentences an extractive answer adds about the documents themselves rather than quoting
 * them: what they say nothing about, a table row they do not hold, and a question term read as
 * a document term. Such a sentence has nothing to cite (it reports an absence or a reading), so
 * {@link CitationChecker} does not list it as uncited; the builders and {@link #isNote} share
 * one set of templates so the two cannot drift apart. Stateless.
 */
final class CoverageNotes {

  private static final String ABSENT_ZH = "文档中没有关于 %s 的说明。";
  private static final String ABSENT_EN = "The documents say nothing about %s.";
  private static final String NO_ENTRY_ZH = "文档中没有 %s 的条目。";
  private static final String NO_ENTRY_EN = "The documents have no entry for %s.";
  private static final String MAPPED_ZH = "（“%s”按文档中的“%s”理解。）";
  private static final String MAPPED_EN = "(\"%s\" taken to mean \"%s\", as the documents say.)";

  /** Every template with each {@code %s} as "anything", matched against a whole sentence. */
  private static final List<Pattern> NOTES = List.of(ABSENT_ZH, ABSENT_EN, NO_ENTRY_ZH,
          NO_ENTRY_EN, MAPPED_ZH, MAPPED_EN).stream()
      .map(t -> Pattern.compile(String.join(".+", quoteParts(t))))
      .toList();

  private CoverageNotes() {}

  /** {@code 文档中没有关于 X、Y 的说明。} or {@code The documents say nothing about X, Y.} */
  static String notDocumented(List<KeyTerm> terms, AnswerLanguage lang) {
    List<String> names = terms.stream().map(KeyTerm::text).toList();
    return lang == AnswerLanguage.ZH
        ? ABSENT_ZH.formatted(String.join("、", names))
        : ABSENT_EN.formatted(String.join(", ", names));
  }

  /** {@code 文档中没有 X + Y 的条目。} or {@code The documents have no entry for X with Y.} */
  static String noEntry(List<String> cells, AnswerLanguage lang) {
    return lang == AnswerLanguage.ZH
        ? NO_ENTRY_ZH.formatted(String.join(" + ", cells))
        : NO_ENTRY_EN.formatted(String.join(" with ", cells));
  }

  /** {@code （“过滤网”按文档中的“滤芯”理解。）} or its English form. */
  static String mapped(String questionTerm, String documentTerm, AnswerLanguage lang) {
    return (lang == AnswerLanguage.ZH ? MAPPED_ZH : MAPPED_EN)
        .formatted(questionTerm, documentTerm);
  }

  /** Whether {@code sentence} (surrounding blanks ignored) is one of these notes. */
  static boolean isNote(String sentence) {
    String s = sentence.strip();
    return NOTES.stream().anyMatch(p -> p.matcher(s).matches());
  }

  private static String[] quoteParts(String template) {
    String[] parts = template.split("%s", -1);
    for (int i = 0; i < parts.length; i++) {
      parts[i] = Pattern.quote(parts[i]);
    }
    return parts;
  }
}
