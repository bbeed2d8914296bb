package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.DataFormatter;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.ss.usermodel.WorkbookFactory;
import org.apache.poi.ss.util.CellRangeAddress;
import org.openbook.document.Charsets;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.openbook.document.Section;

/**
 * Loads spreadsheets: Excel {@code .xlsx} and 97–2003 {@code .xls} with Apache POI, and
 * {@code .csv} with Apache Commons CSV (charset detected like text files).
 *
 * <p>One part per sheet, with the sheet name as heading. Cells read as a person sees them:
 * POI's {@link DataFormatter} applies the cell's number format ({@code ¥26,800.00},
 * {@code 2025-02-26}), and a formula cell gives its cached value (what Excel last computed) rather
 * than the formula. A leading row whose only content is one merged cell spanning several columns
 * (a title row) becomes the second heading ({@code [家用净化器, 2025 年 4 月版 …]}), not a table
 * row. The first remaining row is the header row; the rest are data rows, written as one Markdown
 * table that the chunker cuts between rows with the header repeated. Every row line carries its
 * cell range ({@link org.openbook.document.CellRange}), so a chunk cites {@code sheet!A12:G30}
 * with Excel's own row numbers.
 *
 * <p>Hidden sheets, hidden rows and hidden columns are left out unless
 * {@code includeHidden} (they often hold internal data, e.g. cost prices); each left-out sheet,
 * and the count of left-out rows and columns, is reported as a warning. Empty sheets give no part.
 * A CSV file is one sheet named after the file.
 */
public final class SpreadsheetLoader implements DocumentLoader {

  private final boolean includeHidden;
  private final LoadLimits limits;

  /**
   * @param includeHidden whether hidden sheets, rows and columns are indexed too
   * @param limits        inflated bytes and XML nodes one file may have
   */
  public SpreadsheetLoader(boolean includeHidden, LoadLimits limits) {
    this.includeHidden = includeHidden;
    this.limits = limits;
  }

  /** @param includeHidden whether hidden sheets, rows and columns are indexed too */
  public SpreadsheetLoader(boolean includeHidden) {
    this(includeHidden, LoadLimits.DEFAULTS);
  }

  /** Hidden sheets, rows and columns left out. */
  public SpreadsheetLoader() {
    this(false);
  }

  @Override
  public Set<String> extensions() {
    return Set.of("xlsx", "xls", "csv");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException ENCRYPTED for a password-protected workbook, TOO_LARGE for a zip bomb,
   *     CORRUPT when POI or the CSV parser cannot read it, EMPTY when no visible cell holds text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    String ext = OfficeFiles.extension(file);
    DocumentAssembler out = new DocumentAssembler();
    List<String> warnings = new ArrayList<>();
    if (ext.equals("csv")) {
      readCsv(raw.bytes(), source, RawFile.baseName(file), out);
    } else {
      OfficeFiles.check(raw.bytes(), source, "spreadsheet", limits);
      try (Workbook wb = WorkbookFactory.create(new ByteArrayInputStream(raw.bytes()))) {
        DataFormatter fmt = new DataFormatter(Locale.ROOT);
        fmt.setUseCachedValuesForFormulaCells(true);
        for (int i = 0; i < wb.getNumberOfSheets(); i++) {
          String name = wb.getSheetName(i);
          if (!includeHidden && (wb.isSheetHidden(i) || wb.isSheetVeryHidden(i))) {
            warnings.add("sheet '" + name + "' is hidden: not indexed (ingest.hiddenSheets: "
                + "include to index it)");
            continue;
          }
          readSheet(wb.getSheetAt(i), fmt, out, warnings);
        }
      } catch (IOException | RuntimeException e) {
        throw OfficeFiles.failure(source, "spreadsheet", e);
      }
    }
    if (out.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text in any "
          + (includeHidden ? "" : "visible ") + "sheet");
    }
    Document doc = out.build(source, RawFile.baseName(file), Map.of("format", ext), raw.sha256());
    return new LoadResult(doc, warnings);
  }

  private void readSheet(Sheet sheet, DataFormatter fmt, DocumentAssembler out,
      List<String> warnings) {
    String name = sheet.getSheetName();
    int firstCol = Integer.MAX_VALUE;
    int lastCol = -1;
    int hiddenRows = 0;
    List<Row> rows = new ArrayList<>();
    for (Row row : sheet) {
      if (!includeHidden && row.getZeroHeight()) {
        if (hasText(row, fmt)) {
          hiddenRows++;
        }
        continue;
      }
      if (row.getFirstCellNum() < 0 || !hasText(row, fmt)) {
        continue;
      }
      rows.add(row);
      firstCol = Math.min(firstCol, row.getFirstCellNum());
      lastCol = Math.max(lastCol, row.getLastCellNum() - 1);
    }
    if (rows.isEmpty()) {
      return;
    }
    List<Integer> cols = new ArrayList<>();
    int hiddenCols = 0;
    for (int c = firstCol; c <= lastCol; c++) {
      if (!includeHidden && sheet.isColumnHidden(c)) {
        hiddenCols++;
      } else {
        cols.add(c);
      }
    }
    if (hiddenRows > 0 || hiddenCols > 0) {
      warnings.add("sheet '" + name + "': " + hiddenRows + " hidden row(s) and " + hiddenCols
          + " hidden column(s) not indexed");
    }
    if (cols.isEmpty()) {
      return;
    }
    List<String> path = new ArrayList<>(List.of(name));
    List<Row> titles = new ArrayList<>();
    int r = 0;
    while (r < rows.size() - 1 && isTitleRow(sheet, rows.get(r), rows.get(r + 1), fmt)) {
      path.add(titleText(rows.get(r), fmt));
      titles.add(rows.get(r));
      r++;
    }
    out.path(path);
    // columns blank in every table row (e.g. a margin column left of the data) are left out
    List<Row> tableRows = rows.subList(r, rows.size());
    cols.removeIf(c -> tableRows.stream().allMatch(
        row -> row.getCell(c) == null || fmt.formatCellValue(row.getCell(c)).isBlank()));
    if (cols.isEmpty()) {
      return;
    }
    for (Row t : titles) {
      int[] span = out.block(Section.Kind.PARAGRAPH, titleText(t, fmt));
      if (span != null) {
        out.cells(name, t.getRowNum() + 1, t.getRowNum() + 1, cols.get(0),
            cols.get(cols.size() - 1), span);
      }
    }
    List<List<String>> table = new ArrayList<>();
    List<Integer> rowNumbers = new ArrayList<>();
    for (Row row : rows.subList(r, rows.size())) {
      List<String> cells = new ArrayList<>();
      for (int c : cols) {
        Cell cell = row.getCell(c);
        cells.add(cell == null ? "" : fmt.formatCellValue(cell));
      }
      table.add(cells);
      rowNumbers.add(row.getRowNum() + 1);
    }
    List<int[]> spans = out.table(table, 1);
    for (int i = 0; i < spans.size(); i++) {
      if (spans.get(i) != null) {
        out.cells(name, rowNumbers.get(i), rowNumbers.get(i), cols.get(0),
            cols.get(cols.size() - 1), spans.get(i));
      }
    }
  }

  /**
   * A row whose only text is in one cell that is merged across two or more columns, or that is
   * followed by a row with text in two or more cells (a title typed above a table).
   */
  private static boolean isTitleRow(Sheet sheet, Row row, Row next, DataFormatter fmt) {
    int withText = 0;
    Cell only = null;
    for (Cell c : row) {
      if (!fmt.formatCellValue(c).isBlank()) {
        withText++;
        only = c;
      }
    }
    if (withText != 1) {
      return false;
    }
    int nextWithText = 0;
    for (Cell c : next) {
      if (!fmt.formatCellValue(c).isBlank()) {
        nextWithText++;
      }
    }
    if (nextWithText >= 2) {
      return true;
    }
    for (CellRangeAddress m : sheet.getMergedRegions()) {
      if (m.isInRange(only) && m.getLastColumn() > m.getFirstColumn()) {
        return true;
      }
    }
    return false;
  }

  private static String titleText(Row row, DataFormatter fmt) {
    for (Cell c : row) {
      String v = fmt.formatCellValue(c);
      if (!v.isBlank()) {
        return DocumentAssembler.oneLine(v);
      }
    }
    return "";
  }

  private static boolean hasText(Row row, DataFormatter fmt) {
    for (Cell c : row) {
      if (!fmt.formatCellValue(c).isBlank()) {
        return true;
      }
    }
    return false;
  }

  private static void readCsv(byte[] bytes, String source, String sheet, DocumentAssembler out)
      throws LoadException {
    String text = Charsets.stripBom(Charsets.decode(bytes, source).text());
    List<List<String>> table = new ArrayList<>();
    List<Integer> rowNumbers = new ArrayList<>();
    int width = 0;
    try (CSVParser parser = CSVParser.parse(new StringReader(text), CSVFormat.DEFAULT)) {
      int line = 0;
      for (CSVRecord rec : parser) {
        line++;
        List<String> cells = rec.toList();
        if (cells.stream().allMatch(String::isBlank)) {
          continue;
        }
        table.add(cells);
        rowNumbers.add(line);
        width = Math.max(width, cells.size());
      }
    } catch (IOException | RuntimeException e) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": cannot parse CSV (" + e.getMessage() + ")", e);
    }
    out.path(List.of(sheet));
    List<int[]> spans = out.table(table, 1);
    for (int i = 0; i < spans.size(); i++) {
      if (spans.get(i) != null) {
        out.cells(sheet, rowNumbers.get(i), rowNumbers.get(i), 0, Math.max(0, width - 1),
            spans.get(i));
      }
    }
  }
}
