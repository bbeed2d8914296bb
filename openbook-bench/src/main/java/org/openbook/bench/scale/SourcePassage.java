package org.openbook.bench.scale;

import java.util.List;

/**
 * One real chunk of the source corpus, the unit the scale corpus is grown from.
 *
 * @param family    where it comes from ({@code cmrc2018}, {@code drcd}, {@code xquad-zh},
 *                  {@code xquad-en}, {@code docs-zh}, {@code docs-en}); variants recombine
 *                  passages of one family only
 * @param prefix    the chunker's contextual prefix (title and heading path), may be empty
 * @param sentences the chunk's raw text split into sentences (very short ones merged into the
 *                  previous one); their concatenation is the raw text
 * @param embedText the chunk's embedText exactly as the chunker made it ({@code prefix + "\n" +
 *                  raw}, or raw when there is no prefix)
 */
public record SourcePassage(String family, String prefix, List<String> sentences,
    String embedText) {

  public SourcePassage {
    sentences = List.copyOf(sentences);
    if (sentences.isEmpty()) {
      throw new IllegalArgumentException("a passage needs at least one sentence");
    }
  }

  /** The raw chunk text: the sentences concatenated. */
  public String raw() {
    return String.join("", sentences);
  }
}
