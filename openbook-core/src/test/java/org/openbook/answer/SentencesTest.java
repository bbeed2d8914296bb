package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SentencesTest {

  @Test
  void should_split_on_chinese_and_english_end_punctuation() {
    assertThat(Sentences.split("今天下雨。我们改在室内开会！会议几点？ It starts at 10. Bring 8.1.4 docs"))
        .containsExactly("今天下雨。", "我们改在室内开会！", "会议几点？", "It starts at 10.",
            "Bring 8.1.4 docs");
  }

  @Test
  void should_keep_closing_quotes_and_trailing_markers_with_their_sentence() {
    assertThat(Sentences.split("他说“好。”[1]下一句？！[2][3]\n新行"))
        .containsExactly("他说“好。”[1]", "下一句？！[2][3]", "新行");
  }

  @Test
  void should_count_letters_and_digits_without_markers() {
    assertThat(Sentences.contentLength("逾期作废[0]。")).isEqualTo(4);
    assertThat(Sentences.contentLength("1.")).isEqualTo(1);
  }
}
