package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LanguageDetectorTest {

  @Test
  void should_route_plain_chinese_and_english_by_script() {
    assertThat(LanguageDetector.detect("年假申请需要提前几天提交？")).isEqualTo(Language.ZH);
    assertThat(LanguageDetector.detect("How many days are nightly backups kept?"))
        .isEqualTo(Language.EN);
  }

  @Test
  void should_route_traditional_chinese_to_the_chinese_model() {
    assertThat(LanguageDetector.detect("臺灣的首都是哪一個城市？")).isEqualTo(Language.ZH);
    assertThat(LanguageDetector.detect("這個錯誤碼 ERR_4517 應該怎麼處理")).isEqualTo(Language.ZH);
  }

  @Test
  void should_keep_chinese_text_full_of_identifiers_chinese() {
    // 6 Han characters against 4 Latin words: 0.6 of the units
    assertThat(LanguageDetector.detect("在 Spring Boot 中配置 DataSource 的 url"))
        .isEqualTo(Language.ZH);
    // a Chinese question about a Java class name: 9 Han, 3 words
    assertThat(LanguageDetector.detect("org.openbook.engine.OpenBook 这个类是做什么的？"))
        .isEqualTo(Language.ZH);
  }

  @Test
  void should_keep_english_text_quoting_a_chinese_name_english() {
    // 2 Han characters against 9 Latin words: 0.18 of the units
    assertThat(LanguageDetector.detect("The 2008 Olympic Games were held in 北京 (Beijing), China."))
        .isEqualTo(Language.EN);
  }

  @Test
  void should_count_han_characters_and_latin_words() {
    LanguageDetector.ScriptCounts c = LanguageDetector.count("VPN 连接失败 ERR_4517, retry");
    assertThat(c.han()).isEqualTo(4);
    // VPN, ERR, retry: digits and '_' end a word
    assertThat(c.latinWords()).isEqualTo(3);
  }

  @Test
  void should_call_text_without_either_script_english() {
    assertThat(LanguageDetector.detect("")).isEqualTo(Language.EN);
    assertThat(LanguageDetector.detect(null)).isEqualTo(Language.EN);
    assertThat(LanguageDetector.detect("4517 / 2024-01-02")).isEqualTo(Language.EN);
  }
}
