package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ChineseFoldingTest {

  @Test
  void should_fold_a_traditional_passage_to_simplified() {
    // DRCD-style sentence
    assertThat(ChineseFolding.toSimplifiedIfTraditional("臺灣的經濟發展與對外貿易關係密切。"))
        .isEqualTo("台湾的经济发展与对外贸易关系密切。");
    assertThat(ChineseFolding.isTraditional("這個錯誤碼應該怎麼處理")).isTrue();
  }

  @Test
  void should_leave_simplified_text_byte_identical() {
    // 著 and 乾 are valid Simplified in these words, yet the transform would change them
    String simplified = "乾隆年间的著名学者在这里讲学。";
    assertThat(ChineseFolding.isTraditional(simplified)).isFalse();
    assertThat(ChineseFolding.toSimplifiedIfTraditional(simplified)).isSameAs(simplified);
  }

  @Test
  void should_leave_english_and_identifiers_unchanged() {
    String english = "Nightly backups run at 02:00 (ERR_4517, zlib.h).";
    assertThat(ChineseFolding.toSimplifiedIfTraditional(english)).isSameAs(english);
    assertThat(ChineseFolding.toSimplifiedIfTraditional("連線失敗時出現 ERR_4517 請重設"))
        .isEqualTo("连线失败时出现 ERR_4517 请重设");
  }
}
