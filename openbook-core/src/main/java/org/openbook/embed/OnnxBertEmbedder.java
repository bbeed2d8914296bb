package org.openbook.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A BERT-family ONNX model packaged by LangChain4j ({@code langchain4j-embeddings-*}), run in
 * process, with a hard input limit.
 *
 * <p>LangChain4j would split an over-long input into 510-token parts and average them, which
 * silently changes what the vector means; here every input is counted with the model's own
 * WordPiece tokenizer first and an over-long one is rejected with {@link InputTooLongException}.
 * Output vectors are L2-normalised.
 */
abstract class OnnxBertEmbedder implements Embedder {

  private final String modelId;
  private final int dimension;
  private final int maxTokens;
  private final EmbeddingModel model;
  private final HuggingFaceTokenizer tokenizer;

  /**
   * @param tokenizerResource class-path resource of the model's {@code tokenizer.json}, looked up
   *     next to {@code model}'s class (it ships in the same jar)
   */
  OnnxBertEmbedder(String modelId, int dimension, int maxTokens, EmbeddingModel model,
      String tokenizerResource) {
    this(modelId, dimension, maxTokens, model, model.getClass(), tokenizerResource);
  }

  /**
   * @param resourceAnchor    a class of the model's jar, beside which {@code tokenizerResource}
   *     is looked up (for a model object built outside that jar, e.g. by {@link OnnxThreads})
   */
  OnnxBertEmbedder(String modelId, int dimension, int maxTokens, EmbeddingModel model,
      Class<?> resourceAnchor, String tokenizerResource) {
    this.modelId = modelId;
    this.dimension = dimension;
    this.maxTokens = maxTokens;
    this.model = model;
    try (InputStream in = resourceAnchor.getResourceAsStream(tokenizerResource)) {
      if (in == null) {
        throw new IllegalStateException("tokenizer " + tokenizerResource + " not on the class path");
      }
      // No truncation: we want the true length so over-long inputs are reported, not cut.
      this.tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("truncation", "false"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the " + modelId + " tokenizer", e);
    }
  }

  @Override
  public final String modelId() {
    return modelId;
  }

  @Override
  public final int dimension() {
    return dimension;
  }

  @Override
  public final int maxInputTokens() {
    return maxTokens;
  }

  @Override
  public final int countTokens(String text) {
    return tokenizer.encode(text).getIds().length;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Runs the tokenizer only when the {@link WordPieceBound character bound} exceeds {@code
   * limit}: for chunks of a few hundred characters it never does.
   */
  @Override
  public final boolean fitsTokens(String text, int limit) {
    return WordPieceBound.atMost(text) <= limit || countTokens(text) <= limit;
  }

  @Override
  public final List<float[]> embedAll(List<String> texts) {
    List<TextSegment> segments = new ArrayList<>(texts.size());
    for (String t : texts) {
      if (!fitsTokens(t, maxTokens)) {
        throw new InputTooLongException(countTokens(t), maxTokens, preview(t));
      }
      segments.add(TextSegment.from(t));
    }
    List<Embedding> embeddings = model.embedAll(segments).content();
    List<float[]> out = new ArrayList<>(embeddings.size());
    for (Embedding e : embeddings) {
      out.add(Vectors.normalize(e.vector()));
    }
    return out;
  }

  private static String preview(String t) {
    return t.length() <= 40 ? t : t.substring(0, 40) + "…";
  }
}
