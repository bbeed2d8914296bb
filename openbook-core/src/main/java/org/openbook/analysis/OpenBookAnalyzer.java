package org.openbook.analysis;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;

/**
 * The Lucene analysis chain behind {@link OpenBookAnalysis}:
 * {@link IdentifierTokenizer} → {@link LowerCaseFilter} → {@link EnglishPossessiveFilter} →
 * {@link StopFilter} (Lucene's English stop set) → {@link PorterStemFilter} (skips keyword tokens,
 * i.e. everything but pure-letter words) → the Chinese stage of the {@link
 * OpenBookAnalysis.Strategy}. The English part is the recipe of Lucene's {@link EnglishAnalyzer}.
 * Thread-safe through Analyzer's per-thread reuse of the chain.
 */
final class OpenBookAnalyzer extends Analyzer {
  private final OpenBookAnalysis.Strategy strategy;

  OpenBookAnalyzer(OpenBookAnalysis.Strategy strategy) {
    this.strategy = strategy;
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    IdentifierTokenizer source =
        new IdentifierTokenizer(strategy == OpenBookAnalysis.Strategy.SMARTCN);
    TokenStream ts = new LowerCaseFilter(source);
    ts = new EnglishPossessiveFilter(ts);
    ts = new StopFilter(ts, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    ts = new PorterStemFilter(ts);
    int kana = CJKBigramFilter.HIRAGANA | CJKBigramFilter.KATAKANA;
    ts = switch (strategy) {
      case CJK_BIGRAM -> new CJKBigramFilter(ts, CJKBigramFilter.HAN | kana, false);
      case UNIGRAM_BIGRAM -> new CJKBigramFilter(ts, CJKBigramFilter.HAN | kana, true);
      case SMARTCN -> new CJKBigramFilter(new HanRunSegmentFilter(ts), kana, false);
    };
    return new TokenStreamComponents(source, ts);
  }

  @Override
  protected TokenStream normalize(String fieldName, TokenStream in) {
    return new LowerCaseFilter(in);
  }
}
