package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.index.DenseField;
import org.openbook.testing.HashEmbedder;

class DenseRoutesTest {

  /** Records every text it embeds. */
  private static final class Recording implements Embedder {
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
}
