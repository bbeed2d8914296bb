package org.openbook.index;

import java.util.Map;
import java.util.Objects;
import org.openbook.chunk.Chunk;

/**
 * A chunk with its embeddings, ready to store.
 *
 * @param chunk        the chunk
 * @param vector       embedding of {@code chunk.embedText()} by the primary model (the
 *                     manifest's {@code embeddingModel})
 * @param denseVectors embeddings by further models, keyed by {@link DenseField#name()}; a chunk
 *                     may lack some (e.g. chunks written with one model) and is
 *                     then not in that field's search. Never null.
 */
public record EmbeddedChunk(Chunk chunk, float[] vector, Map<String, float[]> denseVectors) {

  public EmbeddedChunk {
    Objects.requireNonNull(chunk, "chunk");
    denseVectors = denseVectors == null ? Map.of() : Map.copyOf(denseVectors);
  }

  /** A chunk with the primary vector only. */
  public EmbeddedChunk(Chunk chunk, float[] vector) {
    this(chunk, vector, Map.of());
  }
}
