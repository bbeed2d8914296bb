package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractiveGeneratorTest {

  private final ExtractiveGenerator generator = new ExtractiveGenerator(RefusalPolicy.DEFAULT);

  @Test
  void should_quote_the_overlapping_sentences_in_rank_order_each_cited() {
    List<Source> sources = Fixtures.sources(
        "hr/leave.md", "## 年假\n年假需提前三天申请。病假需提供证明。",
        "hr/leave.md", "未休年假可顺延至次年三月。",
        "it/vpn.md", "VPN账号由IT部门开通。");
    List<String> streamed = new ArrayList<>();

    String text = generator.generate("年假怎么申请？可以顺延吗？", sources, streamed::add);

    assertThat(text).isEqualTo("（摘录）年假需提前三天申请[1]。未休年假可顺延至次年三月[2]。");
    assertThat(streamed).containsExactly(text);
  }

  @Test
  void should_keep_at_most_the_per_source_cap_and_the_total_cap() {
    List<Source> sources = Fixtures.sources(
        // four sentences: longer than a paragraph quoted whole (MAX_PARAGRAPH_SENTENCES)
        "hr/leave.md", "年假第一条。年假第二条。年假第三条。年假第六条。",
        "hr/leave2.md", "年假第四条。",
        "hr/leave3.md", "年假第五条。");
    ExtractiveGenerator g = new ExtractiveGenerator(RefusalPolicy.DEFAULT, 3, 2, "", "");

    // all sentences score 1 (bigram 年假); ties go to rank, then position
    assertThat(g.generate("年假", sources, s -> {})).isEqualTo("年假第一条[1]。年假第二条[1]。年假第四条[2]。");
  }

  @Test
  void should_refuse_when_no_sentence_shares_a_word_with_the_question() {
    List<Source> sources = Fixtures.sources(
        "hr/leave.md", "# 假期\n年假需提前三天申请。病假需提供证明。",
        "it/vpn.md", "VPN账号由IT部门开通。");

    assertThat(generator.generate("报销流程", sources, s -> {}))
        .isEqualTo(RefusalPolicy.DEFAULT.sentenceFor("报销流程"));
    assertThat(generator.generate("What is the weather in Paris tomorrow?", sources, s -> {}))
        .isEqualTo(RefusalPolicy.DEFAULT.sentenceFor("What is the weather in Paris tomorrow?"));
  }

  @Test
  void should_label_english_extracts_and_cite_before_the_full_stop() {
    List<Source> sources = Fixtures.sources(
        "hr/expense.md", "Submit receipts within 30 days. Lunch is not refunded.",
        "hr/travel.md", "Travel must be approved by a manager");

    String text = generator.generate("When must receipts be submitted?", sources, s -> {});

    // "submit" and "receipts" overlap [1]; [2] shares only "must", less than
    // MIN_RELATIVE_SCORE of [1]'s score, so it is not appended (off-topic); stop words such as
    // "be" do not count
    assertThat(text).isEqualTo("(Extract) Submit receipts within 30 days[1].");
  }

  @Test
  void should_be_deterministic_and_pass_its_own_citation_check() {
    List<Source> sources = Fixtures.r21Sources();
    String a = generator.generate("年假需要提前几天申请", sources, s -> {});
    String b = generator.generate("年假需要提前几天申请", sources, s -> {});

    assertThat(a).isEqualTo(b);
    CitationReport report = new CitationChecker(RefusalPolicy.DEFAULT).check(a, sources.size());
    assertThat(report.invalid()).isEmpty();
    assertThat(report.uncitedSentences()).isEmpty();
    assertThat(new SupportChecker().check(report, sources).unsupported()).isEmpty();
  }

  @Test
  void should_refuse_when_there_are_no_sources() {
    assertThat(generator.generate("年假", List.of(), s -> {})).isEqualTo("根据现有文档无法回答该问题。");
  }
}
