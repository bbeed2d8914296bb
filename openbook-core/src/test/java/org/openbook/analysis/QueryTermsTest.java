package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;

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
}
