package org.openbook.answer;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.openbook.analysis.TextAnalysis;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.TermStatistics;
import org.openbook.retrieve.Hit;

/**
 * Gate 1, with two signals: the passages are evidence for a question when the best dense cosine
 * among them reaches {@code denseThreshold}, <em>or</em> one of them matches the question
 * lexically in a way that cannot be chance:
 *
 * <ul>
 *   <li>it contains an identifier key term of the question ({@code ERR_4517}, {@code ZQ-7781}):
 *       an exact code match is evidence however short the question and low the cosine (R28);
 *   <li>or its IDF-weighted share of the question's key terms reaches {@code lexicalThreshold}:
 *       {@code Σ idf(terms it contains) / Σ idf(all key terms)} (see {@link TermWeights}), and
 *       the terms it contains include a rare one ({@link #MAX_RARE_DOC_SHARE}). A match on
 *       common words only ({@code 公司}) is not evidence.
 * </ul>
 *
 * A question without key terms ({@code 你是谁}) has only the dense signal. The gate judges the
 * passages it is given: the numbered sources the answer is built from, never a chunk outside
 * them. Thread-safe.
 */
public final class EvidenceGate {

  /**
   * Default lexical threshold: the passage must hold key terms carrying at least this share of
   * the question's IDF mass; calibration in docs/BENCHMARKS.md ("Gate 1 with two signals").
   */
  public static final double DEFAULT_LEXICAL_THRESHOLD = 0.8;

  /**
   * A term is rare when at most this share of the chunks holds it (and always when only one
   * does): a lexical match counts only if it includes a rare term, so a question whose only
   * content word is 公司 is not let through by every chunk that says 公司.
   */
  public static final double MAX_RARE_DOC_SHARE = 0.05;

  private final double denseThreshold;
  private final double lexicalThreshold;
  private final KeyTerms keyTerms;
  private final TermStatistics stats;
  private final TextAnalysis analysis;

  /**
   * @param denseThreshold   cosine in [-1, 1] the best dense score must reach
   * @param lexicalThreshold IDF share in (0, 1] a passage must reach; above 1 turns the
   *                         lexical-share signal off (identifier matches still count)
   * @param analysis         the index's analysis (tokens of passages and terms); null turns the
   *                         lexical signal off entirely (the old dense-only rule)
   * @param stats            the index's term statistics, for IDF weights counted over what the
   *                         asking principal may read ({@link TermWeights}); null weighs every
   *                         term 1
   * @throws IllegalArgumentException for a threshold out of range or NaN
   */
  public EvidenceGate(double denseThreshold, double lexicalThreshold, TextAnalysis analysis,
      TermStatistics stats) {
    if (!(denseThreshold >= -1 && denseThreshold <= 1)) {
      throw new IllegalArgumentException(
          "gate threshold must be a cosine in [-1, 1], got " + denseThreshold);
    }
    if (!(lexicalThreshold > 0)) {
      throw new IllegalArgumentException(
          "gate lexical threshold must be > 0, got " + lexicalThreshold);
    }
    this.denseThreshold = denseThreshold;
    this.lexicalThreshold = lexicalThreshold;
    this.analysis = analysis;
    this.keyTerms = analysis == null ? null : new KeyTerms(analysis);
    this.stats = stats;
  }

  /** The old rule: the best dense cosine alone. */
  public static EvidenceGate denseOnly(double denseThreshold) {
    return new EvidenceGate(denseThreshold, Double.POSITIVE_INFINITY, null, null);
  }

  /** Whether the lexical signal is on (false for {@link #denseOnly}). */
  public boolean lexical() {
    return keyTerms != null;
  }

  public double denseThreshold() {
    return denseThreshold;
  }

  public double lexicalThreshold() {
    return lexicalThreshold;
  }

  /**
   * The gate's verdict on {@code hits}.
   *
   * @param bestDense    best dense cosine among the passages (NaN when none came from the dense
   *                     route)
   * @param bestLexical  best IDF-weighted key-term share of one passage that holds a rare term, in
   *                     [0, 1] (0 without a rare term; NaN when the
   *                     lexical signal is off or the question has no key terms)
   * @param matchedTerm  the identifier that matched exactly, or empty
   * @param passes       whether the passages are evidence
   */
  public record Verdict(double bestDense, double bestLexical, String matchedTerm, boolean passes) {

    /** Which signal let the question through: {@code dense}, {@code identifier},
     * {@code lexical}, or {@code none}. */
    public String signal(double denseThreshold, double lexicalThreshold) {
      if (bestDense >= denseThreshold) {
        return "dense";
      }
      if (!matchedTerm.isEmpty()) {
        return "identifier";
      }
      return bestLexical >= lexicalThreshold ? "lexical" : "none";
    }
  }

  /**
   * Judges {@code hits} (the passages the answer will be built from) for {@code question}.
   *
   * @param denseFallback the dense signal to use when no hit carries a dense score (e.g. the
   *                      route's best cosine from {@link org.openbook.retrieve.SearchResult}), or NaN
   * @param scope         what the asking principal may read: term rarity and IDF are counted
   *                      there only ({@link org.openbook.retrieve.Principal#filter()})
   */
  public Verdict judge(String question, List<Hit> hits, double denseFallback,
      AccessFilter scope) {
    return judge(question, hits, denseFallback, weights(scope));
  }

  /**
   * The term weights of {@code scope} for {@link #judge(String, List, double, TermWeights)}:
   * make one per question and pass it to every judgement of that question, so each term's
   * document frequency is counted once.
   */
  public TermWeights weights(AccessFilter scope) {
    return stats == null ? TermWeights.UNIFORM : new TermWeights(stats, scope);
  }

  /**
   * As {@link #judge(String, List, double, AccessFilter)} with the weights of the asking
   * principal's scope made once for the question ({@link #weights}).
   */
  public Verdict judge(String question, List<Hit> hits, double denseFallback,
      TermWeights weights) {
    double bestDense = Double.NaN;
    for (Hit h : hits) {
      if (!Double.isNaN(h.denseScore()) && !(h.denseScore() <= bestDense)) {
        bestDense = h.denseScore();
      }
    }
    if (Double.isNaN(bestDense)) {
      bestDense = denseFallback;
    }
    if (keyTerms == null || hits.isEmpty()) {
      return new Verdict(bestDense, Double.NaN, "", !hits.isEmpty() && bestDense >= denseThreshold);
    }
    List<KeyTerm> terms = keyTerms.of(question);
    if (terms.isEmpty()) {
      return new Verdict(bestDense, Double.NaN, "", bestDense >= denseThreshold);
    }
    double total = 0;
    double[] idf = new double[terms.size()];
    for (int i = 0; i < idf.length; i++) {
      idf[i] = weights.idf(terms.get(i));
      total += idf[i];
    }
    double bestLexical = 0;
    String matched = "";
    for (Hit h : hits) {
      Set<String> tokens = new HashSet<>(analysis.tokenize(h.chunk().embedText()));
      double share = 0;
      boolean rare = false;
      for (int i = 0; i < idf.length; i++) {
        KeyTerm t = terms.get(i);
        if (tokens.containsAll(t.tokens())) {
          rare |= isRare(t, weights);
          share += total > 0 ? idf[i] / total : 1.0 / idf.length;
          if (t.identifier() && matched.isEmpty()) {
            matched = t.text();
          }
        }
      }
      bestLexical = Math.max(bestLexical, rare ? share : 0);
    }
    boolean passes = bestDense >= denseThreshold || !matched.isEmpty()
        || bestLexical >= lexicalThreshold;
    return new Verdict(bestDense, bestLexical, matched, passes);
  }

  private static boolean isRare(KeyTerm t, TermWeights weights) {
    long n = weights.docCount();
    if (n == 0) {
      return true; // no statistics: no term can be called common
    }
    return weights.docFreq(t) <= Math.max(1, MAX_RARE_DOC_SHARE * n);
  }
}
