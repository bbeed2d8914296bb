package org.openbook.answer;

import java.math.BigDecimal;
import java.util.List;

/**
 * A SUM over one column of rows selected from one table by {@link TableAggregation}.
 *
 * @param column    the summed column's name from its header, without a bracketed unit, e.g.
 *                  {@code 课时} or {@code 学费} (from {@code 学费（元）}), {@code Hours}
 * @param unit      the unit from the header's brackets ({@code 元}) or the common suffix of the
 *                  summed cells ({@code 24h} → {@code h}); empty for none
 * @param common    the values of the row-selecting columns that every selected row shares, in
 *                  column order, e.g. {@code [家电售后维修]}; may be empty
 * @param labels    per selected row, in table order, its values in the row-selecting columns that
 *                  differ between rows, joined by a space, e.g. {@code [入门, 进阶, 高级]}
 * @param operands  the summed cells verbatim, in table order; as many as {@code labels}, ≥ 2
 * @param total     the exact decimal sum of the operands
 * @param citations the numbers {@code n} of the sources holding the rows, ascending, ≥ 1
 * @param rows      where each summed row is, in table order; as many as {@code operands}
 */
public record TableSum(String column, String unit, List<String> common, List<String> labels,
    List<String> operands, BigDecimal total, List<Integer> citations, List<Row> rows) {

  /**
   * Where a summed row is quoted from.
   *
   * @param n    the number of the source holding it
   * @param unit its position among the quotable units of that source's text, from 0
   */
  public record Row(int n, int unit) {}

  public TableSum {
    rows = List.copyOf(rows);
    common = List.copyOf(common);
    labels = List.copyOf(labels);
    operands = List.copyOf(operands);
    citations = List.copyOf(citations);
    if (operands.size() < 2 || labels.size() != operands.size() || citations.isEmpty()
        || rows.size() != operands.size()) {
      throw new IllegalArgumentException("a sum needs >= 2 operands with one label each and a"
          + " citation, got " + operands.size() + " operands, " + labels.size() + " labels, "
          + citations.size() + " citations, " + rows.size() + " rows");
    }
  }

  /**
   * The statement without citation markers or end punctuation, in {@code lang}, e.g.
   * {@code 家电售后维修 入门、进阶、高级 的课时合计：24 + 36 + 48 = 108} or
   * {@code Total Hours of Repair Basic, Intermediate, Advanced: 10 + 20 + 30 = 60}.
   */
  public String statement(AnswerLanguage lang) {
    String sum = String.join(" + ", operands) + " = " + total.toPlainString()
        + (unit.isEmpty() ? "" : " " + unit);
    String which = String.join(" ", common);
    if (lang == AnswerLanguage.ZH) {
      which = (which.isEmpty() ? "" : which + " ") + String.join("、", labels);
      return which + " 的" + column + "合计：" + sum;
    }
    which = (which.isEmpty() ? "" : which + " ") + String.join(", ", labels);
    return "Total " + column + " of " + which + ": " + sum;
  }
}
