package org.openbook.analysis;

import java.util.List;
import org.apache.lucene.analysis.Analyzer;

/**
 * The BM25 text analysis: one configuration used at index time and at query time alike.
 * Every backend receives tokens from here, so BM25 behaves the same on all stores.
 */
public interface TextAnalysis {

  /** Stable id recorded in the index manifest, e.g. {@code openbook-cjk-bigram-v1}. */
  String id();

  /** A Lucene analyzer producing the tokens; a new instance per call. */
  Analyzer analyzer();

  /** The tokens of {@code text}, in order, as they are indexed and queried. */
  List<String> tokenize(String text);

  /**
   * The tokens of {@code text} as {@link #tokenize} gives them, each with whether it is a part
   * stacked on a longer identifier (such parts help recall and weigh less in a query).
   */
  List<Token> analyze(String text);

  /**
   * One analysed token.
   *
   * @param term  the indexed term
   * @param part  whether it is a part of the preceding compound identifier, at the same position
   * @param share the share, in (0, 1], of one query clause's weight this token carries: 1, except
   *              for the tokens of a CJK run that also emits unigrams beside its bigrams
   *              ({@link OpenBookAnalysis.Strategy#UNIGRAM_BIGRAM}), which share the weight the
   *              run's bigrams alone would have (see {@link QueryTerms})
   */
  record Token(String term, boolean part, float share) {

    /** A token with {@code share} 1. */
    public Token(String term, boolean part) {
      this(term, part, 1.0f);
    }

    /**
     * @throws IllegalArgumentException if {@code share} is not in (0, 1]
     */
    public Token {
      if (!(share > 0 && share <= 1)) {
        throw new IllegalArgumentException("share must be in (0, 1], was " + share);
      }
    }
  }
}
