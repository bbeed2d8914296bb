package org.openbook.document.office;

import static org.openbook.document.office.OdfXml.OFFICE;
import static org.openbook.document.office.OdfXml.STYLE;
import static org.openbook.document.office.OdfXml.TABLE;
import static org.openbook.document.office.OdfXml.attr;
import static org.openbook.document.office.OdfXml.children;
import static org.openbook.document.office.OdfXml.count;
import static org.openbook.document.office.OdfXml.is;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.openbook.document.DocumentAssembler;
import org.w3c.dom.Element;

/**
 * Reads the sheets of an OpenDocument spreadsheet ({@code office:spreadsheet}) into a
 * {@link DocumentAssembler}, with the same rules as {@link SpreadsheetLoader} for Excel.
 *
 * <p>One part per sheet ({@code table:table}), heading = sheet name. A cell reads as displayed:
 * the text of its paragraphs, which an ODF producer writes already formatted ({@code ¥2,599.00},
 * {@code 2025-02-26}; for a formula, its last computed value); only when a cell has no paragraph
 * the raw {@code office:*-value} is used. Row and column numbers count
 * {@code table:number-rows-repeated}/{@code number-columns-repeated}, so locations are the
 * spreadsheet's own ({@code 门店!A12:D30}); blank repeated rows and cells (producers pad sheets to
 * a million rows this way) are counted, never expanded. A sheet whose table style says
 * {@code table:display="false"}, rows with {@code table:visibility} collapse/filter and such
 * columns are left out unless {@code includeHidden}, each reported as a warning. A leading row
 * whose only text is one cell spanning several columns, or followed by a row with two or more
 * texts, is a title (second heading); rows inside {@code table:table-header-rows} (at least the
 * first remaining row) form the header the chunker repeats.
 */
final class OdfSheetReader {

  /** A repeated row or cell that holds text is written at most this many times. */
  static final int MAX_REPEAT = 1_000;
  /** Columns beyond this (ODF's 16,384 is LibreOffice's maximum) are not read. */
  static final int MAX_COLUMNS = 16_384;

  private final OdfXml xml;
  private final boolean includeHidden;
  private final DocumentAssembler out;
  private final List<String> warnings;

  /** One row: 1-based number, non-blank cells by 0-based column, column span of each. */
  private record SheetRow(int number, TreeMap<Integer, String> cells, TreeMap<Integer, Integer> spans,
      boolean hidden, boolean header) {}

  OdfSheetReader(OdfXml xml, boolean includeHidden, DocumentAssembler out,
      List<String> warnings) {
    this.xml = xml;
    this.includeHidden = includeHidden;
    this.out = out;
    this.warnings = warnings;
  }

  /** Reads {@code root}, the {@code office:spreadsheet} element. */
  void read(Element root) {
    for (Element t : children(root)) {
      if (!is(t, TABLE, "table")) {
        continue;
      }
      String name = attr(t, TABLE, "name");
      if (!includeHidden && hiddenSheet(xml, t)) {
        warnings.add("sheet '" + name + "' is hidden: not indexed (ingest.hiddenSheets: include "
            + "to index it)");
        continue;
      }
      sheet(t, name);
    }
  }

  private static boolean hiddenSheet(OdfXml xml, Element table) {
    Element style = xml.style("table", attr(table, TABLE, "style-name"));
    if (style == null) {
      return false;
    }
    for (Element props : children(style)) {
      if (is(props, STYLE, "table-properties")
          && attr(props, TABLE, "display").equals("false")) {
        return true;
      }
    }
    return false;
  }

  private void sheet(Element sheet, String name) {
    List<Boolean> hiddenCols = new ArrayList<>();
    columns(sheet, hiddenCols);
    List<SheetRow> all = new ArrayList<>();
    rows(sheet, false, new int[] {0}, all);
    List<SheetRow> rows = new ArrayList<>();
    int hiddenRows = 0;
    int firstCol = Integer.MAX_VALUE;
    int lastCol = -1;
    for (SheetRow r : all) {
      if (r.hidden() && !includeHidden) {
        hiddenRows++;
        continue;
      }
      rows.add(r);
      firstCol = Math.min(firstCol, r.cells().firstKey());
      lastCol = Math.max(lastCol, r.cells().lastKey());
    }
    List<Integer> cols = new ArrayList<>();
    int hiddenColCount = 0;
    for (int c = firstCol; c <= lastCol; c++) {
      if (!includeHidden && c < hiddenCols.size() && hiddenCols.get(c)) {
        hiddenColCount++;
      } else {
        cols.add(c);
      }
    }
    if (hiddenRows > 0 || hiddenColCount > 0) {
      warnings.add("sheet '" + name + "': " + hiddenRows + " hidden row(s) and " + hiddenColCount
          + " hidden column(s) not indexed");
    }
    if (rows.isEmpty() || cols.isEmpty()) {
      return;
    }
    List<String> path = new ArrayList<>(List.of(name));
    int r = 0;
    while (r < rows.size() - 1 && isTitle(rows.get(r), rows.get(r + 1))) {
      path.add(DocumentAssembler.oneLine(rows.get(r).cells().firstEntry().getValue()));
      r++;
    }
    out.path(path);
    List<SheetRow> tableRows = rows.subList(r, rows.size());
    cols.removeIf(c -> tableRows.stream().noneMatch(row -> row.cells().containsKey(c)));
    if (cols.isEmpty()) {
      return;
    }
    List<List<String>> table = new ArrayList<>();
    int headers = 0;
    for (SheetRow row : tableRows) {
      List<String> cells = new ArrayList<>();
      for (int c : cols) {
        cells.add(row.cells().getOrDefault(c, ""));
      }
      table.add(cells);
      headers += row.header() && headers == table.size() - 1 ? 1 : 0;
    }
    List<int[]> spans = out.table(table, Math.max(1, headers));
    for (int i = 0; i < spans.size(); i++) {
      if (spans.get(i) != null) {
        int n = tableRows.get(i).number();
        out.cells(name, n, n, cols.get(0), cols.get(cols.size() - 1), spans.get(i));
      }
    }
  }

  /** A single text cell spanning columns, or followed by a row with two or more texts. */
  private static boolean isTitle(SheetRow row, SheetRow next) {
    return row.cells().size() == 1
        && (next.cells().size() >= 2 || row.spans().firstEntry().getValue() > 1);
  }

  private static void columns(Element parent, List<Boolean> hidden) {
    for (Element el : children(parent)) {
      if (is(el, TABLE, "table-column")) {
        boolean h = !attr(el, TABLE, "visibility").isEmpty()
            && !attr(el, TABLE, "visibility").equals("visible");
        int repeat = count(el, TABLE, "number-columns-repeated", 1);
        for (int i = 0; i < repeat && hidden.size() < MAX_COLUMNS; i++) {
          hidden.add(h);
        }
      } else if (is(el, TABLE, "table-columns") || is(el, TABLE, "table-header-columns")
          || is(el, TABLE, "table-column-group")) {
        columns(el, hidden);
      }
    }
  }

  /** Rows with text, numbered with repeats counted; {@code next[0]} is the last row number used. */
  private void rows(Element parent, boolean header, int[] next, List<SheetRow> out) {
    for (Element el : children(parent)) {
      if (is(el, TABLE, "table-header-rows")) {
        rows(el, true, next, out);
      } else if (is(el, TABLE, "table-rows") || is(el, TABLE, "table-row-group")) {
        rows(el, header, next, out);
      } else if (is(el, TABLE, "table-row")) {
        int repeat = count(el, TABLE, "number-rows-repeated", 1);
        TreeMap<Integer, String> cells = new TreeMap<>();
        TreeMap<Integer, Integer> spans = new TreeMap<>();
        cells(el, cells, spans);
        if (!cells.isEmpty()) {
          String vis = attr(el, TABLE, "visibility");
          boolean hidden = !vis.isEmpty() && !vis.equals("visible");
          for (int i = 0; i < Math.min(repeat, MAX_REPEAT); i++) {
            out.add(new SheetRow(next[0] + i + 1, cells, spans, hidden, header));
          }
          if (repeat > MAX_REPEAT) {
            warnings.add("row " + (next[0] + 1) + " is repeated " + repeat + " times: only the "
                + "first " + MAX_REPEAT + " copies are indexed");
          }
        }
        next[0] += repeat;
      }
    }
  }

  private static void cells(Element row, TreeMap<Integer, String> cells,
      TreeMap<Integer, Integer> spans) {
    int col = 0;
    for (Element cell : children(row)) {
      if (col >= MAX_COLUMNS) {
        break;
      }
      boolean covered = is(cell, TABLE, "covered-table-cell");
      if (!covered && !is(cell, TABLE, "table-cell")) {
        continue;
      }
      int repeat = count(cell, TABLE, "number-columns-repeated", 1);
      String text = covered ? "" : display(cell);
      if (!text.isBlank()) {
        for (int i = 0; i < Math.min(repeat, MAX_REPEAT) && col + i < MAX_COLUMNS; i++) {
          cells.put(col + i, text);
          spans.put(col + i, count(cell, TABLE, "number-columns-spanned", 1));
        }
      }
      col += repeat;
    }
  }

  /** The text a person sees in the cell (see the class comment). */
  private static String display(Element cell) {
    String text = OdfXml.text(cell, new ArrayList<>()).strip();
    if (!text.isEmpty()) {
      return text;
    }
    for (String a : List.of("string-value", "value", "date-value", "time-value",
        "boolean-value")) {
      String v = attr(cell, OFFICE, a);
      if (!v.isEmpty()) {
        return v;
      }
    }
    return "";
  }
}
