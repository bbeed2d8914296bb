package org.openbook.document;

import java.util.List;

/**
 * A loaded document and the non-fatal problems found while loading it.
 *
 * @param document the document (at least one section)
 * @param warnings human-readable warnings, e.g. {@code "page 2: no extractable text (needs OCR)"}
 */
public record LoadResult(Document document, List<String> warnings) {
  public LoadResult {
    warnings = List.copyOf(warnings);
  }
}
