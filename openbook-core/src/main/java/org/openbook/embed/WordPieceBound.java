package org.openbook.embed;

import java.text.Normalizer;
import java.util.Locale;

/**
 * An upper bound on the number of tokens a BERT WordPiece tokenizer (Hugging Face {@code
 * BertNormalizer} + {@code BertPreTokenizer} + {@code WordPiece}, {@code [CLS] … [SEP]} template)
 * gives a text, computed from its characters without running the tokenizer.
 *
 * <p>Why it holds: whitespace (and the control characters Java counts as whitespace) only
 * separates words and gives no token; every other code point becomes, after the normalizer's
 * optional NFD accent stripping and lowercasing, at most {@code w(cp)} characters, where {@code
 * w(cp)} is the length in code points of {@code lowercase(NFD(cp))} (1 for every CJK ideograph,
 * ASCII and most letters; 2–3 for e.g. Hangul syllables); and every WordPiece token covers at
 * least one such character (a sub-word piece at least one, {@code [UNK]} a whole word). So
 * {@code tokens ≤ 2 + Σ w(cp)}. For Chinese and English prose the bound is the character count
 * (English: minus spaces) plus 2, so a 400-character chunk with an 80-character heading prefix is
 * known to fit a 512-token model without tokenizing it.
 *
 * <p>Used by {@link OnnxBertEmbedder#fitsTokens} to skip the tokenizer when the answer is sure;
 * the exact count decides otherwise. Thread-safe.
 */
final class WordPieceBound {

  /** [CLS] and [SEP]. */
  static final int SPECIAL_TOKENS = 2;

  private WordPieceBound() {}

  /** {@code w(c)} for every BMP char, computed once on first use. */
  private static final class Table {
    static final byte[] WEIGHTS = new byte[Character.MAX_VALUE + 1];

    static {
      for (int c = 0; c <= Character.MAX_VALUE; c++) {
        WEIGHTS[c] = (byte) Math.min(Byte.MAX_VALUE, weightOf(c));
      }
    }
  }

  /** Upper bound on the tokens {@code text} takes, special tokens included. */
  static int atMost(String text) {
    byte[] w = Table.WEIGHTS;
    int n = SPECIAL_TOKENS;
    for (int i = 0; i < text.length(); ) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        n += weightOf(Character.toCodePoint(c, text.charAt(i + 1)));
        i += 2;
      } else {
        n += w[c];
        i++;
      }
    }
    return n;
  }

  /** {@code w(cp)}: 0 for whitespace, else the code points of lowercase(NFD(cp)), at least 1. */
  static int weightOf(int cp) {
    if (Character.isWhitespace(cp)) {
      return 0;
    }
    if (cp < 0xC0 || Character.isSurrogate((char) cp) && cp <= Character.MAX_VALUE) {
      return 1; // ASCII and Latin-1 symbols have no decomposition; a lone surrogate is one char
    }
    String s = new String(Character.toChars(cp));
    String stripped = Normalizer.normalize(s, Normalizer.Form.NFD).toLowerCase(Locale.ROOT);
    String lower = s.toLowerCase(Locale.ROOT);
    return Math.max(1, Math.max(stripped.codePointCount(0, stripped.length()),
        lower.codePointCount(0, lower.length())));
  }
}
