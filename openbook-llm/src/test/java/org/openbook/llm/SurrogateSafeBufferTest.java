package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SurrogateSafeBufferTest {

  private static final String ANSWER = "证书已过期，请联系管理员。𠮷";

  @Test
  void should_hold_back_a_trailing_high_surrogate_until_its_low_surrogate_arrives_r19() {
    // feed 3: one token ends with the high surrogate of 𠮷, the next starts with the low one
    int split = ANSWER.length() - 1;
    assertThat(Character.isHighSurrogate(ANSWER.charAt(split - 1))).isTrue();
    SurrogateSafeBuffer buffer = new SurrogateSafeBuffer();
    List<String> emitted = new ArrayList<>();

    emitted.add(buffer.push(ANSWER.substring(0, split)));
    emitted.add(buffer.push(ANSWER.substring(split)));
    emitted.add(buffer.flush());

    assertThat(emitted).containsExactly("证书已过期，请联系管理员。", "𠮷", "");
    assertThat(String.join("", emitted)).isEqualTo(ANSWER);
    emitted.forEach(piece -> assertThat(isWellFormed(piece)).as(piece).isTrue());
  }

  @Test
  void should_keep_every_piece_well_formed_for_one_char_pieces() {
    SurrogateSafeBuffer buffer = new SurrogateSafeBuffer();
    StringBuilder all = new StringBuilder();
    for (char c : ANSWER.toCharArray()) {
      String piece = buffer.push(String.valueOf(c));
      assertThat(isWellFormed(piece)).isTrue();
      all.append(piece);
    }
    all.append(buffer.flush());

    assertThat(all.toString()).isEqualTo(ANSWER);
  }

  @Test
  void should_pass_a_lone_surrogate_through_at_the_end_so_no_text_is_lost() {
    SurrogateSafeBuffer buffer = new SurrogateSafeBuffer();

    assertThat(buffer.push("a\uD842")).isEqualTo("a");
    assertThat(buffer.push("")).isEmpty();
    assertThat(buffer.flush()).isEqualTo("\uD842");
    assertThat(buffer.flush()).isEmpty();
  }

  /** True when the string has no unpaired surrogate, i.e. it encodes to UTF-8 losslessly. */
  static boolean isWellFormed(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s);
  }
}
