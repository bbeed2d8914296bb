package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.answer.Citation;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Principal;

/**
 * kb-demo q25 through the engine with the default configuration (extractive, no LLM): a total
 * over the rows of the course table in {@code training/课程目录.md} is summed and cited.
 */
class TableAggregationEndToEndTest {

  private static OpenBook kbDemo;

  @AfterAll
  static void close() throws IOException {
    if (kbDemo != null) {
      kbDemo.close();
    }
  }

  @Test
  void should_sum_the_hours_from_entry_to_advanced_level_of_kb_demo_q25() throws IOException {
    kbDemo = OpenBook.builder().index(KbDemoIndex.index()).config(OpenBookConfig.defaults())
        .build();

    Answer a = kbDemo.ask("家电售后维修方向从入门一直学到高级，总共要上多少课时？",
        new Principal("visitor", Set.of()), Answerer.Listener.NONE);

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.text()).contains("家电售后维修 入门、进阶、高级 的课时合计：24 + 36 + 48 = 108[")
        .contains("| 家电售后维修 | 入门 | 24 | 1800 | 每月 |",
            "| 家电售后维修 | 进阶 | 36 | 3600 | 每两个月 |",
            "| 家电售后维修 | 高级 | 48 | 6000 | 每季度 |");
    assertThat(a.diagnostics().unsupportedCitations()).isEmpty();
    int n = Integer.parseInt(a.text().replaceFirst("(?s).*= 108\\[(\\d+)].*", "$1"));
    assertThat(a.citations()).filteredOn(c -> c.n() == n).extracting(Citation::source)
        .containsExactly("training/课程目录.md");
  }
}
