package org.openbook.chunk;

import java.util.List;
import java.util.Map;

/**
 * A passage of a document: the unit that is embedded, indexed, retrieved and cited.
 *
 * @param id          globally unique id, {@code <source>#<ordinal>}; shared by every retrieval
 *                    route (fusion deduplicates by it, never by text)
 * @param docId       id of the {@link org.openbook.document.Document} it came from (its source)
 * @param ordinal     0-based position of the chunk in its document
 * @param raw         the passage exactly as it stands in the document text; shown to users and
 *                    put into prompts
 * @param embedText   contextual text that is embedded and BM25-indexed: title, heading path and
 *                    {@code raw}
 * @param headingPath headings above the passage, outermost first; may be empty
 * @param page        1-based page where the passage starts, or 0 for documents without pages
 * @param startOffset 0-based start of {@code raw} in the document text (inclusive)
 * @param endOffset   0-based end of {@code raw} in the document text (exclusive); {@code
 *                    text.substring(startOffset, endOffset).equals(raw)}
 * @param meta        document metadata copied onto the chunk ({@code source}, {@code dept},
 *                    {@code title}, …)
 */
public record Chunk(
    String id,
    String docId,
    int ordinal,
    String raw,
    String embedText,
    List<String> headingPath,
    int page,
    int startOffset,
    int endOffset,
    Map<String, String> meta) {

  public Chunk {
    headingPath = List.copyOf(headingPath);
    meta = Map.copyOf(meta);
  }

  /** Path of the source file relative to the ingested root. */
  public String source() {
    return meta.getOrDefault("source", docId);
  }

  /** Department allowed to read this chunk. */
  public String dept() {
    return meta.getOrDefault("dept", "public");
  }

  /** Heading path joined with {@code " > "}, or the empty string. */
  public String headingLabel() {
    return String.join(" > ", headingPath);
  }
}
