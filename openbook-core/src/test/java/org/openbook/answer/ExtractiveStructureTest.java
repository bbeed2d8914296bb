package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.Synonyms;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;

/**
 * Extractive answers quote what belongs together: table rows with their header, short lists
 * whole, the paragraph that explains a quoted error, a sentence with the one continuing it; and
 * leave out sentences that only share a common word with the question.
 */
class ExtractiveStructureTest {

  private final ExtractiveGenerator lexical = new ExtractiveGenerator(RefusalPolicy.DEFAULT);

  private static final String COURSES = "# 课程\n| 方向 | 级别 | 课时 | 学费 |\n|---|---|---|---|\n"
      + "| 烘焙 | 初级 | 20 | 900 |\n| 烘焙 | 中级 | 30 | 1500 |\n| 咖啡 | 初级 | 16 | 800 |\n";

  private static ExtractiveGenerator gated(List<String> corpus) {
    return new ExtractiveGenerator(RefusalPolicy.DEFAULT,
        new TermCoverage(OpenBookAnalysis.defaultAnalysis(),
            EvidenceGateTest.statsOf(corpus), Synonyms.NONE, null, 0.69),
        null);
  }

  @Test
  void should_quote_a_table_row_with_its_header() {
    String text = lexical.generate("咖啡初级课程要多少课时？", Fixtures.sources("training/c.md", COURSES),
        s -> {});

    assertThat(text).isEqualTo("（摘录）| 方向 | 级别 | 课时 | 学费 | | 咖啡 | 初级 | 16 | 800 |[1]");
  }

  @Test
  void should_refuse_a_row_the_table_does_not_have_and_name_the_combination() {
    // every term (咖啡, 中级, 课时) is in the table, but no row is 咖啡 + 中级
    String text = gated(List.of(COURSES, "# 其他\n课程报名后两天内开班。"))
        .generate("咖啡中级课程要多少课时？", Fixtures.sources("training/c.md", COURSES), s -> {});

    assertThat(text).isEqualTo("根据现有文档无法回答该问题。文档中没有 咖啡 + 中级 的条目。");
  }

  @Test
  void should_not_take_two_values_of_one_column_for_a_missing_row() {
    TermCoverage coverage = new TermCoverage(OpenBookAnalysis.defaultAnalysis(),
        EvidenceGateTest.statsOf(List.of(COURSES)), Synonyms.NONE, null, 0.69);

    // 初级 and 中级 are alternatives in one column: two rows, not a missing combination
    assertThat(coverage.missingRow("烘焙从初级学到中级一共多少课时？", List.of(COURSES))).isEmpty();
    assertThat(coverage.missingRow("烘焙中级多少钱？", List.of(COURSES))).isEmpty();
    assertThat(coverage.missingRow("咖啡中级多少钱？", List.of(COURSES)))
        .containsExactly("咖啡", "中级");
  }

  @Test
  void should_quote_a_short_list_whole_with_its_lead_in() {
    List<Source> sources = Fixtures.sources("hr/leave.md", "请假审批规则如下：\n"
        + "- 请假 1 天以内：组长审批。\n- 请假 2 到 5 天：组长和经理审批。\n- 请假超过 5 天：再报总经理审批。\n");

    String text = lexical.generate("请假 8 天要谁审批？", sources, s -> {});

    assertThat(text).isEqualTo("（摘录）请假审批规则如下：请假 1 天以内：组长审批[1]。"
        + "请假 2 到 5 天：组长和经理审批[1]。请假超过 5 天：再报总经理审批[1]。");
  }

  @Test
  void should_quote_the_paragraph_that_explains_the_quoted_error_message() {
    List<Source> sources = Fixtures.sources("dev/notes.md", "启动时出现：\n\n```\n"
        + "Error: port 8080 already in use\n```\n\n原因是端口被别的进程占用。改用 --port 9090 重新启动即可。"
        + "日志保存在 logs 目录。\n");

    String text = lexical.generate("启动报 port 8080 already in use 怎么办？", sources, s -> {});

    // the lead-in is not quoted alone; the explanation is matched through the code before it
    // (a question with more Latin letters than Han characters gets the English label)
    assertThat(text).isEqualTo("(Extract) 原因是端口被别的进程占用[1]。改用 --port 9090 重新启动即可[1]。");
  }

  @Test
  void should_quote_the_sentence_that_continues_the_chosen_one() {
    List<Source> sources = Fixtures.sources("support/codes.md", "E7 表示水泵堵塞。E8 表示水温过高。"
        + "E9 表示门未关好。该故障需要先断电，再清理进水滤网。E3 表示加热管损坏。");

    String text = lexical.generate("E9 是什么故障？", sources, s -> {});

    assertThat(text).isEqualTo("（摘录）E9 表示门未关好[1]。该故障需要先断电，再清理进水滤网[1]。");
  }

  @Test
  void should_leave_out_a_sentence_that_only_shares_a_common_word() {
    List<Source> sources = Fixtures.sources(
        "about/history.md", "The company was founded in Suzhou in 2014 by two engineers.",
        "about/offices.md", "A second office of the company opened in Chengdu in 2019.");

    String text = lexical.generate("In which city and year was the company founded?", sources,
        s -> {});

    assertThat(text).isEqualTo(
        "(Extract) The company was founded in Suzhou in 2014 by two engineers[1].");
  }

  @Test
  void should_read_a_cited_chunk_with_its_neighbour_chunk_for_coverage() {
    Hit first = hit("dev/n.md", 3, "启动时出现：\n```\nError: port 8080 already in use\n```");
    Hit second = hit("dev/n.md", 4, "原因是端口被别的进程占用。改用 --port 9090 重新启动即可。");
    Hit other = hit("dev/x.md", 5, "端口配置见附录。");
    List<Source> sources = List.of(Source.of(1, first), Source.of(2, second),
        Source.of(3, other));

    assertThat(ExtractiveGenerator.withNeighbours(List.of(sources.get(1)), sources))
        .containsExactly(sources.get(1), sources.get(0));
  }

  private static Hit hit(String source, int ordinal, String text) {
    Chunk c = new Chunk(source + "#" + ordinal, source, ordinal, text, text, List.of(), 0, 0,
        text.length(), java.util.Map.of("source", source, "dept", "public"));
    return new Hit(c, 1, 0.9, 1, 1.0, 0.03, Double.NaN);
  }
}
