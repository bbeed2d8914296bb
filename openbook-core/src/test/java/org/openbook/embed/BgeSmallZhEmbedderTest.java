package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BgeSmallZhEmbedderTest {
  private static BgeSmallZhEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = new BgeSmallZhEmbedder();
  }

  @Test
  void should_return_unit_vectors_of_512_dimensions() {
    float[] v = embedder.embed("年假申请需提前三天提交。");
    assertThat(v).hasSize(512);
    assertThat(Vectors.cosine(v, v)).isCloseTo(1.0, within(1e-5));
    double norm = 0;
    for (float f : v) {
      norm += f * f;
    }
    assertThat(Math.sqrt(norm)).isCloseTo(1.0, within(1e-4));
  }

  @Test
  void should_rank_related_text_above_unrelated_text() {
    List<float[]> v = embedder.embedAll(List.of(
        "年假怎么申请？", "年假申请需提前三天提交。", "服务器机房禁止携带饮料。"));
    double related = Vectors.cosine(v.get(0), v.get(1));
    double unrelated = Vectors.cosine(v.get(0), v.get(2));
    assertThat(related).isGreaterThan(unrelated + 0.1);
  }

  @Test
  void should_count_one_token_per_chinese_character_plus_special_tokens() {
    assertThat(embedder.countTokens("年假申请")).isEqualTo(4 + 2);
  }

  @Test
  void should_reject_input_over_the_token_limit_instead_of_cutting_it() {
    String longText = "年".repeat(600);
    assertThatThrownBy(() -> embedder.embed(longText))
        .isInstanceOf(InputTooLongException.class)
        .hasMessageContaining("602 tokens");
  }

  @Test
  void should_answer_fits_tokens_exactly_as_the_count_does_with_or_without_tokenizing() {
    // bound below the limit (no tokenizer), and texts where only the exact count decides
    List<String> texts = List.of("年假申请", "年".repeat(509), "年".repeat(510),
        "trace com.example.Demo " + "word ".repeat(150), "한국어".repeat(200));
    for (String t : texts) {
      int n = embedder.countTokens(t);
      for (int limit : new int[] {n - 1, n, n + 1, 512}) {
        assertThat(embedder.fitsTokens(t, limit)).as("%d tokens within %d", n, limit)
            .isEqualTo(n <= limit);
      }
    }
  }

  @Test
  void should_report_the_exact_count_when_rejecting_a_text_the_bound_cannot_settle() {
    // 511 chars: bound 513 > 512, exact count 513 -> rejected with the exact count
    assertThatThrownBy(() -> embedder.embed("年".repeat(511)))
        .isInstanceOf(InputTooLongException.class)
        .hasMessageContaining("513 tokens");
    assertThat(embedder.embed("年".repeat(510))).hasSize(512);
  }
}
