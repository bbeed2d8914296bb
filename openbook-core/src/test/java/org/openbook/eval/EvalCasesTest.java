package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;

class EvalCasesTest {

  @TempDir Path dir;

  @Test
  void should_read_kb_demo_case_and_plain_question_lines() throws IOException {
    Path f = write("""
        {"id":"q01","question":"普通订单多久发货？","type":"exact","principal":"visitor","expect":"answer","gold":[{"source":"a.md","contains":"48 小时"}],"answer_contains":["48"]}

        {"question":"食堂几点开门？"}
        """);

    List<EvalCase> cases = EvalCases.read(f);

    assertThat(cases).containsExactly(
        new EvalCase("q01", "普通订单多久发货？", "exact", "visitor", false,
            List.of(new EvalCase.Gold("a.md", "48 小时")), List.of("48")),
        new EvalCase("line 3", "食堂几点开门？", "", null, false, List.of(), List.of()));
  }

  @Test
  void should_name_file_and_line_for_a_missing_question() throws IOException {
    Path f = write("{\"id\":\"q1\",\"question\":\"ok\"}\n{\"id\":\"q2\"}\n");

    assertThatThrownBy(() -> EvalCases.read(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(f + ":2: field 'question' is missing or blank");
  }

  @Test
  void should_reject_unknown_expect_and_duplicate_ids() throws IOException {
    Path bad = write("{\"question\":\"x\",\"expect\":\"maybe\"}\n");
    assertThatThrownBy(() -> EvalCases.read(bad)).hasMessageContaining(":1: field 'expect'");

    Path dup = write("{\"id\":\"a\",\"question\":\"x\"}\n{\"id\":\"a\",\"question\":\"y\"}\n");
    assertThatThrownBy(() -> EvalCases.read(dup)).hasMessageContaining(":2: duplicate id 'a'");
  }

  @Test
  void should_judge_chunk_by_source_and_verbatim_snippet() {
    EvalCase c = new EvalCase("q", "?", "multi_doc", null, false,
        List.of(new EvalCase.Gold("a.md", "七天"), new EvalCase.Gold("b.md", "十天")), List.of());
    Chunk right = chunk("a.md", "签收后七天内可退");
    Chunk wrongSource = chunk("c.md", "签收后七天内可退");
    Chunk second = chunk("b.md", "十天");

    Judged j = c.judge(List.of(wrongSource, right, second));

    assertThat(RankingMetrics.recall(j, 1)).isEqualTo(0.0);
    assertThat(RankingMetrics.recall(j, 2)).isEqualTo(0.5);
    assertThat(RankingMetrics.recall(j, 3)).isEqualTo(1.0);
  }

  private static Chunk chunk(String source, String raw) {
    return new Chunk(source + "#0", source, 0, raw, raw, List.of(), 0, 0, raw.length(),
        Map.of("source", source));
  }

  private Path write(String text) throws IOException {
    Path f = Files.createTempFile(dir, "cases", ".jsonl");
    Files.writeString(f, text);
    return f;
  }
}
