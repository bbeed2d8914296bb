package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.Synonyms;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;

/** Gate 2 of extractive answers: key-term coverage of the passages the answer cites. */
class ExtractiveCoverageTest {

  private static final String CODES = "# 云管家错误代码\nERR_4517：设备签名校验失败，请重新签发设备证书。"
      + "ERR_4518：设备证书已过期，请在控制台续期。";
  private static final String PURIFIER = "# ZQ-7781 滤芯\nZQ-7781 的滤芯建议每 6 个月或累计运行 2000 小时更换一次。"
      + "更换滤芯后长按复位键 5 秒。";
  private static final String AQ = "# AQ-300\nThe AQ-300 battery lasts 30 days. Hold Pair for 3 seconds to "
      + "pair it.";
  private static final List<String> CORPUS = List.of(CODES, PURIFIER, AQ,
      "# 售后\n普通订单在付款后 48 小时内发货。", "# 公司\n公司在苏州创办。");

  private static ExtractiveGenerator generator(Synonyms synonyms) {
    return new ExtractiveGenerator(RefusalPolicy.DEFAULT,
        new TermCoverage(OpenBookAnalysis.defaultAnalysis(),
            EvidenceGateTest.statsOf(CORPUS), synonyms, null, 0.66),
        null);
  }

  @Test
  void should_refuse_a_missing_identifier_and_name_it() {
    String text = generator(Synonyms.NONE).generate("云管家报错 ERR_4519 是什么意思？",
        Fixtures.sources("support/codes.md", CODES), s -> {});

    assertThat(text).isEqualTo("根据现有文档无法回答该问题。文档中没有关于 ERR_4519 的说明。");
    assertThat(RefusalPolicy.DEFAULT.isRefusal(text)).isTrue();
  }

  @Test
  void should_refuse_a_product_code_one_digit_off_in_english_too() {
    String text = generator(Synonyms.NONE).generate("How long does the AQ-301 battery last?",
        Fixtures.sources("en/aq.md", AQ), s -> {});

    assertThat(text).isEqualTo("The documents do not contain an answer to this question. "
        + "The documents say nothing about AQ-301.");
  }

  @Test
  void should_answer_the_covered_part_and_say_plainly_what_is_not_covered() {
    String text = generator(Synonyms.NONE).generate("ZQ-7781 的滤芯多久更换一次，保修吗？",
        Fixtures.sources("products/zq.md", PURIFIER), s -> {});

    assertThat(text).startsWith("（摘录）ZQ-7781 的滤芯建议每 6 个月或累计运行 2000 小时更换一次[1]。")
        .endsWith("文档中没有关于 保修 的说明。");

    String en = generator(Synonyms.NONE).generate("How long does the AQ-300 battery last, "
        + "and is it waterproof?", Fixtures.sources("en/aq.md", AQ), s -> {});
    assertThat(en).startsWith("(Extract) The AQ-300 battery lasts 30 days[1].")
        .endsWith("The documents say nothing about waterproof.");
  }

  @Test
  void should_refuse_when_the_covered_terms_carry_too_little_weight() {
    // only 公司 is covered: common words do not make an answer
    String text = generator(Synonyms.NONE).generate("公司食堂午饭几点开始供应？",
        Fixtures.sources("about/company.md", "# 公司\n公司在苏州创办。"), s -> {});

    assertThat(text).startsWith("根据现有文档无法回答该问题。文档中没有关于 ")
        .contains("食堂", "午饭");
  }

  @Test
  void should_answer_through_a_synonym_and_say_which_document_term_it_took() {
    String question = "ZQ-7781 的过滤网多久更换？";
    List<Source> sources = Fixtures.sources("products/zq.md", PURIFIER);

    String text = generator(Synonyms.parse("过滤网, 滤网, 滤芯")).generate(question, sources, s -> {});

    assertThat(text).contains("2000 小时更换一次[1]").contains("（“过滤网”按文档中的“滤芯”理解。）")
        .doesNotContain("文档中没有关于");
  }

  @Test
  void should_judge_coverage_on_the_cited_passages_not_the_top_one_r35() {
    // the common-word passage ranks first; the answer must be judged on what it cites
    List<Source> sources = Fixtures.sources(
        "party.md", "# 年会\n公司年会在十二月举行，具体地点另行通知。",
        "products/zq.md", PURIFIER);
    Answer a = new AnswerService(
        q -> new SearchResult(sources.stream().map(Source::hit).toList(), 0.9, 2, 2),
        generator(Synonyms.NONE), 0.5, RefusalPolicy.DEFAULT)
        .ask(Query.of("ZQ-7781 的滤芯多久更换一次", Principal.ANONYMOUS, 5), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.citations()).extracting(Citation::source).containsOnly("products/zq.md");
  }

  @Test
  void should_not_judge_words_across_languages_but_still_judge_identifiers() {
    // A Chinese question about an English passage (the demo's NET-4021 case): the Chinese words
    // cannot appear in it; the covered code and the dense route that found it speak for it.
    String zh = generator(Synonyms.NONE).generate("AQ-300 的电池能用多久？",
        Fixtures.sources("en/aq.md", AQ), s -> {});
    assertThat(zh).isEqualTo("（摘录） The AQ-300 battery lasts 30 days[1].");

    // ... but a code the passage lacks is still refused, whatever the language.
    String lacking = generator(Synonyms.NONE).generate("AQ-301 的电池能用多久？",
        Fixtures.sources("en/aq.md", AQ), s -> {});
    assertThat(lacking).isEqualTo("根据现有文档无法回答该问题。文档中没有关于 AQ-301 的说明。");

  }
}
