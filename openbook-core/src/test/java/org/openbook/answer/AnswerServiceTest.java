package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.SearchResult;

class AnswerServiceTest {

  private static final String REFUSAL_ZH = "根据现有文档无法回答该问题。";
  private static final double GATE = 0.7;

  /** A generator that fails the test if it is ever called. */
  private static final Generator MUST_NOT_BE_CALLED = new Generator() {
    @Override
    public String id() {
      return "must-not-be-called";
    }

    @Override
    public String generate(String question, List<Source> sources, Consumer<String> onText) {
      throw new AssertionError("generator called although gate 1 should have refused");
    }
  };

  /** A generator that replies with fixed stream pieces and records what it saw. */
  private static final class ScriptedGenerator implements Generator {
    final List<String> pieces;
    final List<List<Source>> calls = new ArrayList<>();

    ScriptedGenerator(String... pieces) {
      this.pieces = List.of(pieces);
    }

    @Override
    public String id() {
      return "scripted";
    }

    @Override
    public String generate(String question, List<Source> sources, Consumer<String> onText) {
      calls.add(sources);
      pieces.forEach(onText);
      return String.join("", pieces);
    }
  }

  /** A retriever that returns one fixed retrieval and counts calls. */
  private static final class FixedRetriever implements Retriever {
    final SearchResult retrieval;
    int calls;

    FixedRetriever(SearchResult retrieval) {
      this.retrieval = retrieval;
    }

    @Override
    public SearchResult retrieve(Query query) {
      calls++;
      return retrieval;
    }
  }

  private static Query query(String text) {
    return Query.of(text, Principal.ANONYMOUS, 5);
  }

  private static SearchResult retrieval(double best, Hit... hits) {
    return new SearchResult(List.of(hits), best, hits.length, hits.length);
  }

  private static SearchResult r21Retrieval() {
    return retrieval(0.9,
        Fixtures.hit("hr/leave.md#0", "hr/leave.md", "年假需提前三天申请。", 0.9),
        Fixtures.hit("hr/leave.md#1", "hr/leave.md", "未休年假可顺延至次年三月。", 0.8),
        Fixtures.hit("it/vpn.md#0", "it/vpn.md", "VPN账号由IT部门开通。", 0.3));
  }

  @Test
  void should_refuse_without_calling_the_generator_when_best_cosine_is_below_threshold() {
    // R16: with a removed, the best similarity is c = 0.64 < 0.7
    FixedRetriever retriever = new FixedRetriever(
        retrieval(0.64, Fixtures.hit("c", "docs/c.md", "内容C", 0.64)));
    List<String> streamed = new ArrayList<>();

    Answer a = new AnswerService(retriever, MUST_NOT_BE_CALLED, GATE, RefusalPolicy.DEFAULT)
        .ask(query("年假怎么申请"), streamed::add);

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(a.text()).isEqualTo(REFUSAL_ZH);
    assertThat(a.citations()).isEmpty();
    assertThat(a.sources()).isEmpty();
    assertThat(a.diagnostics().bestDenseScore()).isEqualTo(0.64);
    assertThat(a.diagnostics().threshold()).isEqualTo(0.7);
    assertThat(a.diagnostics().generator()).isEmpty();
    assertThat(streamed).containsExactly(REFUSAL_ZH);
    assertThat(retriever.calls).isEqualTo(1);
  }

  @Test
  void should_pass_the_gate_when_best_cosine_reaches_threshold() {
    // R16: a = 1.0 passes
    ScriptedGenerator generator = new ScriptedGenerator("内容A[1]。");
    FixedRetriever retriever = new FixedRetriever(retrieval(1.0,
        Fixtures.hit("a", "docs/a.md", "内容A", 1.0), Fixtures.hit("c", "docs/c.md", "内容C", 0.64)));

    Answer a = new AnswerService(retriever, generator, GATE, RefusalPolicy.DEFAULT)
        .ask(query("内容A是什么"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(generator.calls).hasSize(1);
    assertThat(retriever.calls).isEqualTo(1);
  }

  @Test
  void should_refuse_without_generator_when_nothing_was_retrieved() {
    // R14: a principal with no departments sees nothing
    Answer a = new AnswerService(new FixedRetriever(SearchResult.empty()), MUST_NOT_BE_CALLED, GATE,
        RefusalPolicy.DEFAULT).ask(query("How is the year-end bonus taxed?"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(a.text()).isEqualTo("The documents do not contain an answer to this question.");
    assertThat(a.sources()).isEmpty();
    assertThat(a.diagnostics().bestDenseScore()).isNaN();
  }

  @Test
  void should_refuse_when_hits_exist_but_dense_score_is_unknown() {
    Answer a = new AnswerService(
        new FixedRetriever(retrieval(Double.NaN, Fixtures.hit("a", "docs/a.md", "内容A", Double.NaN))),
        MUST_NOT_BE_CALLED, GATE, RefusalPolicy.DEFAULT).ask(query("内容A"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
  }

  @Test
  void should_number_sources_in_retrieval_order_and_give_the_generator_that_list() {
    ScriptedGenerator generator = new ScriptedGenerator("VPN账号由IT部门开通[3]。");

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), generator, GATE,
        RefusalPolicy.DEFAULT).ask(query("VPN账号谁开通"), s -> {});

    assertThat(generator.calls.get(0)).isEqualTo(a.sources());
    assertThat(a.sources()).extracting(Source::n, Source::chunkId).containsExactly(
        org.assertj.core.groups.Tuple.tuple(1, "hr/leave.md#0"),
        org.assertj.core.groups.Tuple.tuple(2, "hr/leave.md#1"),
        org.assertj.core.groups.Tuple.tuple(3, "it/vpn.md#0"));
    assertThat(a.citations()).containsExactly(new Citation(3, "it/vpn.md#0", "it/vpn.md", true));
  }

  @Test
  void should_drop_out_of_range_citations_from_text_and_list_r21() {
    // the generator streams "[" and "5]" as separate pieces: validation runs on the final text
    ScriptedGenerator generator = new ScriptedGenerator(
        "年假需提前三天申请[1]，可顺延至次年三月[2][", "5]。逾期作废[0", "]。");
    List<String> streamed = new ArrayList<>();

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), generator, GATE,
        RefusalPolicy.DEFAULT).ask(query("年假怎么申请"), streamed::add);

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.text()).isEqualTo("年假需提前三天申请[1]，可顺延至次年三月[2]。逾期作废。");
    assertThat(a.text()).doesNotContain("[5]", "[0]");
    assertThat(a.citations()).containsExactly(
        new Citation(1, "hr/leave.md#0", "hr/leave.md", true),
        new Citation(2, "hr/leave.md#1", "hr/leave.md", true));
    assertThat(a.citations()).extracting(Citation::source).doesNotContain("it/vpn.md");
    assertThat(a.diagnostics().invalidCitations()).containsExactlyInAnyOrder(5, 0);
    assertThat(a.diagnostics().uncitedSentences()).containsExactly("逾期作废。");
    assertThat(a.diagnostics().unsupportedCitations()).isEmpty();
    assertThat(a.diagnostics().generator()).isEqualTo("scripted");
    assertThat(String.join("", streamed))
        .isEqualTo("年假需提前三天申请[1]，可顺延至次年三月[2][5]。逾期作废[0]。");
  }

  @Test
  void should_mark_a_citation_unsupported_when_its_number_is_not_in_the_passage() {
    ScriptedGenerator generator = new ScriptedGenerator("年假需提前5天申请[1]。");

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), generator, GATE,
        RefusalPolicy.DEFAULT).ask(query("年假怎么申请"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.citations()).containsExactly(new Citation(1, "hr/leave.md#0", "hr/leave.md", false));
    assertThat(a.diagnostics().unsupportedCitations()).containsExactly(1);
  }

  @Test
  void should_detect_the_model_refusal_with_surrounding_whitespace_and_keep_sources() {
    ScriptedGenerator generator = new ScriptedGenerator("\n  根据现有文档无法回答该问题。", "  \n");

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), generator, GATE,
        RefusalPolicy.DEFAULT).ask(query("公司有几个食堂"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_BY_MODEL);
    assertThat(a.text()).isEqualTo(REFUSAL_ZH);
    assertThat(a.citations()).isEmpty();
    assertThat(a.sources()).hasSize(3);
    assertThat(a.diagnostics().generator()).isEqualTo("scripted");
  }

  @Test
  void should_detect_an_english_refusal_to_a_chinese_question() {
    ScriptedGenerator generator = new ScriptedGenerator(
        "The documents do not contain an answer to this question.");

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), generator, GATE,
        RefusalPolicy.DEFAULT).ask(query("公司有几个食堂"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.REFUSED_BY_MODEL);
    assertThat(a.text()).isEqualTo("The documents do not contain an answer to this question.");
  }

  @Test
  void should_fail_with_the_reason_when_the_generator_throws() {
    Generator broken = new Generator() {
      @Override
      public String id() {
        return "openai:test";
      }

      @Override
      public String generate(String q, List<Source> s, Consumer<String> onText)
          throws GenerationException {
        throw new GenerationException("LLM endpoint http://127.0.0.1:1/v1 timed out after 2 s");
      }
    };

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), broken, GATE,
        RefusalPolicy.DEFAULT).ask(query("年假怎么申请"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(a.text()).isEmpty();
    assertThat(a.diagnostics().reason())
        .isEqualTo("openai:test failed: LLM endpoint http://127.0.0.1:1/v1 timed out after 2 s");
    assertThat(a.sources()).hasSize(3);
  }

  @Test
  void should_fail_with_the_reason_when_retrieval_throws() {
    Retriever broken = q -> {
      throw new IOException("index /tmp/idx is locked");
    };

    Answer a = new AnswerService(broken, MUST_NOT_BE_CALLED, GATE, RefusalPolicy.DEFAULT)
        .ask(query("年假"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(a.diagnostics().reason()).isEqualTo("retrieval failed: index /tmp/idx is locked");
  }

  @Test
  void should_keep_equal_texts_from_different_files_as_separate_sources_r12() {
    SearchResult r = retrieval(0.95,
        Fixtures.hit("hr/handbook.md#3", "hr/handbook.md", "请使用VPN访问内网。", 0.95),
        Fixtures.hit("it/faq.md#7", "it/faq.md", "请使用VPN访问内网。", 0.95),
        Fixtures.hit("it/faq.md#8", "it/faq.md", "VPN账号由IT部门开通。", 0.6));
    ScriptedGenerator generator = new ScriptedGenerator("请使用VPN访问内网[1][2]。");

    Answer a = new AnswerService(new FixedRetriever(r), generator, GATE, RefusalPolicy.DEFAULT)
        .ask(query("怎么访问内网"), s -> {});

    assertThat(a.sources()).extracting(Source::source)
        .containsExactly("hr/handbook.md", "it/faq.md", "it/faq.md");
    assertThat(a.citations()).containsExactly(
        new Citation(1, "hr/handbook.md#3", "hr/handbook.md", true),
        new Citation(2, "it/faq.md#7", "it/faq.md", true));
  }

  @Test
  void should_answer_offline_with_the_extractive_generator() {
    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()),
        new ExtractiveGenerator(RefusalPolicy.DEFAULT), GATE, RefusalPolicy.DEFAULT)
        .ask(query("未休年假可以顺延吗"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
    // [1] shares only 年假 with the question: below MIN_RELATIVE_SCORE of [2], not appended
    assertThat(a.text()).isEqualTo("（摘录）未休年假可顺延至次年三月[2]。");
    assertThat(a.citations()).extracting(Citation::n, Citation::supported)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(2, true));
    assertThat(a.diagnostics().generator()).isEqualTo("extractive");
  }

  @Test
  void should_reject_a_nan_gate_threshold() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            new AnswerService(new FixedRetriever(SearchResult.empty()), MUST_NOT_BE_CALLED,
                Double.NaN, RefusalPolicy.DEFAULT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("gate threshold");
  }

  @Test
  void should_fail_with_reason_truncated_and_keep_the_partial_text() {
    Generator cutOff = new Generator() {
      @Override
      public String id() {
        return "scripted";
      }

      @Override
      public String generate(String question, List<Source> sources,
          java.util.function.Consumer<String> onText) throws GenerationException {
        onText.accept("年假需提前");
        throw new TruncatedReplyException("length", "年假需提前");
      }
    };

    Answer a = new AnswerService(new FixedRetriever(r21Retrieval()), cutOff, GATE,
        RefusalPolicy.DEFAULT).ask(query("年假怎么申请"), s -> {});

    assertThat(a.status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(a.text()).isEmpty();
    assertThat(a.citations()).isEmpty();
    assertThat(a.sources()).hasSize(3);
    assertThat(a.diagnostics().reason()).isEqualTo("truncated");
    assertThat(a.diagnostics().partialText()).isEqualTo("年假需提前");
  }
}
