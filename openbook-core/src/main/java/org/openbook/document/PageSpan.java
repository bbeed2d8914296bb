package org.openbook.document;

/**
 * The span of one page in {@link Document#text()}.
 *
 * @param page  1-based page number
 * @param start 0-based start offset (inclusive)
 * @param end   0-based end offset (exclusive)
 * @param ocr   whether the page's text was recognised by OCR rather than read from a text layer
 */
public record PageSpan(int page, int start, int end, boolean ocr) {
  public PageSpan {
    if (page < 1) {
      throw new IllegalArgumentException("pages are 1-based, got " + page);
    }
  }

  /** A page read from a text layer (not OCR). */
  public PageSpan(int page, int start, int end) {
    this(page, start, end, false);
  }
}
