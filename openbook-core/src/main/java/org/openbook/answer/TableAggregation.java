package org.openbook.answer;

import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SUM aggregation over the rows of one table in the sources, for extractive answers to questions
 * such as {@code 家电售后维修从入门学到高级总共多少课时} or {@code how many hours in total from Basic
 * to Advanced}: the answer a reader would add up from the quoted rows. It is the SUM operator of
 * table question answering (Herzig et al., "TAPAS: Weakly Supervised Table Parsing via
 * Pre-training", ACL 2020, which selects cells and predicts an aggregation operator over them),
 * with the cell selection and the operator chosen by explicit rules instead of a model, so that
 * it only fires when the question leaves no doubt.
 *
 * <p>Tables are read as {@link PassageUnits} gives them: Markdown pipe tables, the form the
 * loaders write for Markdown, xlsx, docx and the other office formats
 * ({@code DocumentAssembler#table}), one {@link PassageUnits.Kind#TABLE_ROW} per body row with the
 * header row as its prefix. Rows of several sources are one table when they have the same source
 * file, heading path and header cells (the chunker repeats the header in front of every piece of
 * a long table); rows are ordered by chunk ordinal, then position.
 *
 * <p>A sum is made only when all of these hold, otherwise nothing ({@link #sums} is empty):
 * <ol>
 *   <li>the question has an aggregation cue ({@link #CUE}: 总共, 一共, 合计, 加起来, total,
 *       altogether, sum…);
 *   <li>the name of a column of the table occurs in the question (the header cell without a
 *       bracketed unit: {@code 学费（元）} is named by {@code 学费}); this is the summed column;
 *   <li>the rows are selected by the question's cell values: every other column with a cell value
 *       the question contains restricts the rows to the values mentioned; two mentioned values of
 *       one column joined by a range connector ({@link #RANGE}: 从A…到B, A到B, A至B, A~B, from A to
 *       B, A through B; at most {@link #MAX_RANGE_GAP} chars between them) stand for every
 *       distinct value of the column from A to B in table order. At least one column must select;
 *   <li>at least two rows are selected, and no two of them have the same values in all selecting
 *       columns (else a column the question does not pin down, such as a second course track,
 *       would be summed over silently);
 *   <li>the selected cells of the summed column are all numbers ({@link #NUMBER}: optional
 *       currency sign, thousands separators, decimals, a common unit suffix; no percentages);
 *   <li>a range over a table cut into several chunks has every chunk between its first and last
 *       row among the sources (no chunk ordinal missing), so no row in between is left out.
 * </ol>
 * A cell value counts as mentioned when it has at least {@link #MIN_VALUE_CHARS} letters or
 * digits and occurs in the question (NFKC, case ignored), not inside a longer Latin word or
 * number. Stateless; the sums are exact ({@link BigDecimal}).
 */
final class TableAggregation {

  /** Aggregation cues, Chinese and English. */
  static final Pattern CUE = Pattern.compile(
      "总共|一共|合计|总计|加起来|加在一起|累计|共计|总和|总额|"
          + "\\b(?:in total|total(?:s|led|ling)?|altogether|all together|sum(?:med)?|combined"
          + "|add(?:ed|s)? up)\\b",
      Pattern.CASE_INSENSITIVE);

  /** A range connector between two values of one column. */
  static final Pattern RANGE = Pattern.compile(
      "[到至~～〜—–]|\\s-\\s|\\b(?:to|through|thru|until|till)\\b", Pattern.CASE_INSENSITIVE);

  /** Most chars between the two values of a range ({@code 一直学到}, {@code  up to }). */
  static final int MAX_RANGE_GAP = 8;

  /** Fewest letters or digits of a cell value that can select rows (one Han char is too loose). */
  static final int MIN_VALUE_CHARS = 2;

  /** A currency sign a numeric cell may start with (regex). */
  static final String CURRENCY = "[¥￥$€£]";
  /** The number of a numeric cell, thousands separators allowed (regex, no groups). */
  static final String DECIMAL = "[+-]?(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d+)?";
  /** The unit suffix of a numeric cell, at most four letters (regex). */
  static final String UNIT = "\\p{L}{0,4}";

  /**
   * A numeric cell: currency sign, number, optional unit suffix (groups 1, 2, 3). The sum's
   * operands are such cells as written, so {@link SupportChecker} reads a written-out sum with
   * the same parts.
   */
  static final Pattern NUMBER = Pattern.compile(
      "(" + CURRENCY + ")?\\s*(" + DECIMAL + ")\\s*(" + UNIT + ")");

  /** A header cell with a bracketed unit: {@code 学费（元）}, {@code Price (USD)}. */
  private static final Pattern HEADER_UNIT =
      Pattern.compile("(.+?)\\s*[（(]\\s*([^（）()]{1,8}?)\\s*[)）]");

  private TableAggregation() {}

  /**
   * The sums {@code question} asks for over the first table of {@code sources} (in source rank
   * order) that yields any, one per named numeric column; empty when a condition above fails.
   *
   * @param question the user's question
   * @param sources  the numbered sources, as given to the generator
   */
  static List<TableSum> sums(String question, List<Source> sources) {
    String q = normalize(question);
    if (!CUE.matcher(q).find()) {
      return List.of();
    }
    for (Table t : tables(sources)) {
      List<TableSum> out = new ArrayList<>();
      for (int col = 0; col < t.header().size(); col++) {
        if (named(q, columnName(t.header().get(col)))) {
          TableSum s = sum(q, t, col);
          if (s != null) {
            out.add(s);
          }
        }
      }
      if (!out.isEmpty()) {
        return out;
      }
    }
    return List.of();
  }

  /** The sum of column {@code target} over the rows the question selects, or null. */
  private static TableSum sum(String q, Table t, int target) {
    int width = t.header().size();
    Map<Integer, Set<String>> allowed = new LinkedHashMap<>();
    boolean ranged = false;
    for (int col = 0; col < width; col++) {
      if (col == target) {
        continue;
      }
      List<String> values = t.distinct(col);
      Map<String, Integer> at = new LinkedHashMap<>();
      for (String v : values) {
        int pos = mention(q, v);
        if (pos >= 0) {
          at.put(v, pos);
        }
      }
      if (at.isEmpty()) {
        continue;
      }
      Set<String> keep = new HashSet<>(at.keySet());
      for (var a : at.entrySet()) {
        for (var b : at.entrySet()) {
          int gapStart = a.getValue() + normalize(a.getKey()).length();
          if (b.getValue() <= gapStart || b.getValue() - gapStart > MAX_RANGE_GAP
              || !RANGE.matcher(q.substring(gapStart, b.getValue())).find()) {
            continue;
          }
          int from = values.indexOf(a.getKey());
          int to = values.indexOf(b.getKey());
          keep.addAll(values.subList(Math.min(from, to), Math.max(from, to) + 1));
          ranged = true;
        }
      }
      allowed.put(col, keep);
    }
    if (allowed.isEmpty() || (ranged && !t.contiguous())) {
      return null;
    }
    List<Row> rows = new ArrayList<>();
    Set<List<String>> keys = new HashSet<>();
    for (Row r : t.rows()) {
      if (allowed.entrySet().stream().allMatch(e -> e.getValue().contains(r.cells()
          .get(e.getKey())))) {
        if (!keys.add(allowed.keySet().stream().map(c -> r.cells().get(c)).toList())) {
          return null; // two rows alike in every selecting column: the question is ambiguous
        }
        rows.add(r);
      }
    }
    if (rows.size() < 2) {
      return null;
    }
    BigDecimal total = BigDecimal.ZERO;
    String suffix = null;
    List<String> operands = new ArrayList<>();
    for (Row r : rows) {
      String cell = r.cells().get(target);
      Matcher m = NUMBER.matcher(Normalizer.normalize(cell, Normalizer.Form.NFKC));
      if (!m.matches() || (suffix != null && !suffix.equals(m.group(3)))) {
        return null;
      }
      suffix = m.group(3);
      total = total.add(new BigDecimal(m.group(2).replace(",", "")));
      operands.add(cell);
    }
    List<String> common = new ArrayList<>();
    List<Integer> varying = new ArrayList<>();
    for (int col : allowed.keySet()) {
      Set<String> seen = new HashSet<>();
      rows.forEach(r -> seen.add(r.cells().get(col)));
      if (seen.size() == 1) {
        common.add(rows.get(0).cells().get(col));
      } else {
        varying.add(col);
      }
    }
    List<String> labels = rows.stream().map(r -> String.join(" ",
        varying.stream().map(c -> r.cells().get(c)).toList())).toList();
    String header = t.header().get(target);
    Matcher unit = HEADER_UNIT.matcher(header);
    String unitText = unit.matches() ? unit.group(2) : suffix;
    List<Integer> cited = rows.stream().map(Row::n).distinct().sorted().toList();
    BigDecimal exact = total.stripTrailingZeros();
    return new TableSum(columnName(header), unitText, common, labels, operands,
        exact.scale() < 0 ? exact.setScale(0) : exact, cited,
        rows.stream().map(r -> new TableSum.Row(r.n(), r.position())).toList());
  }

  /** The header cell without a bracketed unit: {@code 学费（元）} → {@code 学费}. */
  static String columnName(String header) {
    Matcher m = HEADER_UNIT.matcher(header);
    return (m.matches() ? m.group(1) : header).strip();
  }

  /** Whether the question names the column (a Latin name also in the singular or plural). */
  private static boolean named(String q, String name) {
    String n = normalize(name);
    if (letters(n) < MIN_VALUE_CHARS) {
      return false;
    }
    if (n.codePoints().anyMatch(c -> Character.UnicodeScript.of(c)
        == Character.UnicodeScript.HAN)) {
      return q.contains(n);
    }
    String stem = n.endsWith("s") ? n.substring(0, n.length() - 1) : n;
    return Pattern.compile("(?<![\\p{IsLatin}\\d])" + Pattern.quote(stem)
        + "s?(?![\\p{IsLatin}\\d])").matcher(q).find();
  }

  /**
   * Where the question mentions cell {@code value}: the index of its first occurrence not inside
   * a longer Latin word or number, or -1 (also for values too short to select by).
   */
  private static int mention(String q, String value) {
    String v = normalize(value);
    if (letters(v) < MIN_VALUE_CHARS) {
      return -1;
    }
    for (int i = q.indexOf(v); i >= 0; i = q.indexOf(v, i + 1)) {
      int end = i + v.length();
      boolean before = i > 0 && latinOrDigit(q.codePointBefore(i))
          && latinOrDigit(v.codePointAt(0));
      boolean after = end < q.length() && latinOrDigit(q.codePointAt(end))
          && latinOrDigit(v.codePointBefore(v.length()));
      if (!before && !after) {
        return i;
      }
    }
    return -1;
  }

  private static boolean latinOrDigit(int cp) {
    return Character.isDigit(cp)
        || Character.UnicodeScript.of(cp) == Character.UnicodeScript.LATIN;
  }

  private static int letters(String s) {
    return (int) s.codePoints().filter(Character::isLetterOrDigit).count();
  }

  private static String normalize(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT).strip();
  }

  /** The tables of the sources, in order of their best-ranked source. */
  private static List<Table> tables(List<Source> sources) {
    Map<List<Object>, Table> tables = new LinkedHashMap<>();
    for (Source s : sources) {
      int ordinal = s.hit() == null ? -1 : s.hit().chunk().ordinal();
      List<PassageUnits.Unit> units = PassageUnits.of(s.text());
      for (int pos = 0; pos < units.size(); pos++) {
        PassageUnits.Unit u = units.get(pos);
        if (u.kind() != PassageUnits.Kind.TABLE_ROW || u.prefix().isEmpty()) {
          continue;
        }
        List<String> header = PassageUnits.cells(u.prefix());
        List<String> cells = PassageUnits.cells(u.text());
        if (cells.size() != header.size()) {
          continue; // a malformed row: its cells cannot be told apart by column
        }
        // Without a hit there is no chunk to place the source in: it is a table of its own.
        List<Object> key = s.hit() == null
            ? List.of(s.n(), u.block(), header)
            : List.of(s.source(), s.headingPath(), header, s.hit().chunk().docId());
        tables.computeIfAbsent(key, k -> new Table(header, new ArrayList<>()))
            .add(new Row(s.n(), ordinal, pos, cells));
      }
    }
    tables.values().forEach(t -> t.rows().sort(java.util.Comparator.comparingInt(Row::ordinal)
        .thenComparingInt(Row::position)));
    return List.copyOf(tables.values());
  }

  /** A body row: source number, chunk ordinal (-1 unknown), unit position, cells. */
  private record Row(int n, int ordinal, int position, List<String> cells) {}

  /** One table: its header cells and its rows (in table order once {@link #tables} returns). */
  private record Table(List<String> header, List<Row> rows) {

    void add(Row r) {
      // the same row twice (one chunk given twice) is one row
      if (rows.stream().noneMatch(o -> o.ordinal() == r.ordinal() && o.ordinal() >= 0
          && o.position() == r.position() && o.cells().equals(r.cells()))) {
        rows.add(r);
      }
    }

    /** Whether the rows' chunks have no gap in their ordinals. */
    boolean contiguous() {
      TreeSet<Integer> ordinals = new TreeSet<>();
      rows.forEach(r -> ordinals.add(r.ordinal()));
      return ordinals.last() - ordinals.first() + 1 == ordinals.size();
    }

    /** Distinct values of column {@code col} in table order. */
    List<String> distinct(int col) {
      List<String> out = new ArrayList<>();
      for (Row r : rows) {
        if (!out.contains(r.cells().get(col))) {
          out.add(r.cells().get(col));
        }
      }
      return out;
    }
  }
}
