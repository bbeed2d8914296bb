package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueryTermsTest {

  @ParameterizedTest
  @ValueSource(strings = {"err_4517", "zq-7781", "e2", "gb/t22239", "zlib.h", "8.1.4", "2025-03-15",
      "lx-78", "v1.2.3"})
  void should_recognise_identifier_tokens(String token) {
    assertThat(QueryTerms.isIdentifier(token)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024", "4.5", "年假", "backup", "申请", "10:00"})
  void should_not_treat_words_numbers_or_decimals_as_identifiers(String token) {
    assertThat(QueryTerms.isIdentifier(token)).isFalse();
  }

  @Test
  void should_boost_identifiers_and_deduplicate_terms() {
    List<QueryTerms.WeightedTerm> terms =
        QueryTerms.of(OpenBookAnalysis.defaultAnalysis(), "ERR_4517 报错，ERR_4517 怎么办");
    assertThat(terms).extracting(QueryTerms.WeightedTerm::term)
        .containsExactly("err_4517", "报错", "怎么", "么办");
    assertThat(terms.get(0).weight()).isEqualTo(QueryTerms.IDENTIFIER_BOOST);
    assertThat(terms.get(1).weight()).isEqualTo(1.0f);
  }

  // A run's unigrams and bigrams share the weight its bigrams have under CJK_BIGRAM, so the
  // identifier boost weighs the same against the Chinese words under both analyzers.
  @Test
  void should_give_a_chinese_run_the_same_total_weight_under_both_bigram_analyzers() {
    String q = "ZQ-7718 面板上显示 E2 是什么问题？";
    List<QueryTerms.WeightedTerm> bigram =
        QueryTerms.of(OpenBookAnalysis.of(OpenBookAnalysis.Strategy.CJK_BIGRAM), q);
    List<QueryTerms.WeightedTerm> unigram =
        QueryTerms.of(OpenBookAnalysis.of(OpenBookAnalysis.Strategy.UNIGRAM_BIGRAM), q);

    assertThat(unigram).extracting(QueryTerms.WeightedTerm::term).containsExactly(
        "zq-7718", "面", "面板", "板", "板上", "上", "上显", "显", "显示", "示", "e2",
        "是", "是什", "什", "什么", "么", "么问", "问", "问题", "题");
    // two runs of 5 characters: 5 unigrams + 4 bigrams carry the weight of 4 bigrams
    assertThat(unigram.get(1).weight()).isCloseTo(4f / 9, within(1e-6f));
    assertThat(total(unigram)).isCloseTo(total(bigram), within(1e-4));
    assertThat(total(bigram)).isCloseTo(2 * QueryTerms.IDENTIFIER_BOOST + 8, within(1e-4));
    assertThat(unigram.get(0).weight()).isEqualTo(QueryTerms.IDENTIFIER_BOOST);
    assertThat(unigram.get(10).weight()).isEqualTo(QueryTerms.IDENTIFIER_BOOST);
  }

  @Test
  void should_share_per_run_and_keep_a_lone_character_whole() {
    List<QueryTerms.WeightedTerm> terms = QueryTerms.of(
        OpenBookAnalysis.of(OpenBookAnalysis.Strategy.UNIGRAM_BIGRAM), "年假 天 ERR_4517");

    assertThat(terms).extracting(QueryTerms.WeightedTerm::term)
        .containsExactly("年", "年假", "假", "天", "err_4517");
    assertThat(terms).extracting(QueryTerms.WeightedTerm::weight)
        .containsExactly(1f / 3, 1f / 3, 1f / 3, 1f, QueryTerms.IDENTIFIER_BOOST);
  }

  private static double total(List<QueryTerms.WeightedTerm> terms) {
    return terms.stream().mapToDouble(QueryTerms.WeightedTerm::weight).sum();
  }
}
