package org.openbook.answer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * A cheap lexical check that a cited passage supports the claim citing it.
 *
 * <p>A claim is the text a group of adjacent markers closes: in {@code "A[1]，B[2]。"} the claim
 * of [1] is {@code A} and that of [2] is {@code ，B}; when the group stands at the start of the
 * sentence or closes only punctuation ({@code "A。[1]"}), the claim is the whole sentence before
 * it. The claim's features (Han bigrams, lower-cased words and numbers, Chinese numerals as values,
 * markers and punctuation excluded) are looked up in the union of the group's passages:
 *
 * <ul>
 *   <li>score = share of the claim's distinct features found there, in [0, 1];
 *   <li>a number (any feature with a digit) missing from the passages makes the score 0 — a wrong
 *       number is the classic hallucination, and no share of matching words excuses it.
 *       Chinese numerals count as their value ({@code 三天} matches {@code 3天}); a numeral
 *       used as a word ({@code 十分}) can raise a false alarm, which only flags the citation;
 *   <li>a cited passage that shares no feature with the claim gets 0 for that citation.
 * </ul>
 *
 * A citation's score is its lowest over all claims citing it; below the threshold it is
 * unsupported. Stateless and thread-safe.
 */
public final class SupportChecker {

  /**
   * Default threshold. Provisional (not yet calibrated by the evaluation harness): half of a
   * claim's bigrams/words must occur in the cited passage.
   */
  public static final double DEFAULT_THRESHOLD = 0.5;

  private final double threshold;

  /** A checker with {@link #DEFAULT_THRESHOLD}. */
  public SupportChecker() {
    this(DEFAULT_THRESHOLD);
  }

  /** @param threshold support score in [0, 1] a citation needs */
  public SupportChecker(double threshold) {
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new IllegalArgumentException("support threshold must be in [0, 1], got " + threshold);
    }
    this.threshold = threshold;
  }

  public double threshold() {
    return threshold;
  }

  /**
   * Scores every valid citation of {@code report}.
   *
   * @param report  the citation check of the answer
   * @param sources the numbered sources the answer was written from; source {@code n} is at index
   *                {@code n - 1}
   */
  public SupportReport check(CitationReport report, List<Source> sources) {
    for (int n : report.valid()) {
      if (n > sources.size()) {
        throw new IllegalArgumentException(
            "citation [" + n + "] checked against only " + sources.size() + " sources");
      }
    }
    Map<Integer, Set<String>> passageFeatures = new LinkedHashMap<>();
    Map<Integer, Double> scores = new LinkedHashMap<>();
    for (int n : report.valid()) {
      scores.put(n, 1.0);
    }
    for (CitedSentence sentence : report.sentences()) {
      for (Claim claim : claims(sentence.text())) {
        Set<String> features = LexicalFeatures.of(claim.text());
        if (features.isEmpty()) {
          continue; // nothing checkable, e.g. a bare "[1]"
        }
        Set<String> union = new HashSet<>();
        for (int n : claim.citations()) {
          union.addAll(passageFeatures.computeIfAbsent(
              n, k -> LexicalFeatures.of(sources.get(k - 1).text())));
        }
        double score = score(features, union);
        for (int n : claim.citations()) {
          Set<String> own = passageFeatures.get(n);
          double s = features.stream().anyMatch(own::contains) ? score : 0.0;
          scores.merge(n, s, Math::min);
        }
      }
    }
    return new SupportReport(scores, threshold);
  }

  /** Share of {@code claim} found in {@code passage}; 0 when a number is missing. */
  static double score(Set<String> claim, Set<String> passage) {
    int found = 0;
    for (String f : claim) {
      if (passage.contains(f)) {
        found++;
      } else if (LexicalFeatures.isNumeric(f)) {
        return 0.0;
      }
    }
    return (double) found / claim.size();
  }

  private record Claim(String text, List<Integer> citations) {}

  /** The claims of one sentence: the text each group of adjacent markers closes. */
  private static List<Claim> claims(String sentence) {
    List<Claim> out = new ArrayList<>();
    Matcher m = CitationMarkers.MARKER.matcher(sentence);
    int segmentStart = 0;
    int groupStart = -1;
    int groupEnd = -1;
    List<Integer> group = new ArrayList<>();
    while (m.find()) {
      if (groupStart >= 0 && !sentence.substring(groupEnd, m.start()).isBlank()) {
        out.add(claim(sentence, segmentStart, groupStart, group));
        segmentStart = groupEnd;
        group = new ArrayList<>();
        groupStart = -1;
      }
      if (groupStart < 0) {
        groupStart = m.start();
      }
      groupEnd = m.end();
      for (int n : CitationMarkers.numbers(m.group(1))) {
        if (!group.contains(n)) {
          group.add(n);
        }
      }
    }
    if (groupStart >= 0) {
      out.add(claim(sentence, segmentStart, groupStart, group));
    }
    return out;
  }

  private static Claim claim(String sentence, int from, int groupStart, List<Integer> group) {
    String segment = sentence.substring(from, groupStart);
    if (LexicalFeatures.of(segment).isEmpty()) {
      segment = sentence.substring(0, groupStart); // "A。[1]": the marker closes the sentence
    }
    if (LexicalFeatures.of(segment).isEmpty()) {
      segment = sentence; // "[1] A。": a leading marker cites the whole sentence
    }
    return new Claim(segment, List.copyOf(group));
  }
}
