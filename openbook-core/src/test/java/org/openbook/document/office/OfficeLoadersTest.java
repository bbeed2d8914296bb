package org.openbook.document.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.Document;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.testing.SharedData;

class OfficeLoadersTest {

  private static final String OFFICE = "fixtures/office/docs/";
  private static final StructuredChunker CHUNKER = new StructuredChunker(ChunkerSettings.DEFAULT);

  @TempDir Path tmp;

  private static Chunk chunkContaining(Document doc, String needle) {
    return CHUNKER.chunk(doc).stream().filter(c -> c.raw().contains(needle)).findFirst()
        .orElseThrow(() -> new AssertionError("no chunk contains " + needle));
  }

  @Test
  void should_give_docx_chunks_the_heading_path_and_keep_the_footnote_in_its_section()
      throws Exception {
    Path f = SharedData.require(OFFICE + "差旅报销制度.docx");
    Document doc = new WordLoader().load(f, "差旅报销制度.docx").document();

    assertThat(doc.title()).isEqualTo("澜岳智联科技有限公司差旅报销制度");
    Chunk note = chunkContaining(doc, "上浮 30%，须在出差申请中注明会议名称");
    assertThat(note.headingPath()).containsExactly("三、费用标准", "3.1 住宿费上限");
    assertThat(note.raw()).contains("[注1]");
    assertThat(chunkContaining(doc, "每公里 0.8 元").headingPath())
        .containsExactly("二、出差审批", "2.2 交通与住宿预订", "2.2.1 交通工具");
    assertThat(chunkContaining(doc, "每公里 0.8 元").raw()).contains("• 自驾出差须事先获批");
    assertThat(chunkContaining(doc, "直属上级审批").raw()).contains("2. 直属上级审批");
    Chunk urumqi = chunkContaining(doc, "| 32 | 乌鲁木齐 | 380 | 530 | 740 |");
    assertThat(urumqi.raw()).startsWith("| 序号 | 城市 | 一般员工 | 部门经理 | 总监及以上 | 备注 |");
  }

  @Test
  void should_read_the_legacy_doc_with_headings_and_table() throws Exception {
    Path f = SharedData.require(OFFICE + "legacy/差旅报销制度-旧版.doc");
    Document doc = new WordLoader().load(f, "legacy/差旅报销制度-旧版.doc").document();

    assertThat(doc.text()).contains("TR-2021-03");
    Chunk shenzhen = chunkContaining(doc, "| 4 | 深圳 | 500 | 690 | 940 |");
    assertThat(shenzhen.headingPath()).containsExactly("三、费用标准", "3.1 住宿费上限");
    assertThat(shenzhen.raw()).startsWith("| 序号 | 城市 |");
  }

  @Test
  void should_read_xlsx_cells_as_displayed_and_cite_sheet_ranges() throws Exception {
    Path f = SharedData.require(OFFICE + "2025产品价格表.xlsx");
    LoadResult r = new SpreadsheetLoader().load(f, "2025产品价格表.xlsx");
    Document doc = r.document();

    assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("内部成本", "hidden"));
    assertThat(doc.text()).doesNotContain("内部成本").doesNotContain("45714");
    Chunk k900 = chunkContaining(doc, "SC-4452");
    assertThat(k900.raw()).contains("¥26,800.00").startsWith("| 型号 |");
    assertThat(k900.headingPath()).first().isEqualTo("商用设备");
    assertThat(k900.meta().get(StructuredChunker.CELL_RANGE)).matches("商用设备!A\\d+:G\\d+");
    int[] rows = rowsOf(k900.meta().get(StructuredChunker.CELL_RANGE));
    // SC-4452 is on row 43 of 商用设备 (fixture README, o17); one row per chunk cites it alone
    assertThat(rows).containsExactly(43, 43);
    assertThat(chunkContaining(doc, "SC-4437").raw()).contains("2025-02-26");
    // the SUM formula's cached value, formatted like its neighbours
    assertThat(chunkContaining(doc, "建议零售价合计").raw()).contains("96,958");
    Chunk first = CHUNKER.chunk(doc).get(0);
    assertThat(first.headingPath()).hasSize(2);
    assertThat(first.headingPath().get(1)).contains("2025 年 4 月版");
  }

  @Test
  void should_write_a_merged_title_row_once_into_the_text_and_cite_its_row() throws Exception {
    Path f = tmp.resolve("titled.xlsx");
    try (var wb = new org.apache.poi.xssf.usermodel.XSSFWorkbook()) {
      var sheet = wb.createSheet("Feuil1");
      sheet.createRow(0).createCell(0).setCellValue("Store hours - summer 2025 edition");
      sheet.addMergedRegion(new org.apache.poi.ss.util.CellRangeAddress(0, 0, 0, 2));
      String[][] rows = {{"Store", "Opens", "Closes"}, {"Lyon", "09:00", "19:00"},
          {"Nice", "10:00", "20:00"}};
      for (int r = 0; r < rows.length; r++) {
        var row = sheet.createRow(r + 2); // a blank row 2 between title and table
        for (int c = 0; c < 3; c++) {
          row.createCell(c).setCellValue(rows[r][c]);
        }
      }
      try (var os = java.nio.file.Files.newOutputStream(f)) {
        wb.write(os);
      }
    }
    Document doc = new SpreadsheetLoader().load(f, "titled.xlsx").document();

    String title = "Store hours - summer 2025 edition";
    assertThat(doc.text().indexOf(title)).isGreaterThanOrEqualTo(0)
        .isEqualTo(doc.text().lastIndexOf(title));
    List<Chunk> chunks = CHUNKER.chunk(doc);
    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).raw()).startsWith(title + "\n\n| Store | Opens | Closes |");
    assertThat(chunks.get(0).headingPath()).containsExactly("Feuil1", title);
    assertThat(chunks.get(0).meta().get(StructuredChunker.CELL_RANGE)).isEqualTo("Feuil1!A1:C5");
  }

  @Test
  void should_read_the_legacy_xls_the_same_way() throws Exception {
    Path f = SharedData.require(OFFICE + "legacy/2025产品价格表-旧版.xls");
    Document doc = new SpreadsheetLoader().load(f, "x.xls").document();

    assertThat(chunkContaining(doc, "ZQ-7781").raw()).contains("¥2,599.00");
    assertThat(doc.text()).doesNotContain("ZQ-7790");
  }

  @Test
  void should_give_each_slide_a_page_and_mark_speaker_notes() throws Exception {
    Path f = SharedData.require(OFFICE + "新员工入职培训.pptx");
    Document doc = new SlidesLoader().load(f, "新员工入职培训.pptx").document();

    assertThat(doc.pages()).hasSize(8);
    Chunk notes = chunkContaining(doc, "80 分及格");
    assertThat(notes.page()).isEqualTo(3);
    assertThat(notes.headingPath()).containsExactly("入职第一周安排", SlidesLoader.NOTES);
    Chunk table = chunkContaining(doc, "参观常州武进工厂");
    assertThat(table.page()).isEqualTo(3);
    assertThat(table.raw()).contains("| 时间 | 上午 | 下午 |");
  }

  @Test
  void should_skip_hidden_rows_columns_and_sheets_unless_included() throws Exception {
    Path f = tmp.resolve("stores.xlsx");
    OfficeSamples.workbook(f, 10, true, true);

    LoadResult hidden = new SpreadsheetLoader().load(f, "stores.xlsx");
    assertThat(hidden.document().text()).doesNotContain("MD-3002").doesNotContain("0571-8800")
        .doesNotContain("采购成本").contains("MD-3003");
    assertThat(hidden.warnings()).containsExactly(
        "sheet '门店': 1 hidden row(s) and 1 hidden column(s) not indexed",
        "sheet '内部' is hidden: not indexed (ingest.hiddenSheets: include to index it)");

    LoadResult all = new SpreadsheetLoader(true).load(f, "stores.xlsx");
    assertThat(all.document().text()).contains("MD-3002", "0571-8800-3002", "采购成本 646");
    assertThat(all.warnings()).isEmpty();
  }

  @Test
  void should_read_csv_as_one_sheet_with_row_ranges() throws Exception {
    Path f = tmp.resolve("门店.csv");
    StringBuilder csv = new StringBuilder();
    for (List<String> row : OfficeSamples.storeRows(40)) {
      csv.append(String.join(",", row)).append("\r\n");
    }
    java.nio.file.Files.writeString(f, csv.toString(), java.nio.charset.Charset.forName("GBK"));
    Document doc = new SpreadsheetLoader().load(f, "门店.csv").document();

    Chunk c = chunkContaining(doc, "MD-3038");
    assertThat(c.raw()).startsWith("| 门店编号 | 城市 | 营业时间 | 联系电话 |");
    int[] rows = rowsOf(c.meta().get(StructuredChunker.CELL_RANGE));
    assertThat(rows[0]).isLessThanOrEqualTo(39);
    assertThat(rows[1]).isGreaterThanOrEqualTo(39); // MD-3038 is on CSV line 39
  }

  @Test
  void should_report_a_password_protected_xlsx_as_encrypted() throws Exception {
    Path f = tmp.resolve("locked.xlsx");
    OfficeSamples.encryptedXlsx(f);

    assertThatThrownBy(() -> new SpreadsheetLoader().load(f, "locked.xlsx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.ENCRYPTED))
        .hasMessageContaining("locked.xlsx").hasMessageContaining("password");
  }

  @Test
  void should_refuse_a_zip_bomb_named_xlsx_within_bounded_memory() throws Exception {
    Path f = tmp.resolve("bomb.xlsx");
    OfficeSamples.zipBombXlsx(f, 64);

    assertThatThrownBy(() -> new SpreadsheetLoader().load(f, "bomb.xlsx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isIn(LoadException.Reason.TOO_LARGE,
                LoadException.Reason.CORRUPT))
        .hasMessageContaining("bomb.xlsx");
  }

  @Test
  void should_report_a_truncated_docx_as_corrupt() throws Exception {
    Path f = tmp.resolve("cut.docx");
    OfficeSamples.truncatedDocx(f, 0.6);

    assertThatThrownBy(() -> new WordLoader().load(f, "cut.docx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageContaining("cut.docx");
  }

  @Test
  void should_report_a_pptx_of_pictures_only_as_empty() throws Exception {
    Path f = tmp.resolve("pictures.pptx");
    OfficeSamples.picturesOnlyPptx(f);

    assertThatThrownBy(() -> new SlidesLoader().load(f, "pictures.pptx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.EMPTY))
        .hasMessageContaining("2 slide(s)");
  }

  /** {@code [first, last]} row of a label such as {@code 商用设备!A41:G46}. */
  static int[] rowsOf(String label) {
    var m = java.util.regex.Pattern.compile("![A-Z]+(\\d+)(?::[A-Z]+(\\d+))?$").matcher(label);
    assertThat(m.find()).as(label).isTrue();
    int a = Integer.parseInt(m.group(1));
    return new int[] {a, m.group(2) == null ? a : Integer.parseInt(m.group(2))};
  }
}
