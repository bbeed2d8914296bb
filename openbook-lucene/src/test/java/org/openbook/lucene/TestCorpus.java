package org.openbook.lucene;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.ScoredChunk;
import org.openbook.testing.HashEmbedder;

/** Builders for small test corpora. */
final class TestCorpus {
  static final OpenBookAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();
  static final HashEmbedder EMBEDDER = new HashEmbedder();
  static final AccessFilter HR = new AccessFilter(Set.of("HR"));
  static final AccessFilter HR_FIN = new AccessFilter(Set.of("HR", "FIN"));
  static final AccessFilter NOTHING = new AccessFilter(Set.of());

  private TestCorpus() {}

  static IndexManifest manifest(String model, int dimension) {
    return new IndexManifest(model, dimension, IndexManifest.COSINE, ANALYSIS.id(), "test-chunker",
        0, 0);
  }

  static IndexManifest hashManifest() {
    return manifest(EMBEDDER.modelId(), EMBEDDER.dimension());
  }

  static LuceneChunkStore openHashStore(Path dir) throws IOException {
    return LuceneChunkStore.open(dir, hashManifest(), ANALYSIS);
  }

  /** A chunk whose id is also its document id (one chunk per document). */
  static Chunk chunk(String id, String dept, String text) {
    return chunk(id, id, 0, dept, text);
  }

  static Chunk chunk(String docId, int ordinal, String dept, String text) {
    return chunk(docId + "#" + ordinal, docId, ordinal, dept, text);
  }

  private static Chunk chunk(String id, String docId, int ordinal, String dept, String text) {
    return new Chunk(id, docId, ordinal, text, text, List.of(), 0, 0, text.length(),
        Map.of("source", docId, "dept", dept));
  }

  /** The chunk with its HashEmbedder vector. */
  static EmbeddedChunk hashed(Chunk c) {
    return new EmbeddedChunk(c, EMBEDDER.embed(c.embedText()));
  }

  /** Adds single-chunk documents embedded with the HashEmbedder, and commits. */
  static void addAll(LuceneChunkStore store, Chunk... chunks) throws IOException {
    for (Chunk c : chunks) {
      store.replaceDocument(c.docId(), List.of(hashed(c)));
    }
    store.commit();
  }

  static List<String> ids(List<ScoredChunk> hits) {
    List<String> ids = new ArrayList<>();
    for (ScoredChunk h : hits) {
      ids.add(h.chunk().id());
    }
    return ids;
  }
}
