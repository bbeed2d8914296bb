package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RefusalPolicyTest {

  private final RefusalPolicy policy = RefusalPolicy.DEFAULT;

  @Test
  void should_pick_the_sentence_by_question_language() {
    assertThat(policy.sentenceFor("年假怎么申请？")).isEqualTo("根据现有文档无法回答该问题。");
    assertThat(policy.sentenceFor("ERR_4517是什么")).isEqualTo("根据现有文档无法回答该问题。");
    assertThat(policy.sentenceFor("How do I apply for annual leave?"))
        .isEqualTo("The documents do not contain an answer to this question.");
    assertThat(policy.sentenceFor("How many days of 年假 do I get?"))
        .isEqualTo("The documents do not contain an answer to this question.");
  }

  @Test
  void should_recognise_the_refusal_with_whitespace_markers_and_without_end_punctuation() {
    assertThat(policy.isRefusal("  根据现有文档无法回答该问题。\n")).isTrue();
    assertThat(policy.isRefusal("根据现有文档无法回答该问题")).isTrue();
    assertThat(policy.isRefusal("根据现有文档无法回答该问题。[1]")).isTrue();
    assertThat(policy.isRefusal("根据现有文档无法回答该问题。不过可以参考员工手册。")).isTrue();
    assertThat(policy.isRefusal("the documents do not contain an answer to this question"))
        .isTrue();
  }

  @Test
  void should_not_take_a_continued_sentence_or_an_answer_for_a_refusal() {
    assertThat(policy.isRefusal("根据现有文档无法回答该问题的第二部分，但第一部分是……")).isFalse();
    assertThat(policy.isRefusal("年假需提前三天申请[1]。")).isFalse();
    assertThat(policy.isRefusal("")).isFalse();
  }

  @Test
  void should_return_the_configured_sentence_that_matched() {
    RefusalPolicy custom = new RefusalPolicy("文档中没有答案。", "Not in the documents.");

    assertThat(custom.match(" Not in the documents. ")).isEqualTo("Not in the documents.");
    assertThat(custom.match("根据现有文档无法回答该问题。")).isNull();
  }

  @Test
  void should_reject_blank_sentences_naming_the_field() {
    assertThatThrownBy(() -> new RefusalPolicy(" ", "x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("refusal.chinese");
  }
}
