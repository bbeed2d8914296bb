package org.openbook.chunk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SegmenterTest {

  private static List<String> texts(String text, List<Span> spans) {
    return spans.stream().map(s -> s.of(text)).toList();
  }

  private static List<Integer> starts(List<Span> spans) {
    return spans.stream().map(Span::start).toList();
  }

  @Test
  void should_keep_full_stop_at_the_end_of_each_chunk_R04() {
    String text = "今天下雨。我们改在室内开会。会议十点开始。";
    assertThat(texts(text, new Segmenter(14, 0).segment(text)))
        .containsExactly("今天下雨。我们改在室内开会。", "会议十点开始。");
    assertThat(texts(text, new Segmenter(9, 0).segment(text)))
        .containsExactly("今天下雨。", "我们改在室内开会。", "会议十点开始。");
  }

  @Test
  void should_overlap_by_whole_trailing_sentences_that_fit_R05() {
    String text = "系统每晚两点自动备份。备份文件保留三十天！需要恢复怎么办？请提交工单。";
    assertThat(texts(text, new Segmenter(20, 8).segment(text)))
        .containsExactly("系统每晚两点自动备份。", "备份文件保留三十天！需要恢复怎么办？", "需要恢复怎么办？请提交工单。");
  }

  @Test
  void should_give_repeated_chunks_their_own_offsets_R08() {
    String text = "风险提示。风险提示。风险提示。";
    assertThat(starts(new Segmenter(5, 0).segment(text))).containsExactly(0, 5, 10);

    List<Span> b = new Segmenter(10, 5).segment(text);
    assertThat(texts(text, b)).containsExactly("风险提示。风险提示。", "风险提示。风险提示。");
    assertThat(starts(b)).containsExactly(0, 5);
  }

  @Test
  void should_hard_split_a_run_without_boundary_at_the_limit_R09() {
    String text = "目录" + "·".repeat(1200) + "第一章";
    List<Span> spans = new Segmenter(300, 0).segment(text);
    assertThat(spans).extracting(Span::length).containsExactly(300, 300, 300, 300, 5);
    assertThat(String.join("", texts(text, spans))).isEqualTo(text);
  }

  @Test
  void should_keep_dot_leaders_within_the_limit_without_losing_text_R09() {
    String text = ". ".repeat(800);
    List<Span> spans = new Segmenter(300, 0).segment(text);
    assertThat(spans).allSatisfy(s -> assertThat(s.length()).isLessThanOrEqualTo(300));
    assertThat(String.join("", texts(text, spans))).isEqualTo(text);
  }

  @Test
  void should_never_cut_between_surrogates_R09() {
    String text = "𠮷".repeat(400);
    List<Span> spans = new Segmenter(300, 0).segment(text);
    assertThat(String.join("", texts(text, spans))).isEqualTo(text);
    assertThat(spans).allSatisfy(s -> {
      assertThat(s.length()).isLessThanOrEqualTo(300);
      assertThat(Character.isLowSurrogate(text.charAt(s.start()))).isFalse();
      assertThat(Character.isHighSurrogate(text.charAt(s.end() - 1))).isFalse();
    });
    // An odd limit must still cut between whole code points.
    List<Span> odd = new Segmenter(301, 0).segment(text);
    assertThat(odd).extracting(Span::length).containsExactly(300, 300, 200);
  }

  @Test
  void should_never_cut_inside_a_grapheme_cluster() {
    String text = "e\u0301".repeat(200); // e + combining acute accent
    List<Span> spans = new Segmenter(301, 0).segment(text);
    assertThat(spans).extracting(Span::length).containsExactly(300, 100);
  }

  @Test
  void should_move_a_hard_cut_so_the_next_piece_does_not_start_with_a_comma() {
    String text = "甲，".repeat(200);
    List<Span> spans = new Segmenter(301, 0).segment(text);
    assertThat(spans).extracting(Span::length).containsExactly(300, 100);
    assertThat(text.charAt(spans.get(1).start())).isEqualTo('甲');
  }

  @Test
  void should_hard_split_after_whitespace_rather_than_inside_a_word() {
    String text = "word ".repeat(30);
    List<Span> spans = new Segmenter(32, 0).segment(text);
    assertThat(texts(text, spans)).containsOnly("word ".repeat(6)).hasSize(5);
  }

  @Test
  void should_hard_split_at_a_line_break_before_other_whitespace() {
    String text = "甲乙丙丁戊己庚\n辛 壬癸子丑寅";
    assertThat(texts(text, new Segmenter(12, 0).segment(text)))
        .containsExactly("甲乙丙丁戊己庚\n", "辛 壬癸子丑寅");
  }

  @Test
  void should_pack_a_hard_split_tail_with_the_following_sentence() {
    String text = "甲".repeat(12) + "。乙。";
    assertThat(texts(text, new Segmenter(10, 0).segment(text)))
        .containsExactly("甲".repeat(10), "甲甲。乙。");
  }

  @Test
  void should_not_use_hard_split_pieces_as_overlap() {
    String text = "甲".repeat(12) + "。乙。";
    assertThat(texts(text, new Segmenter(10, 4).segment(text)))
        .containsExactly("甲".repeat(10), "甲甲。乙。");
  }

  @Test
  void should_respect_an_extra_fit_by_hard_splitting_shorter() {
    String text = "一二三四五六七八九十。";
    Segmenter.Fit atMostFour = (s, e) -> e - s <= 4;
    List<Span> spans = new Segmenter(100, 0).pack(text, SentenceSplitter.split(text), atMostFour);
    assertThat(texts(text, spans)).containsExactly("一二三四", "五六七八", "九十。");
  }

  @Test
  void should_pack_given_units_such_as_lines() {
    String text = "a = 1\nb = 2\nc = 3\n";
    List<Span> lines = List.of(new Span(0, 6), new Span(6, 12), new Span(12, 18));
    assertThat(texts(text, new Segmenter(12, 0).pack(text, lines, Segmenter.Fit.ANY)))
        .containsExactly("a = 1\nb = 2\n", "c = 3\n");
  }

  @Test
  void should_report_a_budget_that_admits_no_text() {
    assertThatThrownBy(() -> new Segmenter(10, 0).pack("abc", List.of(new Span(0, 3)),
        (s, e) -> false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset 0");
  }

  @Test
  void should_reject_bad_bounds() {
    assertThatThrownBy(() -> new Segmenter(1, 0)).hasMessageContaining("maxChars");
    assertThatThrownBy(() -> new Segmenter(10, 10)).hasMessageContaining("overlapChars");
  }

  private static int longestClosingRun(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = SentenceSplitter.isClosingPunctuation(text.charAt(i)) ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest;
  }

  @Test
  void should_keep_invariants_on_random_text() {
    String[] alphabet = {"系统", "备份", "a", "bc", "1", ".", "。", "！", "？", "；", "…", "，",
        "」", " ", "\n", "\n\n", "𠮷", "·", "Mr.", "3.14"};
    Random random = new Random(7);
    for (int round = 0; round < 300; round++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(200);
      for (int k = 0; k < n; k++) {
        sb.append(alphabet[random.nextInt(alphabet.length)]);
      }
      String text = sb.toString();
      int max = 2 + random.nextInt(40);
      int overlap = random.nextInt(max / 2 + 1);
      List<Span> sentences = SentenceSplitter.split(text);
      List<Integer> sentenceStarts = new ArrayList<>(starts(sentences));

      List<Span> plain = new Segmenter(max, 0).segment(text);
      assertThat(String.join("", texts(text, plain))).as(text).isEqualTo(text);
      for (int k = 0; k < plain.size(); k++) {
        Span s = plain.get(k);
        assertThat(s.length()).isBetween(1, max);
        // Achievable whenever no run of closing punctuation fills a whole chunk.
        if (k > 0 && longestClosingRun(text) < max - 1) {
          assertThat(SentenceSplitter.isClosingPunctuation(text.charAt(s.start())))
              .as("chunk %d of %s (max %d)", k, text, max).isFalse();
        }
      }

      List<Span> overlapped = new Segmenter(max, overlap).segment(text);
      for (int k = 1; k < overlapped.size(); k++) {
        Span prev = overlapped.get(k - 1);
        Span cur = overlapped.get(k);
        assertThat(cur.start()).isGreaterThan(prev.start());
        assertThat(cur.end()).isGreaterThan(prev.end());
        assertThat(cur.length()).isLessThanOrEqualTo(max);
        if (cur.start() < prev.end()) {
          // the overlap is whole sentences and within budget
          assertThat(prev.end() - cur.start()).isLessThanOrEqualTo(overlap);
          assertThat(sentenceStarts).contains(cur.start());
        } else {
          assertThat(cur.start()).isEqualTo(prev.end());
        }
      }
    }
  }
}
