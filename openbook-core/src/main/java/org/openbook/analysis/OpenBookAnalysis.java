package org.openbook.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * OpenBook's BM25 analysis for mixed Chinese/English text with identifier protection.
 *
 * <p>Text is first normalised by {@link NormalizedText} (NFKC width folding, invisible format
 * characters removed, words hyphenated across line breaks rejoined, Traditional Chinese folded to
 * Simplified), so {@code 診斷證明} and {@code 诊断证明}, or {@code Invoice\u200BReconcile} and
 * {@code InvoiceReconcile}, give the same tokens; offsets still point into the original text.
 * Identifiers such as {@code ERR_4517}, {@code ZQ-7781}, {@code zlib.h}, {@code 8.1.4} and
 * {@code GB/T 22239} (indexed as {@code gb/t22239}) stay one token; compound identifiers built
 * from words ({@code com.acme.billing.InvoiceSyncService}, {@code /api/v2/orders/export}, {@code
 * snake_case}, {@code CamelCase}) are indexed whole and, stacked on the whole, by their parts
 * ({@link IdentifierParts}). English words are lower-cased, stop words removed and
 * Porter-stemmed; Chinese is tokenised by the chosen {@link Strategy}. See {@link
 * IdentifierTokenizer} for the exact token rules.
 *
 * <p>Immutable and thread-safe.
 */
public final class OpenBookAnalysis implements TextAnalysis {

  /** How Han text becomes tokens. */
  public enum Strategy {
    /** Overlapping character bigrams; a lone Han character is kept as a unigram (Lucene CJK). */
    CJK_BIGRAM,
    /** Every Han character as a unigram plus the overlapping bigrams. */
    UNIGRAM_BIGRAM,
    /** Words from Lucene SmartChinese's HMM segmenter, applied to Han runs only. */
    SMARTCN
  }

  private static final String ID_PREFIX = "openbook-";
  /** v2: normalisation (invisible chars, de-hyphenation, Traditional→Simplified) and parts. */
  private static final String ID_SUFFIX = "-v2";

  private final Strategy strategy;
  /** Shared for {@link #tokenize}; Analyzer reuses its chain per thread, so sharing is safe. */
  private final Analyzer shared;

  private OpenBookAnalysis(Strategy strategy) {
    this.strategy = Objects.requireNonNull(strategy, "strategy");
    this.shared = new OpenBookAnalyzer(strategy);
  }

  /** The analysis with {@code strategy}. */
  public static OpenBookAnalysis of(Strategy strategy) {
    return new OpenBookAnalysis(strategy);
  }

  /**
   * Character bigrams ({@link Strategy#CJK_BIGRAM}), the product's default too: the analysis of
   * code that takes no configuration (unit tests, the gate study). The product reads the
   * configuration key {@code analysis.analyzer} (engine {@code
   * OpenBookConfig.Analysis.DEFAULT_ANALYZER}; measured in docs/BENCHMARKS.md).
   */
  public static OpenBookAnalysis defaultAnalysis() {
    return of(Strategy.CJK_BIGRAM);
  }

  /**
   * The analysis whose {@link #id()} is {@code id}, e.g. from an index manifest.
   *
   * @throws IllegalArgumentException naming the known ids if {@code id} is not one of them
   */
  public static OpenBookAnalysis forId(String id) {
    for (Strategy s : Strategy.values()) {
      if (idOf(s).equals(id)) {
        return of(s);
      }
    }
    throw new IllegalArgumentException("unknown analyzer id '" + id + "'; known: "
        + Arrays.stream(Strategy.values()).map(OpenBookAnalysis::idOf)
            .collect(Collectors.joining(", ")));
  }

  /** The Chinese tokenisation strategy. */
  public Strategy strategy() {
    return strategy;
  }

  /**
   * {@code openbook-cjk_bigram-v2}, {@code openbook-unigram_bigram-v2} or {@code
   * openbook-smartcn-v2}; the suffix changes whenever the tokens produced change, so an index
   * built with older tokens is refused (see {@link org.openbook.index.IndexManifest}).
   */
  @Override
  public String id() {
    return idOf(strategy);
  }

  @Override
  public Analyzer analyzer() {
    return new OpenBookAnalyzer(strategy);
  }

  /**
   * The tokens of {@code text} as indexed and queried: lower-case, in text order (for CJK
   * bigrams, Lucene's order), duplicates kept.
   */
  @Override
  public List<String> tokenize(String text) {
    return analyze(text).stream().map(Token::term).toList();
  }

  /**
   * The tokens of {@code text} as {@link #tokenize} gives them, each flagged when it is a part
   * ({@link IdentifierTokenizer#WORD_PART}, {@link IdentifierTokenizer#IDENTIFIER_PART}) of a
   * compound identifier.
   */
  @Override
  public List<Token> analyze(String text) {
    Objects.requireNonNull(text, "text");
    List<Token> tokens = new ArrayList<>();
    try (TokenStream ts = shared.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        String t = type.type();
        tokens.add(new Token(term.toString(), IdentifierTokenizer.WORD_PART.equals(t)
            || IdentifierTokenizer.IDENTIFIER_PART.equals(t)));
      }
      ts.end();
    } catch (IOException e) {
      // Reading a String cannot fail; keep the signature free of IOException.
      throw new UncheckedIOException(e);
    }
    return tokens;
  }

  @Override
  public String toString() {
    return id();
  }

  private static String idOf(Strategy s) {
    return ID_PREFIX + s.name().toLowerCase(Locale.ROOT) + ID_SUFFIX;
  }
}
