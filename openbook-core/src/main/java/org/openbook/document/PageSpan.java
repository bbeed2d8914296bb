package org.openbook.document;

/**
 * The span of one page in {@link Document#text()}.
 *
 * @param page  1-based page number
 * @param start 0-based start offset (inclusive)
 * @param end   0-based end offset (exclusive)
 */
public record PageSpan(int page, int start, int end) {
  public PageSpan {
    if (page < 1) {
      throw new IllegalArgumentException("pages are 1-based, got " + page);
    }
  }
}
