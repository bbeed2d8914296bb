package org.openbook.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
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

  /** CJKBigramFilter's token types: one CJK character, two adjacent ones. */
  private static final Set<String> CJK_TYPES =
      Set.of(CJKBigramFilter.SINGLE_TYPE, CJKBigramFilter.DOUBLE_TYPE);

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
   * Character bigrams ({@link Strategy#CJK_BIGRAM}): the analysis of code that takes no
   * configuration (unit tests, the gate study, the scale benchmark). Not the product's default:
   * the product reads the configuration key {@code analysis.analyzer}, whose default is {@link
   * Strategy#UNIGRAM_BIGRAM} (engine {@code OpenBookConfig.Analysis.DEFAULT_ANALYZER}; measured
   * in docs/BENCHMARKS.md).
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
   * compound identifier, and with its {@link Token#share() share} of a query clause's weight.
   *
   * <p>The share is 1 except inside a CJK run (a chain of CJK unigram/bigram tokens, each
   * overlapping the one before): there every token gets {@code max(b, 1) / t}, b the run's
   * bigrams and t its tokens. Under {@link Strategy#CJK_BIGRAM} that is 1 (a run is its
   * bigrams, or one lone character); under {@link Strategy#UNIGRAM_BIGRAM} a run of n ≥ 2
   * characters is n unigrams and n − 1 bigrams, each with share (n − 1) / (2n − 1), so the run
   * weighs in a query what its bigrams weigh under CJK_BIGRAM. Without this, every matched
   * Chinese word would count three times (its bigram and both characters) against an
   * identifier's once, and the identifier boost ({@link QueryTerms#IDENTIFIER_BOOST}, measured
   * with bigrams) would lose its effect.
   */
  @Override
  public List<Token> analyze(String text) {
    Objects.requireNonNull(text, "text");
    List<RawToken> raw = new ArrayList<>();
    try (TokenStream ts = shared.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        String t = type.type();
        raw.add(new RawToken(term.toString(), IdentifierTokenizer.WORD_PART.equals(t)
            || IdentifierTokenizer.IDENTIFIER_PART.equals(t), CJK_TYPES.contains(t),
            CJKBigramFilter.DOUBLE_TYPE.equals(t), offset.startOffset(), offset.endOffset()));
      }
      ts.end();
    } catch (IOException e) {
      // Reading a String cannot fail; keep the signature free of IOException.
      throw new UncheckedIOException(e);
    }
    return withRunShares(raw);
  }

  /** A token as the chain emits it, before shares are assigned. */
  private record RawToken(String term, boolean part, boolean cjk, boolean bigram, int start,
      int end) {}

  /** The tokens with their shares, see {@link #analyze}. */
  private static List<Token> withRunShares(List<RawToken> raw) {
    List<Token> out = new ArrayList<>(raw.size());
    int i = 0;
    while (i < raw.size()) {
      RawToken first = raw.get(i);
      if (!first.cjk()) {
        out.add(new Token(first.term(), first.part()));
        i++;
        continue;
      }
      int j = i + 1;
      int bigrams = first.bigram() ? 1 : 0;
      int end = first.end();
      while (j < raw.size() && raw.get(j).cjk() && raw.get(j).start() < end) {
        bigrams += raw.get(j).bigram() ? 1 : 0;
        end = Math.max(end, raw.get(j).end());
        j++;
      }
      float share = Math.max(bigrams, 1) / (float) (j - i);
      for (RawToken t : raw.subList(i, j)) {
        out.add(new Token(t.term(), t.part(), share));
      }
      i = j;
    }
    return out;
  }

  @Override
  public String toString() {
    return id();
  }

  private static String idOf(Strategy s) {
    return ID_PREFIX + s.name().toLowerCase(Locale.ROOT) + ID_SUFFIX;
  }
}
