package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The normalisation step before analysis (R25, R30 and line-break hyphens). */
class NormalizedTextTest {

  private static final char ZWSP = '\u200B';
  private static final char SOFT_HYPHEN = '\u00AD';

  private final OpenBookAnalysis bigram = OpenBookAnalysis.defaultAnalysis();

  // R30: zero-width spaces inside a CamelCase name and a Chinese word, a soft hyphen inside 恢复.
  @Test
  void should_remove_invisible_characters_inside_words() {
    String svc = "由 Invoice" + ZWSP + "Reconcile" + ZWSP + "Job 执行";
    String storage = "需要提交工" + ZWSP + "单。";
    String backup = "恢" + SOFT_HYPHEN + "复演练";

    assertThat(NormalizedText.of(svc).text()).isEqualTo("由 InvoiceReconcileJob 执行");
    assertThat(bigram.tokenize(svc)).contains("invoicereconcilejob");
    assertThat(bigram.tokenize(storage)).contains("工单");
    assertThat(bigram.tokenize(backup)).containsExactly("恢复", "复演", "演练");
  }

  // Same kind, constructed: the other invisible format characters, in a question.
  @ParameterizedTest
  @ValueSource(chars = {'\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF', '\u00AD', '\u200E',
      '\u202A', '\u2066', '\u180E'})
  void should_give_the_same_tokens_with_any_invisible_character_in_a_word(char invisible) {
    assertThat(bigram.tokenize("Cert" + invisible + "Renew" + invisible + "Bot 证" + invisible
        + "书")).isEqualTo(bigram.tokenize("CertRenewBot 证书"));
  }

  @Test
  void should_keep_offsets_in_the_original_text_across_removed_characters() throws Exception {
    String text = "月末由 Invoice" + ZWSP + "Reconcile" + ZWSP + "Job 执行";

    List<Token> tokens = tokens(text);

    Token whole = tokens.stream().filter(t -> t.term.equals("invoicereconcilejob")).findFirst()
        .orElseThrow();
    // The quoted text is the original, invisible characters included.
    assertThat(text.substring(whole.start, whole.end))
        .isEqualTo("Invoice" + ZWSP + "Reconcile" + ZWSP + "Job");
  }

  // R25: Traditional and Simplified spellings give the same BM25 tokens.
  @Test
  void should_fold_traditional_to_simplified_with_offsets_unchanged() throws Exception {
    String tw = "員工請病假超過三天，須於返回辦公室後五個工作日內補交醫院開立的診斷證明。";

    assertThat(NormalizedText.of(tw).text())
        // NFKC also folds the full-width comma
        .isEqualTo("员工请病假超过三天,须于返回办公室后五个工作日内补交医院开立的诊断证明。");
    assertThat(bigram.tokenize(tw)).contains("诊断", "证明", "补交", "病假");
    assertThat(NormalizedText.of(tw, false).text()).isEqualTo(tw.replace('，', ','));
    Token first = tokens(tw).get(0);
    assertThat(tw.substring(first.start, first.end)).isEqualTo("員工");
  }

  // Same kind, constructed: a Traditional question against Simplified text, and the reverse.
  @Test
  void should_make_the_script_of_the_question_irrelevant() {
    assertThat(bigram.tokenize("資料庫備份保留幾天")).isEqualTo(bigram.tokenize("资料库备份保留几天"));
    assertThat(OpenBookAnalysis.of(OpenBookAnalysis.Strategy.SMARTCN).tokenize("網絡連接"))
        .isEqualTo(OpenBookAnalysis.of(OpenBookAnalysis.Strategy.SMARTCN).tokenize("网络连接"));
  }

  @Test
  void should_rejoin_an_english_word_hyphenated_across_a_line_break() throws Exception {
    String pdf = "Backups need infor-\nmation about the re-\n  tention policy.";

    assertThat(NormalizedText.of(pdf).text())
        .isEqualTo("Backups need information about the retention policy.");
    assertThat(bigram.tokenize(pdf)).containsExactly(
        "backup", "need", "inform", "about", "retent", "polici");
    Token joined = tokens(pdf).get(2);
    assertThat(pdf.substring(joined.start, joined.end)).isEqualTo("infor-\nmation");
  }

  @Test
  void should_keep_the_hyphen_of_an_identifier_broken_across_a_line() {
    assertThat(NormalizedText.of("see ZQ-\n7781 and COVID-\r\n19").text())
        .isEqualTo("see ZQ-7781 and COVID-19");
    assertThat(bigram.tokenize("巡检 ZQ-\n7781。")).containsExactly("巡检", "zq-7781");
    // The tail of a compound identifier is never glued either.
    assertThat(NormalizedText.of("conf/sync-wor-\nker.yaml").text())
        .isEqualTo("conf/sync-wor-ker.yaml");
  }

  @Test
  void should_leave_hyphens_inside_a_line_and_across_blank_lines_alone() {
    String text = "ZQ-7781 is well-known; a list -\nitem; end-\n\nnext";

    assertThat(NormalizedText.of(text).text()).isEqualTo(text);
  }

  @Test
  void should_fold_full_width_forms_and_keep_offsets() throws Exception {
    String text = "ＥＲＲ＿４５１７全角";

    assertThat(NormalizedText.of(text).text()).isEqualTo("ERR_4517全角");
    assertThat(tokens(text).get(0).end).isEqualTo(8);
  }

  private record Token(String term, int start, int end) {}

  private List<Token> tokens(String text) throws Exception {
    List<Token> out = new ArrayList<>();
    try (Analyzer a = bigram.analyzer(); TokenStream ts = a.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(new Token(term.toString(), off.startOffset(), off.endOffset()));
      }
      ts.end();
    }
    return out;
  }
}
