package org.openbook.answer;

import java.util.List;

/**
 * One subject-matter term of a question: a word or an identifier, with the BM25 tokens it is
 * indexed as.
 *
 * @param text       the term as written in the question (original characters), non-blank
 * @param tokens     its analysed index tokens (e.g. {@code [滤芯]}, {@code [err_4517]}, the CJK
 *                   bigrams of a longer Chinese word), non-empty; a passage contains the term
 *                   when it contains all of them
 * @param identifier whether it is an identifier (letters with digits or joined by
 *                   {@code - _ . / :}, see {@link org.openbook.analysis.QueryTerms#isIdentifier})
 * @param han        whether it is written in Han characters (only such terms may be covered by
 *                   meaning: the Chinese embedding model reads many Latin words as one unknown
 *                   token)
 */
public record KeyTerm(String text, List<String> tokens, boolean identifier, boolean han) {

  public KeyTerm {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("key term text must not be blank");
    }
    if (tokens == null || tokens.isEmpty()) {
      throw new IllegalArgumentException("key term '" + text + "' has no index tokens");
    }
    tokens = List.copyOf(tokens);
  }
}
