package org.openbook.answer;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openbook.embed.Embedder;
import org.openbook.embed.InputTooLongException;

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
 *   <li>a number is also bound to the unit that follows it ({@code 3 个工作日} gives the quantity
 *       {@code 3个}), so a number that occurs in the passage only with another unit ({@code 3 张})
 *       still counts as missing;
 *   <li>a cited passage that shares no feature with the claim gets 0 for that citation;
 *   <li>a sum written out in the claim ({@code 24 + 36 + 48 = 108}, as {@link TableAggregation}
 *       states it) whose operands add up to its result is checked by its operands: the result
 *       and the unit after it are derived, not quoted, so only the operands must be in the
 *       passages ({@link #withoutDerived}). A sum that does not add up keeps its result, which
 *       then counts as a missing number.
 * </ul>
 *
 * A citation's score is its lowest over all claims citing it; below the threshold it is
 * unsupported.
 *
 * <p>Optional second signal ({@link #SupportChecker(double, Embedder, double)}): a claim whose
 * lexical score is below the threshold but which misses no number, and whose embedding cosine
 * with the cited passage reaches {@code minCosine}, counts as supported (its score is raised to
 * the threshold). It rescues paraphrases, but embeddings cannot tell a paraphrase from a claim
 * that adds an invented detail, swaps an attribute or negates the passage (see
 * {@link #DEFAULT_THRESHOLD} for the figures), so it is off by default.
 * Thread-safe if the embedder is.
 */
public final class SupportChecker {

  /**
   * Default threshold: half of a claim's features must occur in the cited passage. Measured on
   * the 45 labelled claim–passage pairs of the test resource {@code answer/support-pairs.jsonl}
   * (kb-demo; 24 supported, 21 unsupported: wrong numbers, wrong entities, negations, swapped
   * attributes, wrong passages, partly invented), flagging "unsupported": precision 0.82, recall
   * 0.67 at 0.5; 0.93/0.62 at 0.4; 1.00/0.57 at 0.3; 0.68/0.71 at 0.6. Recall is capped by what
   * no lexical check sees (negations, swapped entities and attributes); 0.5 keeps the best
   * balance while still catching half-invented claims.
   */
  public static final double DEFAULT_THRESHOLD = 0.5;

  /**
   * Cosine (bge-small-zh-v1.5) at which the optional embedding signal vouches for a claim.
   * Measured on the same pairs: wrong-passage citations score 0.40 and 0.51, supported
   * paraphrases 0.61–0.83 — but partly invented, negated and swapped claims 0.66–0.87, so the
   * signal only trades recall for precision (with 0.6: precision 1.00, recall 0.57).
   */
  public static final double DEFAULT_MIN_COSINE = 0.6;

  /** One operand of a written-out sum: a numeric cell as written ({@code ¥1,200}, {@code 24h}). */
  private static final String OPERAND = TableAggregation.CURRENCY + "?\\s*"
      + TableAggregation.DECIMAL + "\\s*" + TableAggregation.UNIT;

  /**
   * A written-out sum ({@link TableSum#statement}): operands joined by {@code +}, {@code =}, the
   * result, a unit.
   */
  private static final Pattern SUM = Pattern.compile(
      "((?:" + OPERAND + "\\s*\\+\\s*)+" + OPERAND + ")\\s*=\\s*" + TableAggregation.CURRENCY
          + "?\\s*(" + TableAggregation.DECIMAL + ")(?:\\s*\\p{L}{1,4}(?![\\p{L}\\d]))?");

  private final double threshold;
  private final Embedder embedder;
  private final double minCosine;

  /** A checker with {@link #DEFAULT_THRESHOLD}. */
  public SupportChecker() {
    this(DEFAULT_THRESHOLD);
  }

  /** @param threshold support score in [0, 1] a citation needs */
  public SupportChecker(double threshold) {
    this(threshold, null, 1.0);
  }

  /**
   * A checker with the embedding signal as a second chance for paraphrases.
   *
   * @param threshold support score in [0, 1] a citation needs
   * @param embedder  embeds claims and passages (L2-normalised vectors); null for lexical only
   * @param minCosine cosine in [-1, 1] at which the embedding signal vouches for a claim that
   *                  misses no number
   * @throws IllegalArgumentException for a value out of range
   */
  public SupportChecker(double threshold, Embedder embedder, double minCosine) {
    if (!(threshold >= 0 && threshold <= 1)) {
      throw new IllegalArgumentException("support threshold must be in [0, 1], got " + threshold);
    }
    if (!(minCosine >= -1 && minCosine <= 1)) {
      throw new IllegalArgumentException("support minCosine must be in [-1, 1], got " + minCosine);
    }
    this.threshold = threshold;
    this.embedder = embedder;
    this.minCosine = minCosine;
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
    Map<String, float[]> vectors = new HashMap<>();
    Map<Integer, Double> scores = new LinkedHashMap<>();
    for (int n : report.valid()) {
      scores.put(n, 1.0);
    }
    for (CitedSentence sentence : report.sentences()) {
      for (Claim claim : claims(sentence.text())) {
        Set<String> features = features(withoutDerived(claim.text()));
        if (features.isEmpty()) {
          continue; // nothing checkable, e.g. a bare "[1]"
        }
        Set<String> union = new HashSet<>();
        for (int n : claim.citations()) {
          union.addAll(passageFeatures.computeIfAbsent(
              n, k -> features(sources.get(k - 1).text())));
        }
        double score = score(features, union);
        boolean numberMissing = features.stream()
            .anyMatch(f -> LexicalFeatures.isNumeric(f) && !union.contains(f));
        for (int n : claim.citations()) {
          Set<String> own = passageFeatures.get(n);
          double s = features.stream().anyMatch(own::contains) ? score : 0.0;
          if (s < threshold && !numberMissing && embedder != null
              && cosine(claim.text(), sources.get(n - 1).text(), vectors) >= minCosine) {
            s = threshold;
          }
          scores.merge(n, s, Math::min);
        }
      }
    }
    return new SupportReport(scores, threshold);
  }

  /** Cosine of two texts' embeddings; NaN when one is too long for the model. */
  private double cosine(String a, String b, Map<String, float[]> vectors) {
    try {
      float[] x = vectors.computeIfAbsent(a, embedder::embed);
      float[] y = vectors.computeIfAbsent(b, embedder::embed);
      double dot = 0;
      for (int i = 0; i < x.length; i++) {
        dot += x[i] * y[i];
      }
      return dot;
    } catch (InputTooLongException e) {
      return Double.NaN; // no second signal; the lexical verdict stands
    }
  }

  /**
   * {@code claim} with every correct written-out sum ({@code a + b + … = r}, optional unit of at
   * most four letters after {@code r}) replaced by its operands; other text unchanged.
   */
  static String withoutDerived(String claim) {
    Matcher m = SUM.matcher(claim);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String[] operands = m.group(1).strip().split("\\s*\\+\\s*");
      BigDecimal total = BigDecimal.ZERO;
      for (String o : operands) {
        Matcher cell = TableAggregation.NUMBER.matcher(o);
        if (!cell.matches()) { // a "+" sign read as the next operand's: not a sum after all
          total = null;
          break;
        }
        total = total.add(new BigDecimal(cell.group(2).replace(",", "")));
      }
      boolean adds = total != null
          && total.compareTo(new BigDecimal(m.group(2).replace(",", ""))) == 0;
      m.appendReplacement(out, Matcher.quoteReplacement(
          adds ? String.join(" ", operands) : m.group()));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Lexical features plus quantities (number + unit) of {@code text}. */
  private static Set<String> features(String text) {
    Set<String> out = new java.util.LinkedHashSet<>(LexicalFeatures.of(text));
    out.addAll(LexicalFeatures.quantities(text));
    return out;
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
