package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class BoundedInputTest {

  /** One token per code point plus [CLS] and [SEP], limit 20 tokens. */
  private static final Embedder PER_CHAR = new Embedder() {
    @Override public String modelId() { return "per-char"; }
    @Override public int dimension() { return 1; }
    @Override public int maxInputTokens() { return 20; }
    @Override public int countTokens(String text) {
      return text.codePointCount(0, text.length()) + 2;
    }
    @Override public List<float[]> embedAll(List<String> texts) {
      throw new UnsupportedOperationException();
    }
  };

  @Test
  void should_keep_a_text_that_fits_unchanged() {
    assertThat(BoundedInput.of("年假怎么申请", PER_CHAR)).isEqualTo("年假怎么申请");
    String exactly18 = "一二三四五六七八九十一二三四五六七八";
    assertThat(BoundedInput.of(exactly18, PER_CHAR)).isEqualTo(exactly18);
  }

  @Test
  void should_keep_both_ends_of_an_over_long_text_within_the_limit() {
    String text = "开头说明" + "很长的日志".repeat(20) + "请问怎么办";

    String bounded = BoundedInput.of(text, PER_CHAR);

    assertThat(PER_CHAR.countTokens(bounded)).isLessThanOrEqualTo(20);
    // 18 code points left: " … " is 3, so 15 kept: 8 from the start, 7 from the end
    assertThat(bounded).isEqualTo("开头说明很长的日 … 日志请问怎么办");
  }
}
