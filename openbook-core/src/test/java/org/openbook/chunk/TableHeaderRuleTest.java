package org.openbook.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.Document;
import org.openbook.document.DocumentLoader;
import org.openbook.document.HtmlLoader;
import org.openbook.document.MarkdownLoader;
import org.openbook.document.office.OfficeSamples;
import org.openbook.document.office.SpreadsheetLoader;
import org.openbook.document.office.WordLoader;

/**
 * Bug case T11 and the table header rule for every table-bearing format: no chunk ends inside a
 * row, every chunk holding rows starts with the header, every data row is in exactly one chunk,
 * the header copy counts toward the budget.
 */
class TableHeaderRuleTest {

  private static final ChunkerSettings BUDGET = new ChunkerSettings(400, 80, 80);

  @TempDir Path tmp;

  private static String t11Markdown(int rows) {
    StringBuilder md = new StringBuilder("# 门店目录\n\n## 营业时间\n\n"
        + "| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n");
    for (int i = 1; i <= rows; i++) {
      md.append(String.format("| MD-%d | 城市%02d | 09:00-21:00 | 0571-8800-%d |\n",
          3000 + i, i, 3000 + i));
    }
    return md.toString();
  }

  @Test
  void t11_markdown_table_of_45_rows_repeats_header_and_delimiter_in_every_chunk()
      throws Exception {
    Path f = tmp.resolve("stores.md");
    Files.writeString(f, t11Markdown(45));
    List<Chunk> chunks = chunk(new MarkdownLoader(), f);

    assertHeaderRule(chunks, "| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n", 45);
    assertThat(chunks).allSatisfy(
        c -> assertThat(c.headingPath()).containsExactly("门店目录", "营业时间"));
    Chunk md3038 = chunks.stream().filter(c -> c.raw().contains("MD-3038")).findFirst()
        .orElseThrow();
    assertThat(md3038.raw()).contains("| MD-3038 | 城市38 | 09:00-21:00 | 0571-8800-3038 |");
  }

  @Test
  void markdown_table_of_120_rows_with_aligned_columns() throws Exception {
    StringBuilder md = new StringBuilder("# 价格\n\n| 型号 | 价格（元） |\n|:---|---:|\n");
    for (int i = 1; i <= 120; i++) {
      md.append("| SC-").append(4400 + i).append(" | ").append(i * 100).append(" |\n");
    }
    Path f = tmp.resolve("prices.md");
    Files.writeString(f, md.toString());

    assertHeaderRule(chunk(new MarkdownLoader(), f),
        "| 型号 | 价格（元） |\n|:---|---:|\n", 120);
  }

  @Test
  void html_table_of_60_rows_repeats_its_first_row() throws Exception {
    StringBuilder html = new StringBuilder("<html><body><h1>门店目录</h1><table>"
        + "<tr><th>门店编号</th><th>城市</th><th>营业时间</th><th>联系电话</th></tr>");
    for (int i = 1; i <= 60; i++) {
      html.append(String.format("<tr><td>MD-%d</td><td>城市%02d</td><td>09:00-21:00</td>"
          + "<td>0571-8800-%d</td></tr>", 3000 + i, i, 3000 + i));
    }
    Path f = tmp.resolve("stores.html");
    Files.writeString(f, html.append("</table></body></html>").toString());

    assertHeaderRule(chunk(new HtmlLoader(), f), "门店编号 | 城市 | 营业时间 | 联系电话\n", 60);
  }

  @Test
  void word_table_of_45_rows_repeats_its_header_row() throws Exception {
    Path f = tmp.resolve("stores.docx");
    OfficeSamples.docxWithTable(f, 45);
    List<Chunk> chunks = chunk(new WordLoader(), f);

    assertHeaderRule(chunks, "| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n", 45);
    assertThat(chunks).allSatisfy(
        c -> assertThat(c.headingPath()).containsExactly("门店目录", "营业时间"));
  }

  @Test
  void excel_sheet_of_80_rows_repeats_its_header_and_cites_the_rows_held() throws Exception {
    Path f = tmp.resolve("stores.xlsx");
    OfficeSamples.workbook(f, 80, true, false);
    List<Chunk> chunks = chunk(new SpreadsheetLoader(), f);

    assertHeaderRule(chunks, "| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n", 80);
    for (Chunk c : chunks) {
      // MD-30nn is on sheet row nn + 1; the range covers exactly the rows held
      List<Integer> held = java.util.regex.Pattern.compile("MD-30(\\d\\d)").matcher(c.raw())
          .results().map(m -> Integer.parseInt(m.group(1)) + 1).toList();
      int first = c.ordinal() == 0 ? 1 : held.get(0);
      assertThat(c.meta().get(StructuredChunker.CELL_RANGE))
          .isEqualTo("门店!A" + first + ":D" + held.get(held.size() - 1));
    }
  }

  @Test
  void one_row_per_chunk_cuts_a_long_table_into_header_plus_row_records() throws Exception {
    Path f = tmp.resolve("stores.md");
    Files.writeString(f, t11Markdown(12));
    Document doc = new MarkdownLoader().load(f, "stores.md").document();
    String header = "| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n";

    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(400, 80, 80, 1)).chunk(doc);

    assertThat(chunks).hasSize(12);
    for (int i = 0; i < 12; i++) {
      assertThat(chunks.get(i).raw()).isEqualTo(header + String.format(
          "| MD-%d | 城市%02d | 09:00-21:00 | 0571-8800-%d |", 3001 + i, i + 1, 3001 + i));
      assertThat(chunks.get(i).embedText()).startsWith("门店目录 > 营业时间\n| 门店编号 |");
    }
  }

  @Test
  void one_row_per_chunk_keeps_a_table_that_fits_in_one_chunk_whole() throws Exception {
    Path f = tmp.resolve("small.md");
    Files.writeString(f, t11Markdown(3));
    Document doc = new MarkdownLoader().load(f, "small.md").document();

    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(400, 80, 80, 1)).chunk(doc);

    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).raw()).contains("MD-3001", "MD-3002", "MD-3003");
  }

  @Test
  void one_row_per_chunk_cites_each_spreadsheet_row_on_its_own() throws Exception {
    Path f = tmp.resolve("stores.xlsx");
    OfficeSamples.workbook(f, 30, true, false);
    Document doc = new SpreadsheetLoader().load(f, "stores.xlsx").document();

    List<Chunk> chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc);

    Chunk md3020 = chunks.stream().filter(c -> c.raw().contains("MD-3020")).findFirst()
        .orElseThrow();
    // header on row 1, MD-3001 on row 2, so MD-3020 is on row 21
    assertThat(md3020.meta().get(StructuredChunker.CELL_RANGE)).isEqualTo("门店!A21:D21");
    assertThat(md3020.raw()).startsWith("| 门店编号 | 城市 | 营业时间 | 联系电话 |\n|---|---|---|---|\n")
        .doesNotContain("MD-3019").doesNotContain("MD-3021");
  }

  @Test
  void settings_id_names_the_row_limit_only_when_there_is_one() {
    assertThat(new ChunkerSettings(400, 80, 80).id()).isEqualTo("max=400,overlap=80,prefix=80");
    assertThat(ChunkerSettings.DEFAULT.id())
        .isEqualTo("max=400,overlap=80,prefix=80,tableRows=1");
  }

  private List<Chunk> chunk(DocumentLoader loader, Path f) throws Exception {
    Document doc = loader.load(f, f.getFileName().toString()).document();
    return new StructuredChunker(BUDGET).chunk(doc);
  }

  /**
   * Every chunk starts with {@code header}, is within budget, ends at a row end; the data rows
   * (lines other than the header copy) of all chunks are exactly {@code rows} distinct rows.
   */
  private static void assertHeaderRule(List<Chunk> chunks, String header, int rows) {
    assertThat(chunks).hasSizeGreaterThan(2);
    java.util.List<String> dataRows = new java.util.ArrayList<>();
    for (Chunk c : chunks) {
      assertThat(c.raw()).as("chunk %d", c.ordinal()).startsWith(header);
      assertThat(c.raw().length()).as("chunk %d length", c.ordinal())
          .isLessThanOrEqualTo(BUDGET.maxChars());
      for (String line : c.raw().substring(header.length()).split("\n")) {
        dataRows.add(line);
      }
    }
    assertThat(dataRows).doesNotHaveDuplicates().hasSize(rows);
    assertThat(dataRows).allSatisfy(l -> assertThat(l).matches(".*\\d( \\|)?$"));
  }
}
