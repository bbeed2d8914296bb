package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.OpenBookAnalysis.Strategy;
import org.openbook.engine.config.ConfigYaml;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.IndexMismatchException;
import org.openbook.testing.HashEmbedder;

/** {@code analysis.analyzer}: its default, its values, and the manifest check it drives. */
class AnalyzerSettingTest {

  @TempDir Path tmp;

  private OpenBookConfig yaml(String text) throws IOException {
    return ConfigYaml.read(tmp, text);
  }

  @Test
  void should_default_to_the_measured_analyzer_and_read_each_named_one() throws IOException {
    assertThat(OpenBookConfig.defaults().resolve(Map.of()).analyzer())
        .isEqualTo(OpenBookConfig.Analysis.DEFAULT_ANALYZER).isEqualTo(Strategy.UNIGRAM_BIGRAM);
    assertThat(OpenBookConfig.defaults().resolve(Map.of()).analyzerNamed()).isFalse();
    assertThat(yaml("analysis: {synonyms: syn.txt}\n").resolve(Map.of()).analyzerNamed())
        .isFalse();
    assertThat(yaml("analysis: {analyzer: cjk_bigram}\n").resolve(Map.of()).analyzerNamed())
        .isTrue();
    assertThat(yaml("analysis: {analyzer: smartcn}\n").resolve(Map.of()).analyzer())
        .isEqualTo(Strategy.SMARTCN);
    assertThat(yaml("analysis: {analyzer: ' CJK_Bigram '}\n").resolve(Map.of()).analyzer())
        .isEqualTo(Strategy.CJK_BIGRAM);
    assertThat(yaml("analysis: {analyzer: unigram_bigram, synonyms: syn.txt}\n")
        .resolve(Map.of()).analyzer()).isEqualTo(Strategy.UNIGRAM_BIGRAM);
  }

  @Test
  void should_name_the_key_and_the_known_values_for_an_unknown_analyzer() throws IOException {
    assertThatThrownBy(() -> yaml("analysis: {analyzer: jieba}\n").resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("analysis.analyzer must be one of cjk_bigram, unigram_bigram, smartcn, "
            + "got 'jieba'");
  }

  @Test
  void should_build_the_index_with_the_configured_analyzer_and_refuse_another_until_reset()
      throws IOException {
    Path index = tmp.resolve("index");
    OpenBookConfig bigram = yaml("analysis: {analyzer: cjk_bigram}\n");
    try (OpenBook e = OpenBook.builder().index(index).config(bigram).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.store().manifest().analyzer()).isEqualTo("openbook-cjk_bigram-v2");
    }
    OpenBookConfig unigram = yaml("analysis: {analyzer: unigram_bigram}\n");
    assertThatThrownBy(() -> OpenBook.builder().index(index).config(unigram)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.READ).build())
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("analyzer: index has 'openbook-cjk_bigram-v2', this run uses "
            + "'openbook-unigram_bigram-v2'")
        .hasMessageContaining("--reset");
    try (OpenBook e = OpenBook.builder().index(index).config(unigram)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.store().manifest().analyzer()).isEqualTo("openbook-unigram_bigram-v2");
    }
  }

  // Upgrade path: an index built under the earlier default (cjk_bigram) by a config that names
  // no analyzer keeps opening with its recorded analyzer; only a named other one is refused.
  @Test
  void should_keep_the_recorded_analyzer_of_an_existing_index_when_the_config_names_none()
      throws IOException {
    Path index = tmp.resolve("index");
    try (OpenBook e = OpenBook.builder().index(index)
        .config(yaml("analysis: {analyzer: cjk_bigram}\n")).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.RESET).build()) {
      e.ingest(docs("年假申请需提前三天提交。"), org.openbook.ingest.IngestListener.NONE);
    }
    OpenBookConfig unnamed = yaml("principals: {visitor: [public]}\n");
    for (OpenBook.Mode mode : new OpenBook.Mode[] {OpenBook.Mode.READ, OpenBook.Mode.WRITE}) {
      try (OpenBook e = OpenBook.builder().index(index).config(unnamed)
          .embedder(new HashEmbedder()).mode(mode).build()) {
        assertThat(e.store().manifest().analyzer()).as("%s", mode)
            .isEqualTo("openbook-cjk_bigram-v2");
        assertThat(e.count()).isEqualTo(1);
      }
    }
    // resetting builds with the current default
    try (OpenBook e = OpenBook.builder().index(index).config(unnamed)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.store().manifest().analyzer()).isEqualTo("openbook-unigram_bigram-v2");
    }
    // and a new index gets the default too
    try (OpenBook e = OpenBook.builder().index(tmp.resolve("fresh")).config(unnamed)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build()) {
      assertThat(e.store().manifest().analyzer()).isEqualTo("openbook-unigram_bigram-v2");
    }
  }

  private Path docs(String text) throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(dir.resolve("leave.txt"), text, StandardCharsets.UTF_8);
    return dir;
  }
}
