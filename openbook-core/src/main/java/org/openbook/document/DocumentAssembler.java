package org.openbook.document;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds a {@link Document} block by block, for loaders that walk a parsed structure (Word
 * paragraphs, spreadsheet rows, slides) instead of cutting a text they already have.
 *
 * <p>Blocks are separated by one blank line in {@link Document#text()}. Headings are written into
 * the text but belong to no section (as in {@link MarkdownLoader}); they set the heading path of
 * the blocks that follow. Tables are written as GitHub-flavoured Markdown (header rows, a
 * delimiter row, then one line per row), so that the chunker's table rules (cut between rows,
 * repeat the header rows) apply to every format alike. Not thread-safe; one per document.
 */
public final class DocumentAssembler {

  private final StringBuilder text = new StringBuilder();
  private final List<Section> sections = new ArrayList<>();
  private final List<PageSpan> pages = new ArrayList<>();
  private final List<CellRange> cells = new ArrayList<>();
  private final List<String> path = new ArrayList<>();
  private final List<Integer> levels = new ArrayList<>();
  private int pageStart = -1;
  private int pageNumber;

  /**
   * A heading of the given level (1 = outermost): headings of the same or a deeper level are
   * closed, and this one is appended to the path. Blank titles are ignored.
   */
  public void heading(int level, String title) {
    String t = oneLine(title);
    if (t.isEmpty()) {
      return;
    }
    while (!levels.isEmpty() && levels.get(levels.size() - 1) >= level) {
      levels.remove(levels.size() - 1);
      path.remove(path.size() - 1);
    }
    levels.add(level);
    path.add(t);
    append(t);
  }

  /** Replaces the heading path (for slides and sheets, whose path is not nested headings). */
  public void path(List<String> headings) {
    path.clear();
    levels.clear();
    for (int i = 0; i < headings.size(); i++) {
      String t = oneLine(headings.get(i));
      if (!t.isEmpty()) {
        path.add(t);
        levels.add(i + 1);
      }
    }
  }

  /** The current heading path, outermost first. */
  public List<String> path() {
    return List.copyOf(path);
  }

  /**
   * Appends a block as a section of {@code kind} under the current heading path; blank content
   * is ignored.
   *
   * @return {@code [start, end)} of the block in the text, or null when it was blank
   */
  public int[] block(Section.Kind kind, String content) {
    int[] span = append(content == null ? "" : content.strip());
    if (span != null) {
      sections.add(new Section(kind, path, span[0], span[1]));
    }
    return span;
  }

  /**
   * Appends a table as a TABLE section: the first {@code headerRows} rows, a delimiter row, then
   * the other rows; cell text is put on one line and {@code |} is escaped. Rows whose cells are all
   * blank are left out.
   *
   * @param rows       rows of cell texts (ragged rows are padded to the widest)
   * @param headerRows how many leading rows form the header, at least 1 when there are rows
   * @return the {@code [start, end)} span of each row line in the text (null for left-out rows),
   *     for locations such as cell ranges; empty when the table has no text
   */
  public List<int[]> table(List<List<String>> rows, int headerRows) {
    int width = rows.stream().mapToInt(List::size).max().orElse(0);
    List<int[]> spans = new ArrayList<>();
    if (width == 0 || rows.stream().allMatch(DocumentAssembler::blankRow)) {
      return spans;
    }
    StringBuilder t = new StringBuilder();
    List<int[]> relative = new ArrayList<>();
    int headers = Math.max(1, Math.min(headerRows, rows.size()));
    for (int r = 0; r < rows.size(); r++) {
      List<String> row = rows.get(r);
      if (blankRow(row) && r >= headers) {
        relative.add(null);
        continue;
      }
      if (t.length() > 0) {
        t.append('\n');
      }
      int s = t.length();
      t.append('|');
      for (int c = 0; c < width; c++) {
        String cell = c < row.size() ? oneLine(row.get(c)).replace("|", "\\|") : "";
        t.append(' ').append(cell).append(cell.isEmpty() ? "|" : " |");
      }
      relative.add(new int[] {s, t.length()});
      if (r == headers - 1) {
        t.append('\n').append("|---".repeat(width)).append('|');
      }
    }
    int[] span = append(t.toString());
    if (span == null) {
      return spans;
    }
    sections.add(new Section(Section.Kind.TABLE, path, span[0], span[1]));
    for (int[] rel : relative) {
      spans.add(rel == null ? null : new int[] {span[0] + rel[0], span[0] + rel[1]});
    }
    return spans;
  }

  /** Records a spreadsheet location for {@code [start, end)} of the text. */
  public void cells(String sheet, int firstRow, int lastRow, int firstCol, int lastCol,
      int[] span) {
    cells.add(new CellRange(sheet, firstRow, lastRow, firstCol, lastCol, span[0], span[1]));
  }

  /** Starts page {@code number} (1-based); the previous page, if open, is closed. */
  public void startPage(int number) {
    endPage(false);
    if (text.length() > 0) {
      text.append("\n\n");
    }
    pageStart = text.length();
    pageNumber = number;
  }

  /** Closes the open page, if any; {@code ocr} marks its text as recognised by OCR. */
  public void endPage(boolean ocr) {
    if (pageStart >= 0) {
      pages.add(new PageSpan(pageNumber, pageStart, Math.max(pageStart, text.length()), ocr));
      pageStart = -1;
    }
  }

  /** Whether any section has been added. */
  public boolean isEmpty() {
    return sections.isEmpty();
  }

  /** Length of the text so far. */
  public int length() {
    return text.length();
  }

  /**
   * The document; an open page is closed first.
   *
   * @param source document id and source
   * @param title  document title
   * @param meta   metadata; {@code dept} is set to {@value Document#PUBLIC} when absent
   * @param hash   SHA-256 hex of the file bytes
   */
  public Document build(String source, String title, Map<String, String> meta, String hash) {
    endPage(false);
    Map<String, String> m = new java.util.LinkedHashMap<>(meta);
    m.putIfAbsent(Document.DEPT, Document.PUBLIC);
    return new Document(source, source, title, text.toString(), sections, pages, m, hash, cells);
  }

  private int[] append(String content) {
    if (content == null || content.isBlank()) {
      return null;
    }
    if (text.length() > 0 && text.length() != pageStart) {
      text.append("\n\n");
    }
    int start = text.length();
    text.append(content);
    return new int[] {start, text.length()};
  }

  private static boolean blankRow(List<String> row) {
    return row.stream().allMatch(c -> c == null || c.isBlank());
  }

  /** Whitespace runs (including line breaks) collapsed to one space, trimmed. */
  public static String oneLine(String s) {
    return s == null ? "" : s.replaceAll("[\\s\\u00A0\\u3000]+", " ").strip();
  }
}
