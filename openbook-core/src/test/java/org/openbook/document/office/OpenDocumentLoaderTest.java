package org.openbook.document.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import org.openbook.document.Loaders;
import org.openbook.document.Section;

class OpenDocumentLoaderTest {

  private static final StructuredChunker CHUNKER = new StructuredChunker(ChunkerSettings.DEFAULT);

  @TempDir Path tmp;

  private static Chunk chunkContaining(Document doc, String needle) {
    return CHUNKER.chunk(doc).stream().filter(c -> c.raw().contains(needle)).findFirst()
        .orElseThrow(() -> new AssertionError("no chunk contains " + needle));
  }

  @Test
  void should_give_odt_chunks_heading_paths_lists_and_a_header_in_every_table_chunk()
      throws Exception {
    Path f = tmp.resolve("手册.odt");
    OpenDocumentSamples.odt(f, 120);
    Document doc = new OpenDocumentLoader().load(f, "hr/手册.odt").document();

    assertThat(doc.title()).isEqualTo("员工手册");
    assertThat(doc.meta()).containsEntry("format", "odt");
    assertThat(chunkContaining(doc, "日常管理").headingPath()).containsExactly("门店管理");
    List<Chunk> tableChunks = CHUNKER.chunk(doc).stream()
        .filter(c -> c.raw().contains("MD-30")).toList();
    assertThat(tableChunks).hasSizeGreaterThan(1); // 120 rows do not fit one chunk
    assertThat(tableChunks).allSatisfy(c -> {
      assertThat(c.raw()).startsWith("| 门店编号 | 城市 | 营业时间 | 联系电话 |");
      assertThat(c.headingPath()).containsExactly("门店管理", "门店目录");
    });
    assertThat(chunkContaining(doc, "MD-3120").raw()).contains("0571-8800-3120");

    Section list = doc.sections().stream().filter(s -> s.kind() == Section.Kind.LIST)
        .findFirst().orElseThrow();
    assertThat(list.headingPath()).containsExactly("门店管理", "开店流程");
    assertThat(doc.text().substring(list.start(), list.end())).isEqualTo(
        "1. 检查消防通道\n2. 打开收银系统\n  • 登录工号\n  • 核对备用金\n3. 开门迎客");
    // the footnote keeps its mark in place and its text right after, in the same section
    Chunk note = chunkContaining(doc, "节假日另行通知");
    assertThat(note.headingPath()).containsExactly("门店管理", "开店流程");
    assertThat(doc.text()).contains("营业时间以当地规定为准[注1]。").contains("[注1] 节假日另行通知。");
    // the page header and footer: once, under their own path
    Chunk margins = chunkContaining(doc, "澜岳智联 内部资料");
    assertThat(margins.headingPath()).containsExactly(WordLoader.HEADER_FOOTER);
    assertThat(margins.raw()).isEqualTo("澜岳智联 内部资料\n员工手册 2025 版");
    assertThat(doc.text().split("内部资料", -1)).hasSize(2);
  }

  @Test
  void should_read_ods_cells_as_displayed_with_the_sheets_own_row_numbers() throws Exception {
    Path f = tmp.resolve("门店.ods");
    OpenDocumentSamples.ods(f, 12);
    LoadResult r = new OpenDocumentLoader().load(f, "门店.ods");
    Document doc = r.document();

    // title row merged over 4 columns → second heading; header repeated at the table's top
    Chunk c = chunkContaining(doc, "MD-3001");
    assertThat(c.headingPath()).containsExactly("门店", "2025 门店名录");
    assertThat(c.raw()).startsWith("| 门店编号 | 城市 | 营业时间 | 联系电话 | 加盟费 |");
    assertThat(c.raw()).contains("| MD-3001 | 城市01 | 09:00-21:00 | 0571-8800-3001 | ¥2,600.00 |");
    // row 1 title, row 2 header, store i on row 2+i up to store 5 (row 7), 3 blank rows, so
    // store 12 on row 17; the 1,048,000 trailing blank rows are counted, never expanded
    assertThat(c.meta().get(StructuredChunker.CELL_RANGE)).matches("门店!A2:E\\d+");
    assertThat(doc.cells()).anySatisfy(cr -> {
      assertThat(cr.label()).isEqualTo("门店!A17:E17");
      assertThat(doc.text().substring(cr.start(), cr.end())).contains("MD-3012");
    });
    assertThat(doc.cells()).anySatisfy(cr -> assertThat(cr.label()).isEqualTo("门店!A7:E7"));
    assertThat(doc.cells()).noneSatisfy(cr -> assertThat(cr.label()).isEqualTo("门店!A8:E8"));
    // store 2 is on a hidden row; sheet 内部成本 is hidden
    assertThat(doc.text()).doesNotContain("MD-3002").doesNotContain("内部成本")
        .doesNotContain("ZQ-7781");
    assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("内部成本", "hidden"));
    assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("1 hidden row(s)"));
  }

  @Test
  void should_index_hidden_ods_sheets_and_rows_when_included() throws Exception {
    Path f = tmp.resolve("门店.ods");
    OpenDocumentSamples.ods(f, 4);
    LoadResult r = new OpenDocumentLoader(true).load(f, "门店.ods");

    assertThat(r.document().text()).contains("MD-3002").contains("ZQ-7781");
    assertThat(r.warnings()).isEmpty();
    assertThat(r.document().cells())
        .anySatisfy(cr -> assertThat(cr.label()).isEqualTo("内部成本!A2:B2"));
  }

  @Test
  void should_give_each_odp_slide_a_page_with_its_title_and_mark_notes() throws Exception {
    Path f = tmp.resolve("培训.odp");
    OpenDocumentSamples.odp(f);
    Document doc = new OpenDocumentLoader().load(f, "培训.odp").document();

    assertThat(doc.pages()).extracting(p -> p.page()).containsExactly(1, 2, 3);
    Chunk intro = chunkContaining(doc, "总部位于常州");
    assertThat(intro.page()).isEqualTo(1);
    assertThat(intro.headingPath()).containsExactly("公司介绍");
    Chunk table = chunkContaining(doc, "参观常州武进工厂");
    assertThat(table.page()).isEqualTo(2);
    assertThat(table.raw()).contains("| 时间 | 上午 | 下午 |");
    Chunk notes = chunkContaining(doc, "80 分及格");
    assertThat(notes.page()).isEqualTo(2);
    assertThat(notes.headingPath()).containsExactly("入职安排", SlidesLoader.NOTES);
    assertThat(notes.raw()).isEqualTo("安全考试 80 分及格。");
    assertThat(doc.text()).doesNotContain("<number>");
    // cited like a PowerPoint slide
    var cited = org.openbook.answer.Source.of(1,
        new org.openbook.retrieve.Hit(notes, 1, 0.9, 1, 1.0, 0.5, Double.NaN));
    assertThat(cited.location()).startsWith("培训.odp slide 2 › 入职安排");
    Chunk untitled = chunkContaining(doc, "带好工牌");
    assertThat(untitled.page()).isEqualTo(3);
    assertThat(untitled.headingPath()).containsExactly("第 3 张");
    assertThat(untitled.raw()).contains("• 带好工牌\n• 准时打卡");
  }

  @Test
  void should_report_truncated_encrypted_and_bomb_odf_files_with_their_reason() throws Exception {
    Path truncated = tmp.resolve("cut.odt");
    OpenDocumentSamples.truncatedOdt(truncated, 0.6);
    Path locked = tmp.resolve("locked.odt");
    OpenDocumentSamples.encryptedOdt(locked);
    Path bomb = tmp.resolve("bomb.ods");
    OpenDocumentSamples.zipBombOds(bomb, 64);
    Path notZip = tmp.resolve("text.odp");
    Files.writeString(notZip, "hello", StandardCharsets.UTF_8);
    OpenDocumentLoader loader = new OpenDocumentLoader();

    assertThatThrownBy(() -> loader.load(truncated, "cut.odt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageStartingWith("cut.odt: ");
    assertThatThrownBy(() -> loader.load(locked, "locked.odt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.ENCRYPTED));
    assertThatThrownBy(() -> loader.load(bomb, "bomb.ods"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE));
    assertThatThrownBy(() -> loader.load(notZip, "text.odp"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT));
  }

  @Test
  void should_register_the_new_extensions_in_the_default_loaders() {
    assertThat(Loaders.defaults().supportedExtensions()).contains("odt", "ods", "odp", "rtf");
  }
}
