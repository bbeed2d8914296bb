package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CitationCheckerTest {

  private final CitationChecker checker = new CitationChecker(RefusalPolicy.DEFAULT);

  @Test
  void should_split_r21_answer_into_valid_and_invalid_citations() {
    CitationReport r = checker.check("年假需提前三天申请[1]，可顺延至次年三月[2][5]。逾期作废[0]。", 3);

    assertThat(r.valid()).containsExactly(1, 2);
    assertThat(r.invalid()).containsExactly(5, 0);
    assertThat(r.text()).isEqualTo("年假需提前三天申请[1]，可顺延至次年三月[2]。逾期作废。");
    assertThat(r.sentences()).containsExactly(
        new CitedSentence("年假需提前三天申请[1]，可顺延至次年三月[2]。", List.of(1, 2)),
        new CitedSentence("逾期作废。", List.of()));
    assertThat(r.uncitedSentences()).containsExactly("逾期作废。");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "年假需提前三天申请[１]。     | 年假需提前三天申请[1]。     | 1 |",
      "年假需提前三天申请[1,5]。    | 年假需提前三天申请[1]。     | 1 | 5",
      "年假需提前三天申请[1, 5]。   | 年假需提前三天申请[1]。     | 1 | 5",
      "年假需提前三天申请【2】。    | 年假需提前三天申请[2]。     | 2 |",
      "年假需提前三天申请[ 2 ]。    | 年假需提前三天申请[2]。     | 2 |",
      "年假需提前三天申请［３，1］。| 年假需提前三天申请[3][1]。  | 3;1 |",
      "年假需提前三天申请【7】。    | 年假需提前三天申请。        |   | 7",
      "年假需提前三天申请[1、0、4]。| 年假需提前三天申请[1]。     | 1 | 0;4",
  })
  void should_parse_marker_variants_and_keep_only_in_range_numbers(
      String answer, String expectedText, String valid, String invalid) {
    CitationReport r = checker.check(answer.strip(), 3);

    assertThat(r.text()).isEqualTo(expectedText.strip());
    assertThat(r.valid()).isEqualTo(numbers(valid));
    assertThat(r.invalid()).isEqualTo(numbers(invalid));
  }

  @Test
  void should_list_distinct_valid_citations_in_order_of_first_use() {
    CitationReport r = checker.check("A fact [3]. Another [1][3]. Third [2][1].", 3);

    assertThat(r.valid()).containsExactly(3, 1, 2);
  }

  @Test
  void should_remove_blank_before_a_dropped_marker() {
    CitationReport r = checker.check("Leave expires in March [9]. See the policy [1].", 3);

    assertThat(r.text()).isEqualTo("Leave expires in March. See the policy [1].");
    assertThat(r.invalid()).containsExactly(9);
  }

  @Test
  void should_attach_a_marker_after_the_full_stop_to_its_sentence() {
    CitationReport r = checker.check("年假需提前三天申请。[1]未休年假可顺延。 [2] Done here. [3] Next one", 3);

    assertThat(r.sentences()).extracting(CitedSentence::text).containsExactly(
        "年假需提前三天申请。[1]", "未休年假可顺延。 [2]", "Done here. [3]", "Next one");
    assertThat(r.uncitedSentences()).containsExactly("Next one");
  }

  @Test
  void should_not_report_the_extractive_notes_about_the_documents_as_uncited() {
    KeyTerm parking = new KeyTerm("parking", List.of("parking"), false, false);
    KeyTerm shuttle = new KeyTerm("班车", List.of("班车"), false, true);
    String answer = "(Extract) Sessions are closed after 12 hours[1]. "
        + CoverageNotes.mapped("VPN", "remote access", AnswerLanguage.EN) + " "
        + CoverageNotes.notDocumented(List.of(parking), AnswerLanguage.EN)
        + " Visitors must sign in at the desk. "
        + CoverageNotes.notDocumented(List.of(shuttle), AnswerLanguage.ZH)
        + CoverageNotes.noEntry(List.of("ZQ-7781", "蓝色"), AnswerLanguage.ZH);

    CitationReport r = checker.check(answer, 1);

    assertThat(r.uncitedSentences()).containsExactly("Visitors must sign in at the desk.");
  }

  @Test
  void should_not_report_refusal_or_short_fragments_as_uncited() {
    CitationReport r = checker.check(
        "1. 年假需提前三天申请[1]。\n注：\n根据现有文档无法回答该问题。\nVersion 8.1.4 is required.", 3);

    assertThat(r.sentences()).extracting(CitedSentence::text).containsExactly(
        "1.", "年假需提前三天申请[1]。", "注：", "根据现有文档无法回答该问题。", "Version 8.1.4 is required.");
    assertThat(r.uncitedSentences()).containsExactly("Version 8.1.4 is required.");
  }

  @Test
  void should_treat_every_marker_as_invalid_when_there_are_no_sources() {
    CitationReport r = checker.check("Text [1].", 0);

    assertThat(r.valid()).isEmpty();
    assertThat(r.invalid()).containsExactly(1);
    assertThat(r.text()).isEqualTo("Text.");
  }

  @Test
  void should_leave_bracketed_words_alone() {
    CitationReport r = checker.check("See [the handbook](hr.md) and [^1] [1].", 1);

    assertThat(r.text()).isEqualTo("See [the handbook](hr.md) and [^1] [1].");
    assertThat(r.valid()).containsExactly(1);
  }

  @Test
  void should_reject_negative_source_count() {
    assertThatThrownBy(() -> checker.check("x", -1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sourceCount");
  }

  private static List<Integer> numbers(String list) {
    if (list == null || list.isBlank()) {
      return List.of();
    }
    return java.util.Arrays.stream(list.strip().split(";")).map(Integer::valueOf).toList();
  }
}
