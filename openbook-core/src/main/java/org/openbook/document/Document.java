package org.openbook.document;

import java.util.List;
import java.util.Map;

/**
 * One loaded source file: its full text plus the structure needed to chunk and cite it.
 *
 * <p>All offsets in {@link #sections()} and {@link #pages()} are 0-based Java {@code String}
 * indices into {@link #text()} (end exclusive). For Markdown and text files {@code text} is the
 * decoded file content (BOM removed, front matter kept in place so offsets match the file); for
 * PDF it is the concatenation of the extracted pages; for HTML it is the extracted main text.
 *
 * @param id          stable document id; equal to {@code source}
 * @param source      path relative to the ingested root, '/'-separated (never the bare file name)
 * @param title       front-matter title, first heading, or the file name without extension
 * @param text        the full document text that every offset refers to
 * @param sections    structural blocks in document order (non-overlapping); only these are indexed
 * @param pages       1-based page spans for paged formats (PDF); empty otherwise
 * @param meta        string metadata: front matter ({@code title}, {@code dept}, {@code tags}, …);
 *                    {@code dept} is always present and defaults to {@code public}
 * @param contentHash SHA-256 hex of the raw file bytes
 * @param cells       spreadsheet locations of text stretches (one per row for sheets), in text
 *                    order; empty for other formats
 */
public record Document(
    String id,
    String source,
    String title,
    String text,
    List<Section> sections,
    List<PageSpan> pages,
    Map<String, String> meta,
    String contentHash,
    List<CellRange> cells) {

  /** Metadata key of the department that may read this document. */
  public static final String DEPT = "dept";

  /** Department visible to everyone, and the default when a document names none. */
  public static final String PUBLIC = "public";

  public Document {
    sections = List.copyOf(sections);
    pages = List.copyOf(pages);
    meta = Map.copyOf(meta);
    cells = List.copyOf(cells);
  }

  /** A document without spreadsheet locations. */
  public Document(String id, String source, String title, String text, List<Section> sections,
      List<PageSpan> pages, Map<String, String> meta, String contentHash) {
    this(id, source, title, text, sections, pages, meta, contentHash, List.of());
  }

  /** Whether the page containing {@code offset} was read by OCR. */
  public boolean ocrAt(int offset) {
    int page = pageAt(offset);
    for (PageSpan p : pages) {
      if (p.page() == page) {
        return p.ocr();
      }
    }
    return false;
  }

  /** The department of this document ({@value #PUBLIC} when none was given). */
  public String dept() {
    return meta.getOrDefault(DEPT, PUBLIC);
  }

  /**
   * The 1-based page that contains {@code offset}, or 0 when the document is not paged.
   */
  public int pageAt(int offset) {
    for (PageSpan p : pages) {
      if (offset >= p.start() && offset < p.end()) {
        return p.page();
      }
    }
    if (!pages.isEmpty() && offset >= pages.get(pages.size() - 1).end()) {
      return pages.get(pages.size() - 1).page();
    }
    return 0;
  }
}
