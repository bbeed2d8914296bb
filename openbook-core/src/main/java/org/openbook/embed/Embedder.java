package org.openbook.embed;

import java.util.List;

/**
 * Maps text to dense vectors. Vectors are L2-normalised, so the dot product of two vectors is
 * their cosine similarity in [-1, 1].
 */
public interface Embedder {

  /** Stable model id recorded in the index manifest, e.g. {@code bge-small-zh-v1.5}. */
  String modelId();

  /** Provider id of the in-process ONNX models, and of every model that names none. */
  String ONNX = "onnx";

  /**
   * Where the vectors come from, recorded in the index manifest beside {@link #modelId()}:
   * {@value #ONNX} (in process, the default) or a remote provider ({@code openai}, {@code
   * ollama}, {@code tei}). The same model name behind two providers may give different vectors
   * (quantisation, pooling), so an index is tied to both.
   */
  default String provider() {
    return ONNX;
  }

  /**
   * Texts ingest should hand to one {@link #embedAll} call, or 0 for the pipeline's default (32,
   * measured for the in-process models). A remote model asks for what keeps its endpoint busy:
   * its request batch times the requests it may have in flight.
   */
  default int ingestBatchSize() {
    return 0;
  }

  /** Vector length (512 for bge-small-zh-v1.5). */
  int dimension();

  /** Most tokens the model reads per input, special tokens included (512 for BERT models). */
  int maxInputTokens();

  /**
   * Number of model tokens {@code text} takes, special tokens ([CLS], [SEP]) included.
   */
  int countTokens(String text);

  /**
   * Whether {@code text} takes at most {@code limit} tokens: the same answer as {@code
   * countTokens(text) <= limit}, which an implementation may give without running its tokenizer
   * when a cheap bound settles it (the chunker asks this for every candidate chunk).
   */
  default boolean fitsTokens(String text, int limit) {
    return countTokens(text) <= limit;
  }

  /**
   * Embeds texts in one batch.
   *
   * @param texts inputs, each at most {@link #maxInputTokens()} tokens
   * @return one L2-normalised vector of length {@link #dimension()} per input, in input order
   * @throws InputTooLongException if an input exceeds {@link #maxInputTokens()}; inputs are never
   *     silently truncated
   */
  List<float[]> embedAll(List<String> texts);

  /** Embeds one text; see {@link #embedAll(List)}. */
  default float[] embed(String text) {
    return embedAll(List.of(text)).get(0);
  }
}
