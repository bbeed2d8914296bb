package org.openbook.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SentenceSplitterTest {

  private static List<String> sentences(String text) {
    return SentenceSplitter.split(text).stream().map(s -> s.of(text)).toList();
  }

  @Test
  void should_split_chinese_at_full_stop_exclamation_and_question_mark_R05() {
    assertThat(sentences("系统每晚两点自动备份。备份文件保留三十天！需要恢复怎么办？请提交工单。"))
        .containsExactly("系统每晚两点自动备份。", "备份文件保留三十天！", "需要恢复怎么办？", "请提交工单。");
  }

  @Test
  void should_split_mixed_english_and_chinese_keeping_trailing_space_R05() {
    assertThat(sentences("Backups run nightly. 备份保留三十天。"))
        .containsExactly("Backups run nightly. ", "备份保留三十天。");
  }

  @Test
  void should_end_sentences_at_chinese_semicolon_and_ellipsis() {
    assertThat(sentences("先备份；再升级……然后重启…最后验证。"))
        .containsExactly("先备份；", "再升级……", "然后重启…", "最后验证。");
  }

  @Test
  void should_keep_closing_quotes_and_brackets_with_the_sentence() {
    assertThat(sentences("他说：“明天再议。”大家同意。")).containsExactly("他说：“明天再议。”", "大家同意。");
    assertThat(sentences("「好的！」然后走了。（见附件。）结束"))
        .containsExactly("「好的！」", "然后走了。", "（见附件。）", "结束");
    assertThat(sentences("He said \"stop.\" Then he left."))
        .containsExactly("He said \"stop.\" ", "Then he left.");
  }

  @Test
  void should_keep_a_run_of_terminators_together() {
    assertThat(sentences("真的吗？！好。")).containsExactly("真的吗？！", "好。");
    assertThat(sentences("Really?! Yes... ok.")).containsExactly("Really?! ", "Yes... ", "ok.");
  }

  @Test
  void should_not_split_periods_inside_numbers_versions_and_file_names() {
    assertThat(sentences("Use zlib.h and v1.2.3 with pi 3.14 now. Next."))
        .containsExactly("Use zlib.h and v1.2.3 with pi 3.14 now. ", "Next.");
    assertThat(sentences("参照GB/T 22239第8.1.4条执行。版本v2.0.1已发布。"))
        .containsExactly("参照GB/T 22239第8.1.4条执行。", "版本v2.0.1已发布。");
  }

  @Test
  void should_not_split_after_common_abbreviations() {
    assertThat(sentences("See e.g. the manual. Mr. Smith and Dr. Li agreed, i.e. all of them. "
        + "Apples vs. pears, etc. are fine. Room No. 5 is open."))
        .containsExactly(
            "See e.g. the manual. ",
            "Mr. Smith and Dr. Li agreed, i.e. all of them. ",
            "Apples vs. pears, etc. are fine. ",
            "Room No. 5 is open.");
  }

  @Test
  void should_treat_no_before_a_non_digit_as_a_word() {
    assertThat(sentences("The answer was No. Then we left."))
        .containsExactly("The answer was No. ", "Then we left.");
  }

  @Test
  void should_not_split_after_a_list_number_at_line_start() {
    assertThat(sentences("1. Install it\n2. Run it")).containsExactly("1. Install it\n2. Run it");
  }

  @Test
  void should_split_at_blank_line_but_not_at_single_line_break() {
    assertThat(sentences("第一行没有句号\n第二行也没有\n\n新段落"))
        .containsExactly("第一行没有句号\n第二行也没有\n\n", "新段落");
    assertThat(sentences("Line one\nline two. Next")).containsExactly("Line one\nline two. ", "Next");
    assertThat(sentences("甲\n  \n乙")).containsExactly("甲\n  \n", "乙");
  }

  @Test
  void should_give_trailing_newline_to_the_sentence_before_it() {
    assertThat(sentences("第一句。\n第二句。\n")).containsExactly("第一句。\n", "第二句。\n");
  }

  @Test
  void should_not_start_a_sentence_with_closing_punctuation() {
    assertThat(sentences("好。，然后")).containsExactly("好。，", "然后");
    assertThat(sentences("Hi. , then")).containsExactly("Hi. , then");
  }

  @Test
  void should_return_no_span_for_empty_text_and_one_for_blank_text() {
    assertThat(SentenceSplitter.split("")).isEmpty();
    assertThat(SentenceSplitter.split("  \n")).containsExactly(new Span(0, 3));
  }

  @Test
  void should_split_a_region_with_absolute_offsets() {
    String text = "前言。甲句。乙句。后记。";
    assertThat(SentenceSplitter.split(text, 3, 9))
        .containsExactly(new Span(3, 6), new Span(6, 9));
  }

  @Test
  void should_cover_random_text_exactly_and_never_start_with_closing_punctuation() {
    String[] alphabet = {"系", "统", "a", "b", "1", ".", "。", "！", "？", "；", "…", "，", "、",
        "：", "”", "」", "）", " ", "\n", "𠮷", "e.g.", "?", "!", ","};
    Random random = new Random(42);
    for (int round = 0; round < 500; round++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(60);
      for (int k = 0; k < n; k++) {
        sb.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String text = sb.toString();
      List<Span> spans = SentenceSplitter.split(text);
      assertThat(String.join("", spans.stream().map(s -> s.of(text)).toList())).isEqualTo(text);
      for (int k = 0; k < spans.size(); k++) {
        assertThat(spans.get(k).length()).isPositive();
        if (k > 0) {
          assertThat(spans.get(k).start()).isEqualTo(spans.get(k - 1).end());
          assertThat(SentenceSplitter.isClosingPunctuation(text.charAt(spans.get(k).start())))
              .as("sentence %d of %s", k, text).isFalse();
        }
      }
    }
  }
}
