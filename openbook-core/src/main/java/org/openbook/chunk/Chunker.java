package org.openbook.chunk;

import java.util.List;
import org.openbook.document.Document;

/** Cuts a {@link Document} into {@link Chunk}s. Implementations are thread-safe. */
public interface Chunker {

  /**
   * Chunks one document.
   *
   * @return chunks in document order with ordinals 0..n-1; every chunk's {@code raw} equals the
   *     document text between its offsets, and its {@code embedText} fits the configured budget
   */
  List<Chunk> chunk(Document document);

  /** The settings, recorded in the index manifest. */
  ChunkerSettings settings();
}
