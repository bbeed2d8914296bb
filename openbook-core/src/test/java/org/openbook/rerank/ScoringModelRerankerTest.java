package org.openbook.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local ONNX reranker through LangChain4j's {@code OnnxScoringModel}, end to end (tokenizer,
 * ONNX Runtime session, logits) on {@link TinyCrossEncoder} with bge-small-zh's tokenizer (one
 * token per Chinese character), so every score is known in advance.
 */
class ScoringModelRerankerTest {

  @TempDir Path dir;

  private Path tokenizer() throws Exception {
    Path file = dir.resolve("tokenizer.json");
    try (InputStream in = getClass().getResourceAsStream("/bge-small-zh-v1.5-tokenizer.json")) {
      assertThat(in).as("bge-small-zh tokenizer on the classpath").isNotNull();
      Files.copy(in, file);
    }
    return file;
  }

  @Test
  void should_score_each_pair_with_the_onnx_model_and_tokenizer() throws Exception {
    tokenizer();
    Path model = TinyCrossEncoder.write(dir.resolve("model.onnx"));
    try (ScoringModelReranker reranker = ScoringModelReranker.onnx(model, null, 512)) {
      List<RerankScore> scores = reranker.rerank("年假几天", List.of("年假", "年假需提前", "假"), 2);

      // passage tokens + the final [SEP]: 2+1, 5+1, 1+1
      assertThat(scores).containsExactly(new RerankScore(0, 3.0), new RerankScore(1, 6.0),
          new RerankScore(2, 2.0));
      assertThat(reranker.id()).isEqualTo("onnx:model.onnx");
    }
  }

  @Test
  void should_truncate_pairs_to_max_length() throws Exception {
    Path model = TinyCrossEncoder.write(dir.resolve("model.onnx"));
    try (ScoringModelReranker reranker = ScoringModelReranker.onnx(model, tokenizer(), 16)) {
      List<RerankScore> scores = reranker.rerank("问", List.of("长".repeat(100)), 1);

      // OnnxScoringModel gives the tokenizer maxLength - 2 = 14 tokens in all, cut longest
      // first: [CLS] 问 [SEP] + 10 × 长 + [SEP]; the second segment is 10 + 1 tokens
      assertThat(scores).containsExactly(new RerankScore(0, 11.0));
    }
  }

  @Test
  void should_name_the_missing_tokenizer() throws Exception {
    Path model = TinyCrossEncoder.write(dir.resolve("model.onnx"));

    assertThatThrownBy(() -> ScoringModelReranker.onnx(model, null, 512))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rerank.tokenizer").hasMessageContaining("tokenizer.json");
  }
}
