package org.openbook.rerank;

import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.model.scoring.ScoringModel;
import dev.langchain4j.model.scoring.onnx.OnnxScoringModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A reranker over any LangChain4j {@link ScoringModel} (one score per passage, higher is better),
 * such as a local ONNX cross-encoder ({@link #onnx}) or a hosted integration a user adds.
 */
public final class ScoringModelReranker implements Reranker, AutoCloseable {

  /** Input tokens of the BERT-style cross-encoders (bge-reranker, ms-marco MiniLM). */
  public static final int DEFAULT_MAX_LENGTH = 512;

  private final String id;
  private final ScoringModel model;

  /**
   * @param id    id for diagnostics
   * @param model the scoring model
   */
  public ScoringModelReranker(String id, ScoringModel model) {
    this.id = id;
    this.model = model;
  }

  /**
   * A local cross-encoder exported to ONNX (e.g. bge-reranker-base/-v2-m3 or
   * cross-encoder/ms-marco-MiniLM-L-6-v2 exported with Hugging Face Optimum), run in-process by
   * LangChain4j's {@link OnnxScoringModel}: each (query, passage) pair is tokenized together,
   * truncated longest-first to {@code maxLength} tokens, and the model's first logit is the
   * score. Scores are those logits, not squashed: roughly −10..10 for these models, so a
   * threshold is calibrated on the model's own scale.
   *
   * @param modelFile     the {@code model.onnx} file
   * @param tokenizerFile the model's {@code tokenizer.json}; null means {@code tokenizer.json}
   *                      beside the model file
   * @param maxLength     input tokens per pair including special tokens, ≥ 8
   * @throws IllegalArgumentException naming {@code rerank.model} / {@code rerank.tokenizer}
   *     when a file is missing or cannot be loaded
   */
  public static ScoringModelReranker onnx(Path modelFile, Path tokenizerFile, int maxLength) {
    if (modelFile == null || !Files.isRegularFile(modelFile)) {
      throw new IllegalArgumentException(
          "rerank.model must be the path of an ONNX cross-encoder file, got " + modelFile);
    }
    Path tokenizer = tokenizerFile != null ? tokenizerFile
        : modelFile.toAbsolutePath().resolveSibling("tokenizer.json");
    if (!Files.isRegularFile(tokenizer)) {
      throw new IllegalArgumentException("rerank.tokenizer: no tokenizer.json at " + tokenizer
          + " (give the model's tokenizer.json)");
    }
    if (maxLength < 8) {
      throw new IllegalArgumentException("rerank.maxLength must be >= 8, got " + maxLength);
    }
    OnnxScoringModel model;
    try {
      model = new OnnxScoringModel(modelFile.toString(), tokenizer.toString(), maxLength);
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw new IllegalArgumentException("rerank.model: cannot load ONNX cross-encoder "
          + modelFile + " with " + tokenizer + ": " + root.getMessage(), e);
    }
    return new ScoringModelReranker("onnx:" + modelFile.getFileName(), model);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public List<RerankScore> rerank(String query, List<String> passages, int topN)
      throws RerankException {
    Response<List<Double>> response;
    try {
      response = model.scoreAll(passages.stream().map(TextSegment::from).toList(), query);
    } catch (RuntimeException e) {
      throw new RerankException(id + " failed: " + e.getMessage(), e);
    }
    List<Double> scores = response == null ? null : response.content();
    if (scores == null || scores.size() != passages.size()) {
      throw new RerankException(id + " returned " + (scores == null ? "no" : scores.size())
          + " scores for " + passages.size() + " passages");
    }
    List<RerankScore> out = new ArrayList<>(scores.size());
    for (int i = 0; i < scores.size(); i++) {
      Double s = scores.get(i);
      out.add(new RerankScore(i, s == null ? Double.NaN : s));
    }
    return out;
  }

  /** Releases the model when it holds native resources (the ONNX session). */
  @Override
  public void close() throws Exception {
    if (model instanceof AutoCloseable c) {
      c.close();
    }
  }
}
