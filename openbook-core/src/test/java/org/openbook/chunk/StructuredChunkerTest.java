package org.openbook.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.document.Document;
import org.openbook.document.PageSpan;
import org.openbook.document.Section;
import org.openbook.document.Section.Kind;

class StructuredChunkerTest {

  private static final String SOURCE = "ops/guide.md";

  /** Builds a document whose sections are given as (kind, path, exact section text) triples. */
  private static final class DocBuilder {
    private final StringBuilder text = new StringBuilder();
    private final List<Section> sections = new ArrayList<>();
    private final List<PageSpan> pages = new ArrayList<>();
    private String title = "运维手册";

    DocBuilder title(String t) {
      title = t;
      return this;
    }

    /** Appends literal text that belongs to no section (headings, blank lines). */
    DocBuilder gap(String s) {
      text.append(s);
      return this;
    }

    DocBuilder section(Kind kind, List<String> path, String body) {
      int start = text.length();
      text.append(body);
      sections.add(new Section(kind, path, start, text.length()));
      return this;
    }

    /** Marks everything appended since the previous page as the next page. */
    DocBuilder endPage() {
      int start = pages.isEmpty() ? 0 : pages.get(pages.size() - 1).end();
      pages.add(new PageSpan(pages.size() + 1, start, text.length()));
      return this;
    }

    Document build() {
      return new Document(SOURCE, SOURCE, title, text.toString(), sections, pages,
          Map.of("dept", "IT"), "hash");
    }
  }

  private static List<String> raws(List<Chunk> chunks) {
    return chunks.stream().map(Chunk::raw).toList();
  }

  private static void assertOffsetsExact(Document doc, List<Chunk> chunks) {
    for (Chunk c : chunks) {
      int copy = Integer.parseInt(c.meta().getOrDefault(StructuredChunker.TABLE_HEADER_CHARS, "0"));
      assertThat(doc.text().substring(c.startOffset(), c.endOffset()))
          .isEqualTo(c.raw().substring(copy));
    }
  }

  @Test
  void should_pack_sections_under_one_heading_with_the_blank_line_between_them() {
    Document doc = new DocBuilder()
        .gap("# 备份\n\n")
        .section(Kind.PARAGRAPH, List.of("备份"), "系统每晚两点自动备份。")
        .gap("\n\n")
        .section(Kind.PARAGRAPH, List.of("备份"), "备份文件保留三十天。")
        .build();
    List<Chunk> chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc);

    assertThat(raws(chunks)).containsExactly("系统每晚两点自动备份。\n\n备份文件保留三十天。");
    Chunk c = chunks.get(0);
    assertThat(c.embedText()).isEqualTo("运维手册 > 备份\n系统每晚两点自动备份。\n\n备份文件保留三十天。");
    assertThat(c.id()).isEqualTo("ops/guide.md#0");
    assertThat(c.docId()).isEqualTo(SOURCE);
    assertThat(c.ordinal()).isZero();
    assertThat(c.headingPath()).containsExactly("备份");
    assertThat(c.page()).isZero();
    assertThat(c.startOffset()).isEqualTo(6);
    assertThat(c.meta()).containsExactlyInAnyOrderEntriesOf(
        Map.of("dept", "IT", "source", SOURCE, "title", "运维手册"));
    assertOffsetsExact(doc, chunks);
  }

  @Test
  void should_never_cross_a_heading_path_change() {
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of("部署指南", "配置"), "编辑配置文件。")
        .gap("\n")
        .section(Kind.PARAGRAPH, List.of("部署指南", "回滚"), "执行回滚脚本。")
        .gap("\n")
        .section(Kind.PARAGRAPH, List.of("部署指南", "配置"), "再检查一次。")
        .build();
    List<Chunk> chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc);

    assertThat(raws(chunks)).containsExactly("编辑配置文件。", "执行回滚脚本。", "再检查一次。");
    assertThat(chunks).extracting(Chunk::headingLabel)
        .containsExactly("部署指南 > 配置", "部署指南 > 回滚", "部署指南 > 配置");
    assertThat(chunks).extracting(Chunk::id)
        .containsExactly("ops/guide.md#0", "ops/guide.md#1", "ops/guide.md#2");
  }

  @Test
  void should_skip_the_title_when_it_equals_the_first_heading() {
    Document doc = new DocBuilder().title("部署指南")
        .section(Kind.PARAGRAPH, List.of("部署指南", "配置"), "编辑配置文件。")
        .build();
    assertThat(new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc).get(0).embedText())
        .isEqualTo("部署指南 > 配置\n编辑配置文件。");
  }

  @Test
  void should_use_the_title_alone_before_the_first_heading() {
    Document doc = new DocBuilder().section(Kind.PARAGRAPH, List.of(), "前言。").build();
    assertThat(new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc).get(0).embedText())
        .isEqualTo("运维手册\n前言。");
  }

  @Test
  void should_shorten_a_long_prefix_keeping_title_and_innermost_heading() {
    assertThat(StructuredChunker.prefix("手册", List.of("第一部分", "第二章", "第三节"), 80))
        .isEqualTo("手册 > 第一部分 > 第二章 > 第三节");
    assertThat(StructuredChunker.prefix("手册", List.of("第一部分", "第二章", "第三节"), 14))
        .isEqualTo("手册 > … > 第三节");
    assertThat(StructuredChunker.prefix("手册", List.of("第一部分", "第二章", "第三节"), 8))
        .isEqualTo("手册");
    assertThat(StructuredChunker.prefix("很长的标题名字超过限制", List.of("节"), 5)).isEqualTo("很长的标…");
    assertThat(StructuredChunker.prefix("手册", List.of("节"), 0)).isEmpty();
    assertThat(StructuredChunker.prefix("", List.of(), 80)).isEmpty();
  }

  @Test
  void should_omit_the_line_break_when_there_is_no_prefix() {
    Document doc = new DocBuilder().title("").section(Kind.PARAGRAPH, List.of(), "正文。").build();
    assertThat(new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc).get(0).embedText())
        .isEqualTo("正文。");
  }

  @Test
  void should_split_a_long_paragraph_by_sentences_with_whole_sentence_overlap() {
    String text = "系统每晚两点自动备份。备份文件保留三十天！需要恢复怎么办？请提交工单。";
    Document doc = new DocBuilder().section(Kind.PARAGRAPH, List.of("备份"), text).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(20, 8, 80)).chunk(doc);

    assertThat(raws(chunks))
        .containsExactly("系统每晚两点自动备份。", "备份文件保留三十天！需要恢复怎么办？", "需要恢复怎么办？请提交工单。");
    assertThat(chunks).extracting(Chunk::startOffset).containsExactly(0, 11, 21);
    assertOffsetsExact(doc, chunks);
  }

  @Test
  void should_keep_a_code_block_that_fits_whole_in_one_chunk() {
    String code = "```bash\n# 设置端口\nexport PORT=8080\n```";
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of("部署指南", "配置"), "编辑配置文件：")
        .gap("\n")
        .section(Kind.CODE, List.of("部署指南", "配置"), code)
        .build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(50, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly("编辑配置文件：\n" + code);
  }

  @Test
  void should_start_a_new_chunk_rather_than_cut_a_code_block_that_fits_alone() {
    String code = "```\nline one\nline two\n```";
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of(), "一段比较长的说明文字。")
        .gap("\n\n")
        .section(Kind.CODE, List.of(), code)
        .build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(30, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly("一段比较长的说明文字。", code);
  }

  @Test
  void should_split_an_over_long_code_block_only_at_line_ends() {
    String code = "a = 1\n    b = 2\nc = 3\nd = 4\n";
    Document doc = new DocBuilder().section(Kind.CODE, List.of(), code).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(16, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly("a = 1\n    b = 2", "c = 3\nd = 4");
    assertOffsetsExact(doc, chunks);
  }

  @Test
  void should_hard_split_a_single_code_line_longer_than_the_budget() {
    String code = "x".repeat(25) + "\nshort\n";
    Document doc = new DocBuilder().section(Kind.CODE, List.of(), code).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(10, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly("x".repeat(10), "x".repeat(10), "xxxxx", "short");
  }

  @Test
  void should_start_every_table_piece_with_the_header_rows_counted_in_the_budget() {
    String header = "| 参数 | 含义 |\n|---|---|\n";
    String rows = "| port | 端口 |\n| host | 主机 |\n| user | 用户 |\n";
    Document doc = new DocBuilder().section(Kind.TABLE, List.of("配置"), header + rows).build();
    // header copy (22 chars) + one row (13) = 35 <= 44; two rows would make 49
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(44, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly(
        "| 参数 | 含义 |\n|---|---|\n| port | 端口 |",
        header + "| host | 主机 |",
        header + "| user | 用户 |");
    assertThat(chunks.get(1).embedText()).isEqualTo("运维手册 > 配置\n" + header + "| host | 主机 |");
    assertThat(chunks.get(0).meta()).doesNotContainKey(StructuredChunker.TABLE_HEADER_CHARS);
    assertThat(chunks.get(1).meta()).containsEntry(StructuredChunker.TABLE_HEADER_CHARS, "22");
    assertThat(chunks).allSatisfy(c -> assertThat(c.raw().length()).isLessThanOrEqualTo(44));
    assertOffsetsExact(doc, chunks);
  }

  @Test
  void should_repeat_two_header_rows_above_the_delimiter() {
    String header = "| 城市 | 一般员工 |\n| (元) | (每晚) |\n|---|---|\n";
    String rows = "| 北京 | 600 |\n| 上海 | 600 |\n| 深圳 | 550 |\n| 广州 | 550 |\n";
    Document doc = new DocBuilder().title("").section(Kind.TABLE, List.of(), header + rows).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(80, 0, 80)).chunk(doc);

    assertThat(chunks).hasSize(2);
    assertThat(chunks).allSatisfy(c -> assertThat(c.raw()).startsWith(header));
    assertThat(String.join("\n", raws(chunks))).contains("| 北京 | 600 |", "| 上海 | 600 |",
        "| 深圳 | 550 |", "| 广州 | 550 |");
  }

  @Test
  void should_split_a_long_list_between_items() {
    String list = "- 第一项\n- 第二项\n- 第三项\n";
    Document doc = new DocBuilder().section(Kind.LIST, List.of(), list).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(12, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly("- 第一项\n- 第二项", "- 第三项");
  }

  @Test
  void should_not_merge_sections_from_different_pages() {
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of(), "Onboarding: badge pickup at the front desk.")
        .gap("\n").endPage()
        .section(Kind.PARAGRAPH, List.of(), "Attendance: core hours are 10:00-16:00.")
        .gap("\n").endPage()
        .section(Kind.PARAGRAPH, List.of(), "Expenses: submit receipts within 30 days.")
        .endPage()
        .build();
    List<Chunk> chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc);

    assertThat(chunks).extracting(Chunk::page).containsExactly(1, 2, 3);
    assertThat(chunks.get(1).raw()).contains("core hours");
    assertThat(chunks).allSatisfy(c -> assertThat(c.meta()).doesNotContainKey("page_end"));
  }

  @Test
  void should_record_the_end_page_of_a_section_that_spans_a_page_break() {
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of(), "Page one text.\nPage two text.")
        .build();
    Document paged = new Document(doc.id(), doc.source(), doc.title(), doc.text(),
        doc.sections(), List.of(new PageSpan(1, 0, 15), new PageSpan(2, 15, 29)), doc.meta(),
        doc.contentHash());
    Chunk c = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(paged).get(0);

    assertThat(c.page()).isEqualTo(1);
    assertThat(c.meta()).containsEntry(StructuredChunker.PAGE_END, "2");
  }

  @Test
  void should_produce_no_chunk_for_whitespace_only_sections() {
    Document doc = new DocBuilder()
        .section(Kind.PARAGRAPH, List.of(), "  \n\n ")
        .section(Kind.PARAGRAPH, List.of(), "正文。")
        .section(Kind.CODE, List.of(), "\n\n")
        .build();
    List<Chunk> chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc);

    assertThat(raws(chunks)).containsExactly("正文。");
    assertThat(chunks.get(0).id()).isEqualTo("ops/guide.md#0");
  }

  @Test
  void should_split_further_when_embed_text_exceeds_the_token_limit() {
    String text = "第一句话很短。第二句话也很短。第三句话还是很短。第四句话依旧很短。";
    Document doc = new DocBuilder().section(Kind.PARAGRAPH, List.of("说明"), text).build();
    ChunkerSettings settings = new ChunkerSettings(400, 0, 80);

    assertThat(new StructuredChunker(settings).chunk(doc)).hasSize(1);

    List<Chunk> chunks = new StructuredChunker(settings, s -> s.length() * 2, 50).chunk(doc);
    // prefix "运维手册 > 说明\n" is 10 chars = 20 tokens, leaving 15 chars of raw per chunk
    assertThat(raws(chunks)).containsExactly("第一句话很短。第二句话也很短。", "第三句话还是很短。", "第四句话依旧很短。");
    assertThat(chunks).allSatisfy(c -> assertThat(c.embedText().length() * 2).isLessThanOrEqualTo(50));
    assertOffsetsExact(doc, chunks);
  }

  @Test
  void should_cut_the_same_chunks_with_a_token_fit_as_with_the_counter_it_stands_for() {
    String text = "第一句话很短。第二句话也很短。第三句话还是很短。第四句话依旧很短。";
    Document doc = new DocBuilder().section(Kind.PARAGRAPH, List.of("说明"), text).build();
    ChunkerSettings settings = new ChunkerSettings(400, 0, 80);
    List<String> asked = new java.util.ArrayList<>();

    List<Chunk> byFit = new StructuredChunker(settings, (StructuredChunker.TokenFit) (s, limit) -> {
      asked.add(limit + ":" + s);
      return s.length() * 2 <= limit;
    }, 50).chunk(doc);

    assertThat(raws(byFit)).containsExactly("第一句话很短。第二句话也很短。", "第三句话还是很短。", "第四句话依旧很短。");
    assertThat(byFit).isEqualTo(new StructuredChunker(settings, s -> s.length() * 2, 50).chunk(doc));
    // every question is about the model limit, and about whole embed texts (prefix included)
    assertThat(asked).isNotEmpty().allSatisfy(a -> assertThat(a).startsWith("50:运维手册 > 说明\n"));
  }

  @Test
  void should_hard_split_when_one_sentence_exceeds_the_token_limit() {
    String text = "甲".repeat(40) + "。";
    Document doc = new DocBuilder().title("").section(Kind.PARAGRAPH, List.of(), text).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(400, 0, 80),
        s -> s.length() * 2, 30).chunk(doc);

    assertThat(chunks).extracting(c -> c.raw().length()).containsExactly(15, 15, 11);
  }

  @Test
  void should_count_the_repeated_table_header_against_the_token_limit() {
    String header = "| k | v |\n|---|---|\n";
    String rows = "| a | 1 |\n| b | 2 |\n| c | 3 |\n| d | 4 |\n| e | 5 |\n";
    Document doc = new DocBuilder().title("").section(Kind.TABLE, List.of(), header + rows).build();
    // header (20 chars) + two rows (19 chars) = 39 <= 40; a third row would make 49
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(400, 0, 80),
        String::length, 40).chunk(doc);

    assertThat(raws(chunks)).containsExactly(
        header + "| a | 1 |\n| b | 2 |", header + "| c | 3 |\n| d | 4 |", header + "| e | 5 |");
    assertThat(chunks).extracting(Chunk::embedText).containsExactly(
        header + "| a | 1 |\n| b | 2 |", header + "| c | 3 |\n| d | 4 |", header + "| e | 5 |");
  }

  @Test
  void should_condense_a_padded_table_header_in_embed_text() {
    String table = "|  key   |  value  |\n| :----- | ------: |\n| a | 1 |\n| b | 2 |\n"
        + "| c | 3 |\n| d | 4 |\n";
    Document doc = new DocBuilder().title("").section(Kind.TABLE, List.of(), table).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(64, 0, 80)).chunk(doc);

    assertThat(raws(chunks)).containsExactly(
        "|  key   |  value  |\n| :----- | ------: |\n| a | 1 |\n| b | 2 |",
        "| key | value |\n| :--- | ---: |\n| c | 3 |\n| d | 4 |");
    assertThat(chunks.get(1).embedText())
        .isEqualTo("| key | value |\n| :--- | ---: |\n| c | 3 |\n| d | 4 |");
  }

  @Test
  void should_leave_out_a_header_that_would_take_more_than_half_the_token_limit() {
    String header = "| k | v |\n|---|---|\n";
    String rows = "| a | 1 |\n| b | 2 |\n";
    Document doc = new DocBuilder().title("").section(Kind.TABLE, List.of(), header + rows).build();
    List<Chunk> chunks = new StructuredChunker(new ChunkerSettings(400, 0, 80),
        String::length, 30).chunk(doc);

    assertThat(raws(chunks)).containsExactly(header + "| a | 1 |", "| b | 2 |");
    assertThat(chunks.get(1).embedText()).isEqualTo("| b | 2 |");
  }

  @Test
  void should_name_the_document_when_the_prefix_alone_exceeds_the_token_limit() {
    Document doc = new DocBuilder().section(Kind.PARAGRAPH, List.of("说明"), "正文。").build();
    StructuredChunker chunker =
        new StructuredChunker(ChunkerSettings.DEFAULT, String::length, 5);

    assertThatThrownBy(() -> chunker.chunk(doc))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(SOURCE);
  }

  @Test
  void should_reject_sections_outside_the_text_naming_the_document_and_section() {
    Document doc = new Document(SOURCE, SOURCE, "t", "短文本。",
        List.of(new Section(Kind.PARAGRAPH, List.of(), 0, 2),
            new Section(Kind.PARAGRAPH, List.of(), 2, 9)),
        List.of(), Map.of(), "h");
    assertThatThrownBy(() -> new StructuredChunker(ChunkerSettings.DEFAULT).chunk(doc))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(SOURCE)
        .hasMessageContaining("sections[1]");
  }

  @Test
  void should_reject_a_token_limit_below_one() {
    assertThatThrownBy(() -> new StructuredChunker(ChunkerSettings.DEFAULT, String::length, 0))
        .hasMessageContaining("maxTokens");
  }
}
