package org.openbook.document;

import java.util.List;

/**
 * Where one stretch of {@link Document#text()} stands in a spreadsheet: a rectangle of cells on
 * one sheet, in the A1 notation a person types into Excel's name box ({@code 商用设备!A41:G46}).
 *
 * @param sheet     sheet name as shown on its tab
 * @param firstRow  1-based first row (as Excel numbers rows)
 * @param lastRow   1-based last row, {@code >= firstRow}
 * @param firstCol  0-based first column (0 = A)
 * @param lastCol   0-based last column, {@code >= firstCol}
 * @param start     0-based start offset in the document text (inclusive)
 * @param end       0-based end offset (exclusive), {@code > start}
 */
public record CellRange(String sheet, int firstRow, int lastRow, int firstCol, int lastCol,
    int start, int end) {

  public CellRange {
    if (firstRow < 1 || lastRow < firstRow || firstCol < 0 || lastCol < firstCol
        || start < 0 || end <= start) {
      throw new IllegalArgumentException("bad cell range " + sheet + " rows " + firstRow + ".."
          + lastRow + " cols " + firstCol + ".." + lastCol + " at [" + start + ", " + end + ")");
    }
  }

  /** A1 notation with the sheet, e.g. {@code 商用设备!A41:G46}; a single cell as {@code A5}. */
  public String label() {
    String a = column(firstCol) + firstRow;
    String b = column(lastCol) + lastRow;
    return sheet + "!" + (a.equals(b) ? a : a + ":" + b);
  }

  /**
   * The bounding range of the ranges that overlap {@code [from, to)} and lie on the sheet of the
   * first of them, as {@link #label()}; null when none overlaps.
   */
  public static String union(List<CellRange> ranges, int from, int to) {
    CellRange first = null;
    int r0 = 0;
    int r1 = 0;
    int c0 = 0;
    int c1 = 0;
    for (CellRange r : ranges) {
      if (r.end() <= from || r.start() >= to) {
        continue;
      }
      if (first == null) {
        first = r;
        r0 = r.firstRow;
        r1 = r.lastRow;
        c0 = r.firstCol;
        c1 = r.lastCol;
      } else if (r.sheet().equals(first.sheet())) {
        r0 = Math.min(r0, r.firstRow);
        r1 = Math.max(r1, r.lastRow);
        c0 = Math.min(c0, r.firstCol);
        c1 = Math.max(c1, r.lastCol);
      }
    }
    return first == null ? null
        : new CellRange(first.sheet(), r0, r1, c0, c1, from, Math.max(to, from + 1)).label();
  }

  /** Excel column letters for a 0-based index: 0 → A, 25 → Z, 26 → AA. */
  public static String column(int index) {
    StringBuilder sb = new StringBuilder();
    for (int n = index + 1; n > 0; n = (n - 1) / 26) {
      sb.insert(0, (char) ('A' + (n - 1) % 26));
    }
    return sb.toString();
  }
}
