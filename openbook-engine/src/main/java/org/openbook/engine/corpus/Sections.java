package org.openbook.engine.corpus;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkIds;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore;
import org.openbook.retrieve.Principal;

/**
 * Reads the section around a chunk for a principal. The department check is part of the one
 * store lookup ({@link ChunkStore#get(String, AccessFilter)}): a chunk of a department the
 * principal cannot read and a chunk that does not exist take the same call and end in the same
 * {@link NotFoundException}, so neither the reply nor its timing tells them apart.
 */
final class Sections {
  private Sections() {}

  /**
   * The section around {@code chunkId}: it and its neighbours in the same document with the same
   * heading path.
   *
   * @throws NotFoundException naming {@code chunkId} when there is no such chunk or
   *     {@code principal} cannot read its department
   */
  static Corpus.Section read(ChunkStore store, Principal principal, String chunkId)
      throws IOException {
    AccessFilter filter = principal.filter();
    Optional<Chunk> found = store.get(chunkId, filter);
    if (found.isEmpty()) {
      throw new NotFoundException("chunkId", "no such passage");
    }
    Chunk c = found.get();
    List<Chunk> all = new ArrayList<>();
    for (int o = c.ordinal() - 1; o >= 0; o--) {
      Optional<Chunk> p = store.get(ChunkIds.of(c.docId(), o), filter);
      if (p.isEmpty() || !p.get().headingPath().equals(c.headingPath())) {
        break;
      }
      all.add(0, p.get());
    }
    all.add(c);
    for (int o = c.ordinal() + 1; ; o++) {
      Optional<Chunk> n = store.get(ChunkIds.of(c.docId(), o), filter);
      if (n.isEmpty() || !n.get().headingPath().equals(c.headingPath())) {
        break;
      }
      all.add(n.get());
    }
    return new Corpus.Section(chunkId, c.source(),
        Corpus.titleOf(c.meta().getOrDefault("title", ""), c.source()), c.dept(),
        c.headingLabel(), all.get(0).page(),
        String.join("\n\n", all.stream().map(Chunk::raw).toList()),
        all.stream().map(Chunk::id).toList());
  }
}
