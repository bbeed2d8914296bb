package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.index.DenseField;
import org.openbook.testing.HashEmbedder;

class DenseRoutesTest {

  /** Records every text it embeds. */
  private static class Recording implements Embedder {
    final HashEmbedder inner;
    final List<String> seen = new ArrayList<>();

    Recording(int dimension) {
      inner = new HashEmbedder(dimension, 512);
    }

    @Override
    public String modelId() {
      return inner.modelId();
    }

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public int maxInputTokens() {
      return inner.maxInputTokens();
    }

    @Override
    public int countTokens(String text) {
      return inner.countTokens(text);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      seen.addAll(texts);
      return inner.embedAll(texts);
    }
  }

  private final Recording zh = new Recording(32);
  private final Recording en = new Recording(16);
  private final DenseRoutes routes = DenseRoutes.bilingual(zh, en);

  @Test
  void should_embed_a_chinese_question_with_the_primary_model_only() {
    DenseRoutes.RoutedVectors v = routes.embedQuery("年假申请需要提前几天？");

    assertThat(v.primary()).hasSize(32);
    assertThat(v.fields()).isEmpty();
    assertThat(en.seen).isEmpty();
  }

  @Test
  void should_embed_an_english_question_with_both_models() {
    DenseRoutes.RoutedVectors v = routes.embedQuery("How long are backups kept?");

    assertThat(v.primary()).hasSize(32);
    assertThat(v.fields()).containsOnlyKeys(DenseRoutes.ENGLISH);
    assertThat(v.fields().get(DenseRoutes.ENGLISH)).hasSize(16);
    assertThat(zh.seen).containsExactly("How long are backups kept?");
    assertThat(en.seen).containsExactly("How long are backups kept?");
  }

  @Test
  void should_give_the_same_vectors_whether_the_two_models_run_at_once_or_in_turn() {
    String q = "Which port does the VPN client use?";
    DenseRoutes.RoutedVectors together = routes.embedQuery(q);
    DenseRoutes.RoutedVectors inTurn = routes.sequentialQueries().embedQuery(q);

    assertThat(together.primary()).containsExactly(inTurn.primary());
    assertThat(together.fields().get(DenseRoutes.ENGLISH))
        .containsExactly(inTurn.fields().get(DenseRoutes.ENGLISH));
    assertThat(together.primary()).containsExactly(new HashEmbedder(32, 512).embed(q));
  }

  @Test
  void should_report_a_failure_of_the_english_model_as_it_was_thrown() {
    Embedder broken = new Recording(16) {
      @Override
      public List<float[]> embedAll(List<String> texts) {
        throw new IllegalStateException("ONNX session closed");
      }
    };
    DenseRoutes withBroken = DenseRoutes.bilingual(zh, broken);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> withBroken.embedQuery("How long are backups kept?"))
        .isInstanceOf(IllegalStateException.class).hasMessage("ONNX session closed");
  }

  @Test
  void should_fold_traditional_text_without_an_english_field_for_the_chinese_routes() {
    DenseRoutes chinese = DenseRoutes.chinese(zh);

    DenseRoutes.RoutedVectors v = chinese.embedQuery("這個問題的答案在哪裡？");

    assertThat(zh.seen).containsExactly("这个问题的答案在哪里？");
    assertThat(v.fields()).isEmpty();
    assertThat(chinese.denseFields()).isEmpty();
    assertThat(chinese.routesToEnglish("How long are backups kept?")).isFalse();
  }

  @Test
  void should_give_the_chinese_model_traditional_text_folded_to_simplified() {
    routes.embedAll(List.of("臺灣的經濟發展", "台湾的经济发展", "Nightly backups"));

    assertThat(zh.seen).containsExactly("台湾的经济发展", "台湾的经济发展", "Nightly backups");
    // the English model reads the original text
    assertThat(en.seen).containsExactly("臺灣的經濟發展", "台湾的经济发展", "Nightly backups");
    // same vector for both scripts
    assertThat(routes.embedQuery("臺灣的經濟發展").primary())
        .containsExactly(routes.embedQuery("台湾的经济发展").primary());
  }

  @Test
  void should_give_every_chunk_both_vectors_in_order() {
    List<DenseRoutes.RoutedVectors> v =
        routes.embedAll(List.of("English one", "中文一", "English two"));

    // Chinese chunks too: English questions find Chinese passages through them
    assertThat(v).extracting(r -> r.fields().keySet()).containsOnly(java.util.Set.of("en"));
    assertThat(v.get(1).fields().get("en")).containsExactly(en.inner.embed("中文一"));
    assertThat(v.get(2).fields().get("en")).containsExactly(en.inner.embed("English two"));
    // one batch per model
    assertThat(en.seen).containsExactly("English one", "中文一", "English two");
  }

  @Test
  void should_declare_the_english_field_and_the_smaller_input_limit() {
    assertThat(routes.denseFields()).containsExactly(new DenseField("en", en.modelId(), 16));
    assertThat(DenseRoutes.single(zh).denseFields()).isEmpty();
    assertThat(DenseRoutes.bilingual(new HashEmbedder(8, 512), new HashEmbedder(8, 300))
        .maxInputTokens()).isEqualTo(300);
  }

  @Test
  void should_not_fold_or_route_with_a_single_model() {
    DenseRoutes single = DenseRoutes.single(zh);

    assertThat(single.embedQuery("How long?").fields()).isEmpty();
    single.embedQuery("臺灣");
    assertThat(zh.seen).containsExactly("How long?", "臺灣");
  }

  @Test
  void should_prepend_each_models_query_instruction_to_questions_only() {
    DenseRoutes instructed = routes.withQueryInstructions("ZH: ", "EN: ");

    instructed.embedQuery("臺灣的首都是哪裡？");
    instructed.embedQuery("How long are backups kept?");
    instructed.embedAll(List.of("Backups are kept for 30 days."));

    // folded first, then instructed; the English model sees English questions only
    assertThat(zh.seen).containsExactly("ZH: 台湾的首都是哪里？", "ZH: How long are backups kept?",
        "Backups are kept for 30 days.");
    assertThat(en.seen).containsExactly("EN: How long are backups kept?",
        "Backups are kept for 30 days.");
    assertThat(instructed.primaryInstruction()).isEqualTo("ZH: ");
    assertThat(instructed.englishInstruction()).isEqualTo("EN: ");
    assertThat(routes.primaryInstruction()).isEmpty();
  }

  @Test
  void should_embed_a_batch_of_questions_as_each_alone_and_keep_instructions_when_cached(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    String q = "Which port does the VPN client use?";
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      DenseRoutes instructed = routes.withQueryInstructions("ZH: ", "EN: ").cached(cache);

      DenseRoutes.RoutedVectors batch = instructed.embedQueries(List.of(q)).get(0);
      DenseRoutes.RoutedVectors alone = instructed.sequentialQueries().embedQuery(q);
      DenseRoutes.RoutedVectors plain = routes.cached(cache).embedQuery(q);

      assertThat(alone.primary()).containsExactly(batch.primary());
      assertThat(alone.primary()).containsExactly(zh.inner.embed("ZH: " + q));
      assertThat(alone.fields().get(DenseRoutes.ENGLISH))
          .containsExactly(en.inner.embed("EN: " + q));
      // the second instructed call came from the cache; the plain question is its own entry
      assertThat(zh.seen).containsExactly("ZH: " + q, q);
      assertThat(plain.primary()).containsExactly(zh.inner.embed(q));
    }
  }

  @Test
  void should_keep_the_instruction_of_an_over_long_question_within_the_model_limit() {
    Recording small = new Recording(8) {
      @Override
      public int maxInputTokens() {
        return 40;
      }
    };
    String question = "x".repeat(200);
    DenseRoutes instructed = DenseRoutes.single(small).withQueryInstructions("ZH: ", "");

    instructed.embedQuery(question);

    assertThat(small.seen).hasSize(1);
    assertThat(small.seen.get(0)).startsWith("ZH: x").contains(BoundedInput.ELISION);
    assertThat(small.countTokens(small.seen.get(0))).isLessThanOrEqualTo(40);
  }
}
