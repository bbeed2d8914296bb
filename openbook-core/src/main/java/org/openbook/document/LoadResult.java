package org.openbook.document;

import java.util.List;

/**
 * A loaded document and the non-fatal problems found while loading it.
 *
 * @param document  the document (at least one section)
 * @param warnings  human-readable warnings, e.g. {@code "page 2: no extractable text (needs OCR)"}
 * @param ocrPages  pages (or images) whose text was recognised by OCR, {@code >= 0}
 * @param ocrMillis wall-clock milliseconds spent in OCR, {@code >= 0}
 */
public record LoadResult(Document document, List<String> warnings, int ocrPages,
    long ocrMillis) {
  public LoadResult {
    warnings = List.copyOf(warnings);
  }

  /** A result without OCR. */
  public LoadResult(Document document, List<String> warnings) {
    this(document, warnings, 0, 0);
  }
}
