/**
 * Turning text into vectors, in process.
 *
 * <pre>
 * chunk.embedText (title + heading path + raw) ──▶ Embedder ──▶ float[dimension], unit length
 * question                                      ──▶ Embedder ──▶ float[dimension]
 * </pre>
 *
 * <p>{@link org.openbook.embed.Embedder} is the SPI; {@link org.openbook.embed.BgeSmallZhEmbedder}
 * runs bge-small-zh-v1.5 (512 dimensions, at most 512 tokens) through LangChain4j's ONNX module
 * with no network. An input over the model's limit is rejected with
 * {@link org.openbook.embed.InputTooLongException}, never silently cut: the chunker keeps chunks
 * within it. {@link org.openbook.embed.CachingEmbedder} and
 * {@link org.openbook.embed.EmbeddingCache} key vectors by (model, SHA-256 of the text), so a
 * re-ingest or a {@code --reset} does not embed unchanged text again.
 */
package org.openbook.embed;
