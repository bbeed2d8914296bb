package org.openbook.index;

import org.openbook.chunk.Chunk;

/**
 * A chunk with its embedding, ready to store.
 *
 * @param chunk  the chunk
 * @param vector L2-normalised embedding of {@code chunk.embedText()}
 */
public record EmbeddedChunk(Chunk chunk, float[] vector) {}
