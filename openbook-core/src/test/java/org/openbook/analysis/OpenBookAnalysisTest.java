package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openbook.analysis.OpenBookAnalysis.Strategy;

class OpenBookAnalysisTest {

  private static final String R02_TEXT = "请排查ERR_4517与ZQ-7781的兼容性，参照GB/T 22239第8.1.4条。";

  private final OpenBookAnalysis bigram = OpenBookAnalysis.defaultAnalysis();

  // R01: the query and the document share the token 年假 (same analysis on both sides).
  @Test
  void should_share_a_token_between_chinese_query_and_document() {
    List<String> query = bigram.tokenize("年假怎么申请");
    List<String> doc = bigram.tokenize("年假申请需提前三天提交");

    assertThat(query).containsExactly("年假", "假怎", "怎么", "么申", "申请");
    assertThat(doc).contains("年假", "申请");
    assertThat(bigram.tokenize("年假")).containsExactly("年假");
  }

  // R02: exact tokens of the mixed text with the default (CJK bigram) strategy.
  @Test
  void should_keep_each_identifier_as_one_token_among_chinese_bigrams() {
    assertThat(bigram.tokenize(R02_TEXT)).containsExactly(
        "请排", "排查", "err_4517", "与", "zq-7781", "的兼", "兼容", "容性", "参照", "gb/t22239",
        "第", "8.1.4", "条");
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void should_emit_no_identifier_fragments_with_any_strategy(Strategy strategy) {
    List<String> tokens = OpenBookAnalysis.of(strategy).tokenize(R02_TEXT);

    assertThat(tokens).contains("err_4517", "zq-7781", "gb/t22239", "8.1.4");
    assertThat(tokens).doesNotContain(
        "_", "-", "/", "t", "err", "zq", "gb", "4517", "7781", "22239", "8", "1", "4", "8.1");
  }

  @ParameterizedTest
  @ValueSource(strings = {"GB/T 22239", "GB/T22239", "gb/t22239", "gb/t 22239", "ＧＢ／Ｔ　２２２３９"})
  void should_normalise_every_spelling_of_a_standard_number_to_one_token(String spelling) {
    assertThat(bigram.tokenize(spelling)).containsExactly("gb/t22239");
  }

  @Test
  void should_join_standard_body_and_number_in_either_case() {
    assertThat(bigram.tokenize("ISO 9001")).containsExactly("iso9001");
    assertThat(bigram.tokenize("iso 9001")).containsExactly("iso9001");
    assertThat(bigram.tokenize("ISO/IEC 27001")).containsExactly("iso/iec27001");
  }

  @Test
  void should_not_join_ordinary_words_with_following_numbers() {
    assertThat(bigram.tokenize("chapter 3 of Windows 10")).containsExactly(
        "chapter", "3", "window", "10");
  }

  @Test
  void should_keep_file_names_versions_dates_and_codes_whole() {
    assertThat(bigram.tokenize(
        "zlib.h 8.1.4 8.1.4.1 E-101 LX-78 2025-03-15 v1.2.3 user.name utf8"))
        .containsExactly(
            "zlib.h", "8.1.4", "8.1.4.1", "e-101", "lx-78", "2025-03-15", "v1.2.3", "user.name",
            // a name built from two words also gives its parts (stacked on the whole)
            "user", "name", "utf8");
  }

  @Test
  void should_split_a_compiler_flag_at_equals_and_drop_leading_punctuation() {
    assertThat(bigram.tokenize("-DZLIB_ROOT=/opt/zlib-1.3"))
        .containsExactly("dzlib_root", "dzlib", "root", "opt/zlib-1.3", "opt", "zlib-1.3", "zlib");
  }

  @Test
  void should_not_glue_sentence_punctuation_to_identifiers() {
    assertThat(bigram.tokenize("Include zlib.h. Then see v1.2.3: done"))
        .containsExactly("includ", "zlib.h", "see", "v1.2.3", "done");
  }

  // R33: a dotted class name, a URL path and a file path are indexed whole and by their parts.
  @Test
  void should_index_compound_identifiers_whole_and_by_their_parts() {
    assertThat(bigram.tokenize("com.acme.billing.InvoiceSyncService")).containsExactly(
        "com.acme.billing.invoicesyncservice", "com", "acm", "bill", "invoicesyncservic",
        "invoic", "sync", "servic");
    assertThat(bigram.tokenize("/api/v2/orders/export")).containsExactly(
        "api/v2/orders/export", "api", "v2", "order", "export");
    assertThat(bigram.tokenize("conf/sync-worker.yaml")).containsExactly(
        "conf/sync-worker.yaml", "conf", "sync-worker.yaml", "sync", "worker", "yaml");
  }

  // Same kind, constructed: snake_case, CamelCase with an acronym, a Windows-style module path.
  @Test
  void should_split_snake_case_and_camel_case_with_acronyms() {
    assertThat(bigram.tokenize("max_retry_count HTTPServerConfig")).containsExactly(
        "max_retry_count", "max", "retri", "count", "httpserverconfig", "http", "server",
        "config");
    assertThat(bigram.tokenize("org.springframework.boot:spring-boot-starter")).containsExactly(
        "org.springframework.boot:spring-boot-starter", "org.springframework.boot", "org",
        "springframework", "boot", "spring-boot-starter", "spring", "boot", "starter");
  }

  @Test
  void should_stack_parts_on_the_whole_identifier_and_flag_them() throws Exception {
    List<TextAnalysis.Token> tokens = bigram.analyze("见 com.acme.Foo 类");

    assertThat(tokens).extracting(TextAnalysis.Token::term)
        .containsExactly("见", "com.acme.foo", "com", "acm", "foo", "类");
    assertThat(tokens).extracting(TextAnalysis.Token::part)
        .containsExactly(false, false, true, true, true, false);
    assertThat(positions("见 com.acme.Foo 类")).containsExactly(0, 1, 1, 1, 1, 2);
  }

  @Test
  void should_not_split_codes_that_are_not_built_from_words() {
    assertThat(bigram.tokenize("ERR_4517 ZQ-7781 zlib.h v1.2.3 backups-v2 IPv6 iPhone"))
        .containsExactly("err_4517", "zq-7781", "zlib.h", "v1.2.3", "backups-v2", "ipv6",
            "iphon");
  }

  @Test
  void should_lowercase_drop_stop_words_and_stem_english_words() {
    assertThat(bigram.tokenize("Backups running nightly")).containsExactly(
        "backup", "run", "nightli");
    assertThat(bigram.tokenize("The user's backups")).containsExactly("user", "backup");
  }

  @Test
  void should_never_stem_identifiers() {
    // The whole identifier is kept as written; its word parts are words and stemmed as such.
    assertThat(bigram.tokenize("running.log ERRORS_1 backups-v2")).containsExactly(
        "running.log", "run", "log", "errors_1", "backups-v2");
  }

  @Test
  void should_fold_full_width_forms_before_tokenising() {
    assertThat(bigram.tokenize("ＥＲＲ＿４５１７全角")).containsExactly("err_4517", "全角");
  }

  @Test
  void should_fold_traditional_chinese_to_simplified() {
    assertThat(bigram.tokenize("臺灣的電腦系統")).containsExactly(
        "台湾", "湾的", "的电", "电脑", "脑系", "系统");
    assertThat(bigram.tokenize("臺灣的電腦系統")).isEqualTo(bigram.tokenize("台湾的电脑系统"));
  }

  @Test
  void should_handle_supplementary_han_characters_as_one_character() {
    assertThat(bigram.tokenize("𠮷野家")).containsExactly("𠮷野", "野家");
  }

  @Test
  void should_give_every_token_of_a_cjk_run_its_share_of_the_run_bigrams_weight() {
    List<TextAnalysis.Token> ub =
        OpenBookAnalysis.of(Strategy.UNIGRAM_BIGRAM).analyze("申请年假，见 ERR_4517 与 日");
    assertThat(ub).extracting(TextAnalysis.Token::term).containsExactly(
        "申", "申请", "请", "请年", "年", "年假", "假", "见", "err_4517", "与", "日");
    // 申请年假: 4 unigrams + 3 bigrams share 3; a lone character and the identifier keep 1
    assertThat(ub).extracting(TextAnalysis.Token::share).containsExactly(
        3f / 7, 3f / 7, 3f / 7, 3f / 7, 3f / 7, 3f / 7, 3f / 7, 1f, 1f, 1f, 1f);
    assertThat(bigram.analyze("申请年假，见 ERR_4517")).extracting(TextAnalysis.Token::share)
        .containsOnly(1f);
    assertThat(OpenBookAnalysis.of(Strategy.SMARTCN).analyze("申请年假"))
        .extracting(TextAnalysis.Token::share).containsOnly(1f);
  }

  @Test
  void should_emit_unigrams_and_bigrams_with_unigram_bigram_strategy() {
    assertThat(OpenBookAnalysis.of(Strategy.UNIGRAM_BIGRAM).tokenize("年假申请 ERR_4517"))
        .containsExactly("年", "年假", "假", "假申", "申", "申请", "请", "err_4517");
  }

  @Test
  void should_segment_han_runs_into_words_with_smartcn_strategy() {
    OpenBookAnalysis smartcn = OpenBookAnalysis.of(Strategy.SMARTCN);

    assertThat(smartcn.tokenize("年假怎么申请")).containsExactly("年假", "怎么", "申请");
    assertThat(smartcn.tokenize(R02_TEXT)).containsExactly(
        "请", "排查", "err_4517", "与", "zq-7781", "的", "兼容", "性", "参照", "gb/t22239", "第",
        "8.1.4", "条");
  }

  @Test
  void should_report_offsets_into_the_original_text() throws Exception {
    assertThat(offsets("ＥＲＲ＿４５１７全角 GB/T 22239"))
        .containsExactly(List.of(0, 8), List.of(8, 10), List.of(11, 21));
    assertThat(offsets("我们在开会"))
        .containsExactly(List.of(0, 2), List.of(1, 3), List.of(2, 4), List.of(3, 5));
  }

  @Test
  void should_return_no_tokens_for_blank_or_punctuation_only_text() {
    assertThat(bigram.tokenize("")).isEmpty();
    assertThat(bigram.tokenize("  。，！ -- / _ ")).isEmpty();
    assertThat(bigram.tokenize("the of and")).isEmpty();
  }

  @Test
  void should_name_each_strategy_with_a_stable_id_and_resolve_it_back() {
    assertThat(bigram.id()).isEqualTo("openbook-cjk_bigram-v2");
    assertThat(OpenBookAnalysis.of(Strategy.UNIGRAM_BIGRAM).id())
        .isEqualTo("openbook-unigram_bigram-v2");
    assertThat(OpenBookAnalysis.of(Strategy.SMARTCN).id()).isEqualTo("openbook-smartcn-v2");
    assertThat(OpenBookAnalysis.forId("openbook-smartcn-v2").strategy())
        .isEqualTo(Strategy.SMARTCN);
  }

  @Test
  void should_refuse_an_unknown_id_and_list_the_known_ones() {
    assertThatThrownBy(() -> OpenBookAnalysis.forId("standard"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'standard'")
        .hasMessageContaining("openbook-cjk_bigram-v2");
    // Indexes built with the v1 tokens (before normalisation and identifier parts) are refused.
    assertThatThrownBy(() -> OpenBookAnalysis.forId("openbook-cjk_bigram-v1"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void should_give_a_new_analyzer_per_call_producing_the_tokenize_tokens() throws Exception {
    Analyzer a = bigram.analyzer();
    assertThat(a).isNotSameAs(bigram.analyzer());

    List<String> viaAnalyzer = new ArrayList<>();
    try (TokenStream ts = a.tokenStream("text", R02_TEXT)) {
      var term = ts.addAttribute(
          org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        viaAnalyzer.add(term.toString());
      }
      ts.end();
    }
    assertThat(viaAnalyzer).isEqualTo(bigram.tokenize(R02_TEXT));
  }

  @Test
  void should_tokenise_consistently_from_many_threads() throws Exception {
    OpenBookAnalysis smartcn = OpenBookAnalysis.of(Strategy.SMARTCN);
    List<String> expected = smartcn.tokenize(R02_TEXT);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> {
          for (int i = 0; i < 200; i++) {
            if (!smartcn.tokenize(R02_TEXT).equals(expected)) {
              return false;
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> f : results) {
        assertThat(f.get()).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Integer> positions(String text) throws Exception {
    List<Integer> out = new ArrayList<>();
    try (Analyzer a = bigram.analyzer(); TokenStream ts = a.tokenStream("text", text)) {
      var inc = ts.addAttribute(
          org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute.class);
      ts.reset();
      int pos = -1;
      while (ts.incrementToken()) {
        pos += inc.getPositionIncrement();
        out.add(pos);
      }
      ts.end();
    }
    return out;
  }

  private List<List<Integer>> offsets(String text) throws Exception {
    List<List<Integer>> out = new ArrayList<>();
    try (Analyzer a = bigram.analyzer(); TokenStream ts = a.tokenStream("text", text)) {
      OffsetAttribute off = ts.addAttribute(OffsetAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(List.of(off.startOffset(), off.endOffset()));
      }
      ts.end();
    }
    return out;
  }
}
