package org.openbook.document;

import java.util.List;

/**
 * A structural block of a document: a paragraph, list, code block or table, with the heading
 * path it sits under. The chunker never splits code blocks or tables unless one alone exceeds the
 * chunk budget.
 *
 * @param kind        what sort of block this is
 * @param headingPath headings from the outermost to the innermost, e.g. {@code [部署指南, 配置]};
 *                    empty before the first heading
 * @param start       0-based start offset in {@link Document#text()} (inclusive)
 * @param end         0-based end offset in {@link Document#text()} (exclusive), {@code > start}
 */
public record Section(Kind kind, List<String> headingPath, int start, int end) {

  /** Kinds of block, which decide how the chunker may cut them. */
  public enum Kind {
    /** Running prose: may be cut at sentence boundaries. */
    PARAGRAPH,
    /** A list: may be cut between items or sentences. */
    LIST,
    /** A fenced or indented code block: kept whole, cut only at line ends when over budget. */
    CODE,
    /** A table: kept whole, cut only between rows when over budget. */
    TABLE
  }

  public Section {
    headingPath = List.copyOf(headingPath);
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("bad section span [" + start + ", " + end + ")");
    }
  }
}
