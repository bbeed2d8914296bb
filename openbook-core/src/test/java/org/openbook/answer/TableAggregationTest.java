package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.MarkdownLoader;
import org.openbook.retrieve.Hit;

/**
 * SUM over the rows of one table for extractive answers (kb-demo q25's kind): row selection by
 * the question's cell values and ranges, the conditions under which nothing is summed, tables
 * cut one row per chunk, and the answer text.
 */
class TableAggregationTest {

  @TempDir Path tmp;

  private static final String COURSES_ZH = "## 课程安排\n\n| 专业 | 阶段 | 学时 | 费用（元） |\n"
      + "|---|---|---|---|\n"
      + "| 西点烘焙 | 初级 | 20 | 900 |\n"
      + "| 西点烘焙 | 中级 | 30 | 1500 |\n"
      + "| 西点烘焙 | 高级 | 40 | 2600 |\n"
      + "| 咖啡调制 | 初级 | 16 | 800 |\n"
      + "| 咖啡调制 | 中级 | 24 | 1200 |\n\n"
      + "费用含材料费。\n";

  private static final String COURSES_EN = "| Track | Level | Hours | Fee (USD) |\n"
      + "|---|---|---|---|\n"
      + "| Repair | Basic | 10 | 1,200 |\n"
      + "| Repair | Intermediate | 20 | 1,800 |\n"
      + "| Repair | Advanced | 30 | 2,500 |\n"
      + "| Network | Basic | 12 | 900 |\n";

  private static List<TableSum> sums(String question, String table) {
    return TableAggregation.sums(question, Fixtures.sources("training/courses.md", table));
  }

  @Test
  void should_sum_a_range_of_rows_in_the_named_column_of_a_chinese_table() {
    List<TableSum> sums = sums("西点烘焙从初级一直学到高级，一共需要多少学时？", COURSES_ZH);

    assertThat(sums).containsExactly(new TableSum("学时", "", List.of("西点烘焙"),
        List.of("初级", "中级", "高级"), List.of("20", "30", "40"), new BigDecimal("90"),
        List.of(1), List.of(new TableSum.Row(1, 0), new TableSum.Row(1, 1),
            new TableSum.Row(1, 2))));
    assertThat(sums.get(0).statement(AnswerLanguage.ZH))
        .isEqualTo("西点烘焙 初级、中级、高级 的学时合计：20 + 30 + 40 = 90");
  }

  @Test
  void should_take_the_unit_from_the_header_and_the_rows_from_mentioned_values() {
    // two values of one column without a range connector: just those rows
    List<TableSum> sums = sums("西点烘焙的初级和高级费用合计多少？", COURSES_ZH);

    assertThat(sums).hasSize(1);
    assertThat(sums.get(0).statement(AnswerLanguage.ZH))
        .isEqualTo("西点烘焙 初级、高级 的费用合计：900 + 2600 = 3500 元");
  }

  @Test
  void should_answer_with_the_sum_first_then_the_quotes_in_the_extractive_answer() {
    String text = new ExtractiveGenerator(RefusalPolicy.DEFAULT).generate(
        "咖啡调制从初级到中级总共多少学时？", Fixtures.sources("training/courses.md", COURSES_ZH),
        s -> {});

    // the sum, then the rows it added up, verbatim with their header
    assertThat(text).isEqualTo("（摘录）咖啡调制 初级、中级 的学时合计：16 + 24 = 40[1]。"
        + "| 专业 | 阶段 | 学时 | 费用（元） | | 咖啡调制 | 初级 | 16 | 800 | "
        + "| 咖啡调制 | 中级 | 24 | 1200 |[1]");
  }

  @Test
  void should_sum_an_english_table_from_x_to_y_with_thousands_separators() {
    List<TableSum> hours = sums("How many hours in total from Basic to Advanced in the Repair "
        + "track?", COURSES_EN);
    List<TableSum> fee = sums("What is the combined fee for Repair Basic through Intermediate?",
        COURSES_EN);

    assertThat(hours).hasSize(1);
    assertThat(hours.get(0).statement(AnswerLanguage.EN))
        .isEqualTo("Total Hours of Repair Basic, Intermediate, Advanced: 10 + 20 + 30 = 60");
    assertThat(fee).hasSize(1);
    assertThat(fee.get(0).operands()).containsExactly("1,200", "1,800");
    assertThat(fee.get(0).total()).isEqualTo(new BigDecimal("3000"));
    assertThat(fee.get(0).unit()).isEqualTo("USD");
  }

  @Test
  void should_sum_rows_of_a_table_cut_one_row_per_chunk_with_the_repeated_header()
      throws Exception {
    List<Chunk> chunks = chunksOf(longTable());
    assertThat(chunks).hasSizeGreaterThan(5); // one row per chunk, each with the header copy
    // retrieved out of order, with chunks of the range and others
    List<Source> sources = sources(chunks, "第3期", "第1期", "第2期", "第4期");

    List<TableSum> sums = TableAggregation.sums("第1期到第3期的报名人数一共多少？", sources);

    assertThat(sums).hasSize(1);
    assertThat(sums.get(0).operands()).containsExactly("38", "41", "45");
    assertThat(sums.get(0).total()).isEqualTo(new BigDecimal("124"));
    assertThat(sums.get(0).citations()).containsExactly(1, 2, 3);
    assertThat(sums.get(0).statement(AnswerLanguage.ZH))
        .isEqualTo("第1期、第2期、第3期 的报名人数合计：38 + 41 + 45 = 124 人");
  }

  @Test
  void should_not_sum_a_range_whose_middle_chunk_was_not_retrieved() throws Exception {
    List<Source> sources = sources(chunksOf(longTable()), "第1期", "第3期");

    assertThat(TableAggregation.sums("第1期到第3期的报名人数一共多少？", sources)).isEmpty();
  }

  @Test
  void should_not_sum_without_an_aggregation_cue() {
    assertThat(sums("西点烘焙从初级学到高级需要多少学时？", COURSES_ZH)).isEmpty();
    assertThat(sums("How many hours from Basic to Advanced in Repair?", COURSES_EN)).isEmpty();
  }

  @Test
  void should_not_sum_a_column_with_a_non_numeric_cell() {
    String table = COURSES_ZH.replace("| 40 |", "| 待定 |");

    assertThat(sums("西点烘焙从初级学到高级，一共需要多少学时？", table)).isEmpty();
  }

  @Test
  void should_not_sum_when_no_column_is_named() {
    assertThat(sums("西点烘焙从初级学到高级，一共要多久？", COURSES_ZH)).isEmpty();
  }

  @Test
  void should_not_sum_a_single_row() {
    assertThat(sums("西点烘焙初级一共多少学时？", COURSES_ZH)).isEmpty();
  }

  @Test
  void should_not_sum_when_a_column_the_question_does_not_pin_down_makes_rows_alike() {
    // 初级 and 中级 exist in both 专业: which track is meant is unclear
    assertThat(sums("从初级到中级一共多少学时？", COURSES_ZH)).isEmpty();
  }

  @Test
  void should_not_sum_rows_of_two_different_tables() {
    String other = "| 专业 | 阶段 | 学时 | 费用（元） |\n|---|---|---|---|\n| 西点烘焙 | 高级 | 40 | 2600 |\n";
    String first = "| 专业 | 阶段 | 学时 | 费用（元） |\n|---|---|---|---|\n| 西点烘焙 | 初级 | 20 | 900 |\n";
    List<Source> sources = Fixtures.sources("a.md", first, "b.md", other);

    assertThat(TableAggregation.sums("西点烘焙初级和高级一共多少学时？", sources)).isEmpty();
  }

  /** A table of 12 rows, too long for one chunk of the default budget. */
  private static String longTable() {
    StringBuilder md = new StringBuilder("# 培训报名统计\n\n## 各期人数\n\n"
        + "| 期次 | 开班日期 | 报名人数（人） | 授课地点 |\n|---|---|---|---|\n");
    int[] people = {38, 41, 45, 29, 33, 50, 27, 31, 36, 40, 44, 39};
    for (int i = 0; i < people.length; i++) {
      md.append(String.format("| 第%d期 | 2025-%02d-10 | %d | 杭州滨江区培训中心三楼 |\n",
          i + 1, i + 1, people[i]));
    }
    return md.toString();
  }

  private List<Chunk> chunksOf(String markdown) throws Exception {
    Path f = tmp.resolve("stats.md");
    Files.writeString(f, markdown);
    return new StructuredChunker(ChunkerSettings.DEFAULT)
        .chunk(new MarkdownLoader().load(f, "stats.md").document());
  }

  /** Sources [1]..[k]: for each cell value, the chunk whose row starts with it. */
  private static List<Source> sources(List<Chunk> chunks, String... firstCells) {
    List<Source> out = new ArrayList<>();
    for (String cell : firstCells) {
      Chunk c = chunks.stream().filter(ch -> ch.raw().contains("| " + cell + " |")).findFirst()
          .orElseThrow();
      out.add(Source.of(out.size() + 1, new Hit(c, 1, 0.8, 1, 1.0, 0.03, Double.NaN)));
    }
    return out;
  }
}
