package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.openbook.embed.Embedder;
import org.junit.jupiter.api.Test;

class SupportCheckerTest {

  private final CitationChecker citations = new CitationChecker(RefusalPolicy.DEFAULT);
  private final SupportChecker support = new SupportChecker();

  private SupportReport check(String answer, List<Source> sources) {
    return support.check(citations.check(answer, sources.size()), sources);
  }

  @Test
  void should_support_claims_copied_from_their_passages() {
    SupportReport r = check("年假需提前三天申请[1]，可顺延至次年三月[2]。", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(1, 1.0).containsEntry(2, 1.0);
    assertThat(r.unsupported()).isEmpty();
  }

  @Test
  void should_flag_a_citation_whose_passage_is_about_something_else() {
    SupportReport r = check("年假需提前三天申请[3]。", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(3, 0.0);
    assertThat(r.unsupported()).containsExactly(3);
  }

  @Test
  void should_fail_a_claim_whose_number_is_not_in_the_passage() {
    List<Source> sources = Fixtures.sources("hr/expense.md", "Submit receipts within 30 days of travel.");

    assertThat(check("Submit receipts within 30 days [1].", sources).unsupported()).isEmpty();
    SupportReport wrong = check("Submit receipts within 60 days [1].", sources);
    assertThat(wrong.scores()).containsEntry(1, 0.0);
    assertThat(wrong.unsupported()).containsExactly(1);
  }

  @Test
  void should_match_numbers_as_whole_tokens_not_substrings() {
    List<Source> sources = Fixtures.sources("ops/power.md", "ZQ-7781 电源模块需每季度巡检。");

    assertThat(check("ZQ-7781 需每季度巡检[1]。", sources).unsupported()).isEmpty();
    assertThat(check("ZQ-778 需每季度巡检[1]。", sources).unsupported()).containsExactly(1);
  }

  @Test
  void should_use_the_whole_sentence_when_the_marker_follows_the_full_stop() {
    SupportReport r = check("未休年假可顺延至次年三月。[2]", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(2, 1.0);
  }

  @Test
  void should_check_a_marker_group_against_the_union_of_its_passages() {
    // 年假需提前三天申请 is in [1], 可顺延至次年三月 in [2]: together they cover the claim.
    SupportReport r = check("年假需提前三天申请，可顺延至次年三月[1][2]。", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(1, 1.0).containsEntry(2, 1.0);
  }

  @Test
  void should_flag_a_grouped_citation_that_contributes_nothing() {
    SupportReport r = check("年假需提前三天申请[1][3]。", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(1, 1.0).containsEntry(3, 0.0);
  }

  @Test
  void should_score_partial_overlap_as_share_of_claim_features() {
    // Claim bigrams: 年假 假需 需提 提前 前提 提交 → 4 of 6 in passage [1].
    SupportReport r = check("年假需提前提交[1]。", Fixtures.r21Sources());

    assertThat(r.scores().get(1)).isEqualTo(4.0 / 6.0);
    assertThat(r.supported(1)).isTrue();
  }

  @Test
  void should_compare_chinese_and_arabic_numerals_by_value() {
    List<Source> sources = Fixtures.r21Sources();

    assertThat(check("年假需提前3天申请[1]。", sources).scores()).containsEntry(1, 1.0);
    assertThat(check("年假需提前五天申请[1]。", sources).scores()).containsEntry(1, 0.0);
    assertThat(check("未休年假可顺延至次年3月[2]。", sources).unsupported()).isEmpty();
    assertThat(check("未休年假可顺延至次年四月[2]。", sources).unsupported()).containsExactly(2);
  }

  @Test
  void should_read_chinese_numerals_with_units_and_digit_by_digit() {
    assertThat(LexicalFeatures.hanNumberValue("二十三")).isEqualTo("23");
    assertThat(LexicalFeatures.hanNumberValue("一百零五")).isEqualTo("105");
    assertThat(LexicalFeatures.hanNumberValue("两万")).isEqualTo("20000");
    assertThat(LexicalFeatures.hanNumberValue("二〇二四")).isEqualTo("2024");
    assertThat(LexicalFeatures.hanNumberValue("万")).isNull();
  }

  @Test
  void should_keep_the_lowest_score_of_a_citation_used_twice() {
    SupportReport r = check("年假需提前三天申请[1]。VPN账号由IT部门开通[1]。", Fixtures.r21Sources());

    assertThat(r.scores()).containsEntry(1, 0.0);
    assertThat(r.unsupported()).containsExactly(1);
  }

  @Test
  void should_reject_threshold_outside_unit_interval() {
    assertThatThrownBy(() -> new SupportChecker(1.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("support threshold");
  }

  @Test
  void should_bind_a_number_to_the_unit_it_counts() {
    List<Source> sources = Fixtures.sources("after-sales/policy.md",
        "换货需上传至少 3 张照片。验货通过后，会在 2 个工作日内寄出新商品。");

    assertThat(check("验货通过后 2 个工作日内寄出新商品[1]。", sources).unsupported()).isEmpty();
    assertThat(check("验货通过后 3 个工作日内寄出新商品[1]。", sources).scores()).containsEntry(1, 0.0);
    assertThat(LexicalFeatures.quantities("七天内可退，PM2.5 超过 75 μg 时 E2 亮，最低 100 元"))
        .containsExactly("7天", "100元");
  }

  @Test
  void should_not_join_an_identifier_to_the_next_word_across_a_chinese_colon() {
    assertThat(LexicalFeatures.of("E5：PM2.5 传感器异常")).contains("e5", "pm2.5");
    assertThat(LexicalFeatures.of("核心时段 10:00-16:00")).contains("10:00-16:00");
  }

  /** Maps each known text to a fixed unit vector; any other text is orthogonal to all. */
  private static Embedder vectors(Map<String, float[]> known) {
    return new Embedder() {
      public String modelId() {
        return "fixed";
      }

      public int dimension() {
        return 3;
      }

      public int maxInputTokens() {
        return 512;
      }

      public int countTokens(String text) {
        return text.length();
      }

      public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(t -> known.getOrDefault(t.strip(), new float[] {0, 0, 1})).toList();
      }
    };
  }

  @Test
  void should_let_the_embedding_signal_rescue_a_paraphrase_but_never_a_wrong_number() {
    String passage = "滤芯等耗材一经拆封，不再适用无理由退货。";
    List<Source> sources = Fixtures.sources("after-sales/policy.md", passage);
    Embedder close = vectors(Map.of(passage, new float[] {1, 0, 0},
        "滤芯拆封后就不能再无理由退货了", new float[] {0.8f, 0.6f, 0},
        "滤芯拆封 3 天后不能退货", new float[] {1, 0, 0}));
    CitationChecker citations = new CitationChecker(RefusalPolicy.DEFAULT);
    var paraphrase = citations.check("滤芯拆封后就不能再无理由退货了[1]。", 1);
    var wrongNumber = citations.check("滤芯拆封 3 天后不能退货[1]。", 1);

    assertThat(new SupportChecker().check(paraphrase, sources).unsupported()).containsExactly(1);
    assertThat(new SupportChecker(0.5, close, 0.75).check(paraphrase, sources).scores())
        .containsEntry(1, 0.5);
    assertThat(new SupportChecker(0.5, close, 0.85).check(paraphrase, sources).unsupported())
        .containsExactly(1);
    assertThat(new SupportChecker(0.5, close, 0.75).check(wrongNumber, sources).scores())
        .containsEntry(1, 0.0);
  }

  @Test
  void should_support_a_sum_whose_operands_are_in_the_passage_and_add_up() {
    List<Source> sources = Fixtures.sources("training/c.md",
        "| 专业 | 阶段 | 学时 | 费用（元） |\n|---|---|---|---|\n| 烘焙 | 初级 | 20 | 900 |\n"
            + "| 烘焙 | 中级 | 30 | 1500 |\n");

    assertThat(check("烘焙 初级、中级 的费用合计：900 + 1500 = 2400 元[1]。", sources).unsupported())
        .isEmpty();
    // a result that does not add up is a number the passage does not hold
    assertThat(check("烘焙 初级、中级 的费用合计：900 + 1500 = 2500 元[1]。", sources).unsupported())
        .containsExactly(1);
    // an operand the passage does not hold
    assertThat(check("烘焙 初级、中级 的费用合计：900 + 1600 = 2500 元[1]。", sources).unsupported())
        .containsExactly(1);
    assertThat(SupportChecker.withoutDerived("合计：1,200 + 1,800 = 3000 USD.")).isEqualTo(
        "合计：1,200 1,800.");
  }

  @Test
  void should_read_a_sum_of_cells_with_a_currency_sign_or_a_unit_as_table_sums_write_them() {
    // TableSum quotes the cells as written; the check must read them with the same grammar
    List<Source> sources = Fixtures.sources("training/d.md",
        "| 专业 | 阶段 | 学时 | 费用 |\n|---|---|---|---|\n| 烘焙 | 初级 | 20h | ¥900 |\n"
            + "| 烘焙 | 中级 | 30h | ¥1,500 |\n");

    assertThat(check("烘焙 初级、中级 的费用合计：¥900 + ¥1,500 = 2400[1]。", sources).unsupported())
        .isEmpty();
    assertThat(check("烘焙 初级、中级 的学时合计：20h + 30h = 50 h[1]。", sources).unsupported())
        .isEmpty();
    assertThat(check("烘焙 初级、中级 的费用合计：¥900 + ¥1,500 = 2500[1]。", sources).unsupported())
        .containsExactly(1);
    assertThat(SupportChecker.withoutDerived("Total: $1,200 + $800 = 2000 USD.")).isEqualTo(
        "Total: $1,200 $800.");
  }
}
