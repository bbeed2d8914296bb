package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;

class KeyTermsTest {

  private final KeyTerms keyTerms = new KeyTerms(OpenBookAnalysis.defaultAnalysis());

  private List<String> texts(String question) {
    return keyTerms.of(question).stream().map(KeyTerm::text).toList();
  }

  @Test
  void should_keep_the_identifier_and_drop_question_words_r28() {
    List<KeyTerm> terms = keyTerms.of("ERR_4517 是什么意思");

    assertThat(terms).hasSize(1);
    assertThat(terms.get(0).text()).isEqualTo("ERR_4517");
    assertThat(terms.get(0).tokens()).containsExactly("err_4517");
    assertThat(terms.get(0).identifier()).isTrue();
    assertThat(terms.get(0).han()).isFalse();
  }

  @Test
  void should_give_content_words_with_their_index_tokens() {
    assertThat(texts("VPN")).containsExactly("VPN");
    assertThat(texts("明天天气怎么样")).containsExactly("明天", "天气");
    assertThat(texts("你是谁")).isEmpty();
    assertThat(texts("云管家拦截越权访问，对应 GB/T 22239 的哪一条？"))
        .contains("拦截", "越权", "访问", "GB/T 22239").doesNotContain("哪一条");
    KeyTerm standard = keyTerms.of("GB/T 22239 的哪一条").get(0);
    assertThat(standard.tokens()).containsExactly("gb/t22239");
    assertThat(standard.identifier()).isTrue();
  }

  @Test
  void should_drop_english_question_words_and_stop_words() {
    assertThat(texts("What is the retail price of the AQ-300 in Germany?"))
        .containsExactly("retail", "price", "AQ-300", "Germany");
  }

  @Test
  void should_drop_english_auxiliaries_and_pronouns_of_the_snowball_stop_list() {
    // "have" was named as a missing subject ("The documents say nothing about have.").
    assertThat(texts("How many days do I have to submit travel expense claims?"))
        .containsExactly("days", "submit", "travel", "expense", "claims");
    assertThat(texts("Has the printer been moved by them, and where is it?"))
        .containsExactly("printer", "moved");
  }
}
