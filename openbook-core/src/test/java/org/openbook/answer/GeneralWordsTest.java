package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.Synonyms;

/** General words are phrasing, not missing subjects (the kind of kb-demo q06). */
class GeneralWordsTest {

  @Test
  void should_tell_general_vocabulary_from_rare_and_unknown_words() {
    assertThat(GeneralWords.common("东西")).isTrue();
    assertThat(GeneralWords.common("回来")).isTrue();
    assertThat(GeneralWords.common("颗粒物")).isFalse();
    assertThat(GeneralWords.common("保修")).isFalse();
    assertThat(GeneralWords.common("CADR")).isFalse();
    assertThat(GeneralWords.common("")).isFalse();
  }

  @Test
  void should_answer_a_chatty_question_whose_undocumented_words_are_general_ones() {
    String doc = "# 发票\n订单完成后，可在订单详情页申请电子发票，每个订单可申请 1 次。";
    ExtractiveGenerator g = new ExtractiveGenerator(RefusalPolicy.DEFAULT,
        new TermCoverage(OpenBookAnalysis.defaultAnalysis(),
            EvidenceGateTest.statsOf(List.of(doc, "# 售后\n退货需在 7 天内申请。")),
            Synonyms.NONE, null, 0.69), null);

    // 东西 and 回来 are in no document but are general words: not a missing subject
    String text = g.generate("东西买回来以后，发票能在订单详情页申请吗？", Fixtures.sources("faq/i.md", doc),
        s -> {});
    assertThat(text).isEqualTo("（摘录）订单完成后，可在订单详情页申请电子发票，每个订单可申请 1 次[1]。");

    // a rare word the documents lack is still a missing subject
    String refused = g.generate("发票的颗粒物含量是多少？", Fixtures.sources("faq/i.md", doc), s -> {});
    assertThat(refused).isEqualTo("根据现有文档无法回答该问题。文档中没有关于 颗粒物 的说明。");
  }
}
