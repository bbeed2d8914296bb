package org.openbook.analysis;

import java.io.IOException;
import java.util.List;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.KeywordAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;

/**
 * Tokenizer for mixed Chinese/English text that keeps identifiers whole.
 *
 * <p>The input goes through {@link NormalizedText} first (NFKC width folding, invisible characters
 * removed, line-break hyphens resolved, Traditional Han folded to Simplified; full-width {@code
 * ＥＲＲ＿４５１７} reads as {@code ERR_4517}). Then:
 * <ul>
 *   <li>a run of letters/digits joined by single connectors {@code - _ . / :} is one token; it is
 *       an {@link #IDENTIFIER} if it has a connector or mixes letters and digits ({@code ERR_4517},
 *       {@code ZQ-7781}, {@code zlib.h}, {@code 8.1.4}, {@code v1.2.3}, {@code user.name}), a
 *       {@link #NUM} if it is digits only, otherwise a {@link #WORD}. A connector not followed by
 *       a letter or digit ends the run, so {@code 第8.1.4条。} gives {@code 8.1.4};</li>
 *   <li>a standard code, a space and a number ({@code GB/T 22239}, {@code ISO 9001}) is one
 *       identifier without the space ({@code GB/T22239});</li>
 *   <li>each Han, Hiragana or Katakana character is one token typed as StandardTokenizer types it,
 *       so Lucene's {@code CJKBigramFilter} can pair them; or, for a word segmenter, each Han run
 *       is one {@link #HAN_RUN} token;</li>
 *   <li>everything else (spaces, punctuation, symbols) separates tokens.</li>
 * </ul>
 * An identifier or CamelCase word built from words is followed by its parts ({@link
 * IdentifierParts}), stacked at its position (position increment 0), typed {@link #WORD_PART} or
 * {@link #IDENTIFIER_PART}.
 * Terms keep their case (a lower-case filter follows). Only pure-letter words have {@link
 * KeywordAttribute#isKeyword()} false, so stemmers never touch identifiers, numbers or CJK text.
 * Offsets point into the original (unnormalised) input.
 */
public final class IdentifierTokenizer extends Tokenizer {

  /** A plain word: letters only (apostrophes allowed inside). */
  public static final String WORD = StandardTokenizer.TOKEN_TYPES[StandardTokenizer.ALPHANUM];
  /** Digits only. */
  public static final String NUM = StandardTokenizer.TOKEN_TYPES[StandardTokenizer.NUM];
  /** A code kept whole: {@code ERR_4517}, {@code gb/t22239}, {@code 8.1.4}. */
  public static final String IDENTIFIER = "<IDENTIFIER>";
  /** One Han character. */
  public static final String IDEOGRAPHIC =
      StandardTokenizer.TOKEN_TYPES[StandardTokenizer.IDEOGRAPHIC];
  /** One Hiragana character. */
  public static final String HIRAGANA = StandardTokenizer.TOKEN_TYPES[StandardTokenizer.HIRAGANA];
  /** One Katakana character. */
  public static final String KATAKANA = StandardTokenizer.TOKEN_TYPES[StandardTokenizer.KATAKANA];
  /** A whole run of Han characters, for a word segmenter to split. */
  public static final String HAN_RUN = "<HAN_RUN>";
  /** A letters-only part of a compound identifier, stacked on it; stemmed like a word. */
  public static final String WORD_PART = IdentifierParts.WORD_PART;
  /** A part with digits or connectors of a compound identifier, stacked on it. */
  public static final String IDENTIFIER_PART = IdentifierParts.IDENTIFIER_PART;

  private final boolean hanRuns;
  private final CharTermAttribute termAtt = addAttribute(CharTermAttribute.class);
  private final OffsetAttribute offsetAtt = addAttribute(OffsetAttribute.class);
  private final TypeAttribute typeAtt = addAttribute(TypeAttribute.class);
  private final KeywordAttribute keywordAtt = addAttribute(KeywordAttribute.class);
  private final PositionIncrementAttribute posIncAtt =
      addAttribute(PositionIncrementAttribute.class);
  private final StringBuilder original = new StringBuilder();
  private final char[] readBuffer = new char[4096];
  private NormalizedText normalized;
  private List<TokenScanner.Span> spans = List.of();
  private int next;
  private int finalOffset;

  /**
   * @param hanRuns emit each Han run as one {@link #HAN_RUN} token instead of one token per
   *                character
   */
  public IdentifierTokenizer(boolean hanRuns) {
    this.hanRuns = hanRuns;
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    // Chunks are small, so the whole input is read and scanned at once.
    original.setLength(0);
    for (int read = input.read(readBuffer); read != -1; read = input.read(readBuffer)) {
      original.append(readBuffer, 0, read);
    }
    normalized = NormalizedText.of(original);
    spans = TokenScanner.scan(normalized.text(), hanRuns);
    next = 0;
    finalOffset = correctOffset(original.length());
  }

  @Override
  public boolean incrementToken() {
    clearAttributes();
    if (next >= spans.size()) {
      return false;
    }
    TokenScanner.Span span = spans.get(next++);
    termAtt.setEmpty().append(span.term());
    offsetAtt.setOffset(
        correctOffset(normalized.originalStart(span.start())),
        correctOffset(normalized.originalEnd(span.end())));
    typeAtt.setType(span.type());
    posIncAtt.setPositionIncrement(span.stacked() ? 0 : 1);
    boolean word = WORD.equals(span.type()) || WORD_PART.equals(span.type());
    keywordAtt.setKeyword(!(word && isAsciiWord(span.term())));
    return true;
  }

  @Override
  public void end() throws IOException {
    super.end();
    offsetAtt.setOffset(finalOffset, finalOffset);
  }

  @Override
  public void close() throws IOException {
    super.close();
    original.setLength(0);
    normalized = null;
    spans = List.of();
  }

  private static boolean isAsciiWord(String term) {
    for (int k = 0; k < term.length(); k++) {
      char c = term.charAt(k);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '\u2019';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
