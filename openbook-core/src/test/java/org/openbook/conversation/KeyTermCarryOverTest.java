package org.openbook.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.answer.AnswerStatus;

class KeyTermCarryOverTest {

  private final KeyTermCarryOver rewriter = new KeyTermCarryOver();

  private static List<Turn> after(String question) {
    return List.of(new Turn(question, question, "…", List.of(), AnswerStatus.ANSWERED));
  }

  @Test
  void should_prepend_the_previous_questions_key_terms_to_a_follow_up() {
    String rewritten = rewriter.rewrite("那退款多久发起？", after("跨境订单的质量问题退货要在签收后几天内申请？"));

    assertThat(rewritten).isEqualTo("跨境订单 质量问题退货 签收后 申请 那退款多久发起？");
  }

  @Test
  void should_cut_han_key_terms_at_function_and_question_words() {
    assertThat(KeyTermCarryOver.keyTerms("跨境订单的质量问题退货要在签收后几天内申请？"))
        .containsExactly("跨境订单", "质量问题退货", "签收后", "申请");
  }

  @Test
  void should_keep_identifiers_whole_and_drop_english_stop_and_question_words() {
    assertThat(KeyTermCarryOver.keyTerms("How long does the ZQ-7781 filter last?"))
        .containsExactly("zq-7781", "filter", "last");
  }

  @Test
  void should_carry_over_only_terms_the_follow_up_lacks() {
    String rewritten = rewriter.rewrite("那 ZQ-7781 的复位呢？", after("ZQ-7781 滤芯多久更换？"));

    assertThat(rewritten).isEqualTo("滤芯 更换 那 ZQ-7781 的复位呢？");
  }

  @Test
  void should_keep_a_question_that_stands_alone() {
    String question = "课程退费的手续费最低是多少元？";

    assertThat(KeyTermCarryOver.isFollowUp(question)).isFalse();
    assertThat(rewriter.rewrite(question, after("跨境订单的质量问题退货要在签收后几天内申请？")))
        .isEqualTo(question);
  }

  @Test
  void should_treat_continuations_pronouns_and_short_questions_as_follow_ups() {
    assertThat(KeyTermCarryOver.isFollowUp("还有换货的运费由谁承担？")).isTrue();
    assertThat(KeyTermCarryOver.isFollowUp("它的滤芯多少钱一个，在哪里买？")).isTrue();
    assertThat(KeyTermCarryOver.isFollowUp("换货呢？")).isTrue();
    assertThat(KeyTermCarryOver.isFollowUp("What about exchanges?")).isTrue();
  }

  @Test
  void should_return_the_question_unchanged_without_history() {
    assertThat(rewriter.rewrite("那退款多久发起？", List.of())).isEqualTo("那退款多久发起？");
  }
}
