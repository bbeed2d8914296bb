package org.openbook.answer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Matcher;

/**
 * Validates the citation markers of a finished answer against the number of sources given.
 * Runs on the final text, never on stream pieces, so a marker split across pieces ({@code "["}
 * … {@code "5]"}) is still seen whole. Out-of-range numbers are dropped from the text (bug case
 * R21: a marker must never point to nothing), in-range numbers are kept in canonical {@code [n]}
 * form. Stateless and thread-safe.
 */
public final class CitationChecker {

  /**
   * Sentences with fewer letters/digits than this (after removing markers) are fragments, not
   * claims, and are not reported as uncited. Provisional: 4 keeps a four-character claim such as
   * {@code 逾期作废} and drops list numbers and labels such as {@code "1."} or {@code "注："}.
   */
  public static final int MIN_CLAIM_LENGTH = 4;

  private final RefusalPolicy refusal;

  /** A checker that does not report the refusal sentences of {@code refusal} as uncited. */
  public CitationChecker(RefusalPolicy refusal) {
    this.refusal = refusal;
  }

  /**
   * Checks {@code answer}.
   *
   * @param answer      the complete answer text
   * @param sourceCount how many numbered sources the generator saw, ≥ 0
   * @return the cleaned text and what was found
   */
  public CitationReport check(String answer, int sourceCount) {
    if (sourceCount < 0) {
      throw new IllegalArgumentException("sourceCount must be >= 0, got " + sourceCount);
    }
    LinkedHashSet<Integer> valid = new LinkedHashSet<>();
    LinkedHashSet<Integer> invalid = new LinkedHashSet<>();
    StringBuilder out = new StringBuilder(answer.length());
    Matcher m = CitationMarkers.MARKER.matcher(answer);
    int last = 0;
    while (m.find()) {
      out.append(answer, last, m.start());
      StringBuilder kept = new StringBuilder();
      for (int n : CitationMarkers.numbers(m.group(1))) {
        if (n >= 1 && n <= sourceCount) {
          valid.add(n);
          kept.append(CitationMarkers.of(n));
        } else {
          invalid.add(n);
        }
      }
      if (kept.isEmpty() && !continuesWord(answer, m.end())) {
        // "逾期作废 [0]。" should not leave "逾期作废 。" behind.
        trimTrailingBlanks(out);
      }
      out.append(kept);
      last = m.end();
    }
    out.append(answer, last, answer.length());
    String text = out.toString();

    List<CitedSentence> sentences = new ArrayList<>();
    List<String> uncited = new ArrayList<>();
    for (String s : Sentences.split(text)) {
      List<Integer> cited = List.copyOf(new LinkedHashSet<>(CitationMarkers.allNumbers(s)));
      sentences.add(new CitedSentence(s, cited));
      if (cited.isEmpty()
          && Sentences.contentLength(s) >= MIN_CLAIM_LENGTH
          && !refusal.isRefusal(s)
          && !CoverageNotes.isNote(s)) {
        uncited.add(s);
      }
    }
    return new CitationReport(
        text, List.copyOf(valid), List.copyOf(invalid), sentences, uncited);
  }

  private static boolean continuesWord(String s, int at) {
    return at < s.length() && Character.isLetterOrDigit(s.codePointAt(at));
  }

  private static void trimTrailingBlanks(StringBuilder sb) {
    int end = sb.length();
    while (end > 0 && (sb.charAt(end - 1) == ' ' || sb.charAt(end - 1) == '\t')) {
      end--;
    }
    sb.setLength(end);
  }
}
