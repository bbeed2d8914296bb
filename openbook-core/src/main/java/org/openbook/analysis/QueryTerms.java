package org.openbook.analysis;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The weighted BM25 terms of a query, shared by every store so sparse scores agree across
 * backends. Identifier tokens ({@code err_4517}, {@code zq-7718}, {@code e2}, {@code 8.1.4},
 * {@code zlib.h}) are boosted: a user who types a code wants the passage about that code, and a
 * handful of Chinese bigram matches in a long passage must not outweigh it. Parts of a compound
 * identifier ({@link TextAnalysis.Token#part()}: {@code billing} of {@code
 * com.acme.billing.InvoiceSyncService}) weigh 1 unless the same term also stands alone in the
 * query, so the whole identifier decides the ranking and the parts only add recall.
 *
 * <p>Each weight is also multiplied by the token's {@link TextAnalysis.Token#share() share}: the
 * unigrams and bigrams of a Chinese run under {@link OpenBookAnalysis.Strategy#UNIGRAM_BIGRAM}
 * are redundant evidence for the same words (a passage with the bigram 面板 has 面 and 板 too),
 * so together they weigh what the run's bigrams weigh under {@link
 * OpenBookAnalysis.Strategy#CJK_BIGRAM}, the clause weights {@link #IDENTIFIER_BOOST} was
 * measured against. One factor per run leaves the BM25 ranking of a question that is one
 * Chinese run as it was (BM25 is linear in clause weights); it restores the weight of an
 * identifier, number or English word against the Chinese words of a mixed question
 * (docs/BENCHMARKS.md, "Identifier weight under UNIGRAM_BIGRAM").
 */
public final class QueryTerms {

  /**
   * Query-time weight of an identifier token relative to an ordinary token (1.0). Chosen so an
   * identifier match outweighs the typical number of incidental bigram matches of a short
   * question; measured on the evaluation sets, see docs/BENCHMARKS.md.
   */
  public static final float IDENTIFIER_BOOST = 3.0f;

  /**
   * A letter next to a digit; or a letter joined to a word character by a connector; or a
   * number with two or more connectors (clause 8.1.4, date 2025-03-15) — but not a plain decimal
   * such as 4.5.
   */
  private static final Pattern IDENTIFIER = Pattern.compile(
      ".*(?:[a-z][0-9]|[0-9][a-z]).*"
          + "|.*(?:[a-z][-_./:][a-z0-9]|[a-z0-9][-_./:][a-z]).*"
          + "|[0-9]+(?:[-_./:][0-9]+){2,}");

  /** One query term and its weight. */
  public record WeightedTerm(String term, float weight) {}

  private QueryTerms() {}

  /**
   * The distinct tokens of {@code query} under {@code analysis}, in order of first occurrence,
   * with their weights in (0, {@link #IDENTIFIER_BOOST}] (the highest of a term's occurrences):
   * {@link #IDENTIFIER_BOOST} for an identifier, else 1, times the token's share.
   */
  public static List<WeightedTerm> of(TextAnalysis analysis, String query) {
    Map<String, Float> weights = new LinkedHashMap<>();
    for (TextAnalysis.Token t : analysis.analyze(query)) {
      float w = (!t.part() && isIdentifier(t.term()) ? IDENTIFIER_BOOST : 1.0f) * t.share();
      weights.merge(t.term(), w, Math::max);
    }
    List<WeightedTerm> out = new ArrayList<>(weights.size());
    weights.forEach((term, w) -> out.add(new WeightedTerm(term, w)));
    return out;
  }

  /**
   * Whether an analysed (lower-cased) token is an identifier: letters mixed with digits, letters
   * joined by {@code - _ . / :}, or numbers with two or more connectors. Plain numbers, decimals
   * and words are not.
   */
  public static boolean isIdentifier(String token) {
    return IDENTIFIER.matcher(token).matches();
  }
}
