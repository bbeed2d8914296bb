package org.openbook.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;

/** {@code embedding.queryInstruction}: its default, the model-card value, and bad keys. */
class EmbeddingSettingTest {

  @TempDir Path tmp;

  private Settings.Embedding resolve(String yaml) throws IOException {
    return ConfigYaml.read(tmp, yaml).resolve(Map.of()).embedding();
  }

  @Test
  void should_default_to_no_instruction_for_either_model() {
    Settings.Embedding e = OpenBookConfig.defaults().resolve(Map.of()).embedding();

    // measured: the model-card instructions lose R@1 (docs/BENCHMARKS.md, "Query instruction")
    assertThat(e.zhQueryInstruction()).isEmpty();
    assertThat(e.enQueryInstruction()).isEmpty();
  }

  @Test
  void should_read_the_model_card_value_a_text_of_ones_own_and_none() throws IOException {
    Settings.Embedding card =
        resolve("embedding: {queryInstruction: {zh: model-card, en: model-card}}\n");
    assertThat(card.zhQueryInstruction()).isEqualTo("为这个句子生成表示以用于检索相关文章：")
        .isEqualTo(BgeSmallZhEmbedder.QUERY_INSTRUCTION);
    assertThat(card.enQueryInstruction())
        .isEqualTo("Represent this sentence for searching relevant passages: ")
        .isEqualTo(BgeSmallEnEmbedder.QUERY_INSTRUCTION);

    Settings.Embedding own =
        resolve("embedding:\n  queryInstruction:\n    zh: '查询：'\n    en: ''\n");
    assertThat(own.zhQueryInstruction()).isEqualTo("查询：");
    assertThat(own.enQueryInstruction()).isEmpty();
    // a key left out keeps its default
    assertThat(resolve("embedding: {queryInstruction: {en: model-card}}\n")
        .zhQueryInstruction()).isEqualTo(OpenBookConfig.Embedding.DEFAULT_ZH);
  }

  @Test
  void should_name_the_key_for_a_model_it_does_not_know() {
    assertThatThrownBy(() -> resolve("embedding: {queryInstruction: {fr: 'x'}}\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("embedding.queryInstruction has keys zh and en (one per model), not 'fr'");
  }
}
