package org.openbook.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.Chunker;
import org.openbook.document.CorpusFile;
import org.openbook.document.CorpusWalker;
import org.openbook.document.Document;
import org.openbook.document.DocumentReader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.SkippedPath;
import org.openbook.embed.Embedder;
import org.openbook.embed.InputTooLongException;
import org.openbook.index.ChunkStore.ChunkWriter;
import org.openbook.index.ChunkStore.DocumentCatalog;
import org.openbook.index.EmbeddedChunk;

/**
 * The ingest pipeline: walk a folder, load each file, chunk, embed and write it, then commit
 * once. Incremental: a file whose content hash equals the one in the index is not loaded or
 * embedded again; a file that changed replaces all of its old chunks; a source no longer present
 * (or no longer loadable) loses its chunks. One bad file is reported and the run goes on. Until
 * {@link ChunkWriter#commit()} at the end nothing is visible, so an interrupted run leaves the
 * index at its previous commit.
 */
public final class Indexer {

  /** Chunk metadata key holding the document's content hash. */
  public static final String CONTENT_HASH = "contentHash";

  /** Texts per embedding call. */
  static final int EMBED_BATCH = 32;

  private final DocumentReader reader;
  private final Chunker chunker;
  private final Embedder embedder;

  public Indexer(DocumentReader reader, Chunker chunker, Embedder embedder) {
    this.reader = reader;
    this.chunker = chunker;
    this.embedder = embedder;
  }

  /**
   * Ingests every file under {@code root} into {@code writer} and commits.
   *
   * @param root     corpus folder; sources are paths relative to it
   * @param writer   the index to write
   * @param catalog  the index's current documents, or {@code null} to treat it as empty (reset)
   * @param listener progress callbacks
   * @return what happened to every file
   * @throws IOException if the index cannot be written (file problems are reported, not thrown)
   */
  public IngestReport ingest(
      Path root, ChunkWriter writer, DocumentCatalog catalog, IngestListener listener)
      throws IOException {
    long t0 = System.nanoTime();
    CorpusWalker.Walk walk = new CorpusWalker().scan(root);
    Map<String, String> known = catalog == null ? Map.of() : new HashMap<>(catalog.documentHashes());
    listener.started(walk.files().size());

    List<IngestReport.IndexedFile> indexed = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    List<IngestReport.SkippedFile> skipped = new ArrayList<>();
    for (SkippedPath p : walk.skipped()) {
      skipped.add(new IngestReport.SkippedFile(p.source(), p.reason(), p.path().toString()));
    }
    Set<String> kept = new LinkedHashSet<>();
    int written = 0;

    for (CorpusFile file : walk.files()) {
      String source = file.source();
      try {
        if (!reader.supports(file.path())) {
          // decided by name alone: an unsupported (maybe huge) file is never read
          skipped.add(new IngestReport.SkippedFile(source,
              LoadException.Reason.UNSUPPORTED_TYPE.label(),
              "supported: " + reader.supportedExtensions()));
          continue;
        }
        String hash = reader.contentHash(file.path(), source);
        if (hash.equals(known.get(source))) {
          unchanged.add(source);
          kept.add(source);
          continue;
        }
        LoadResult loaded = reader.read(file.path(), source);
        List<EmbeddedChunk> chunks = embed(withHash(chunker.chunk(loaded.document()), hash));
        if (chunks.isEmpty()) {
          skipped.add(new IngestReport.SkippedFile(source, LoadException.Reason.EMPTY.label(),
              "no indexable text"));
          continue;
        }
        writer.replaceDocument(source, chunks);
        kept.add(source);
        written += chunks.size();
        indexed.add(new IngestReport.IndexedFile(
            source, chunks.size(), known.containsKey(source), loaded.warnings()));
      } catch (LoadException e) {
        skipped.add(new IngestReport.SkippedFile(source, e.reason().label(), e.getMessage()));
      } catch (InputTooLongException e) {
        skipped.add(new IngestReport.SkippedFile(source, "too long for the model", e.getMessage()));
      } catch (IOException | RuntimeException e) {
        // One bad file never stops the run; the index itself failing does (commit below throws).
        skipped.add(new IngestReport.SkippedFile(source, LoadException.Reason.UNREADABLE.label(),
            e.getClass().getSimpleName() + ": " + e.getMessage()));
      } finally {
        listener.fileDone(source);
      }
    }

    List<String> removed = new ArrayList<>();
    for (String source : known.keySet()) {
      if (!kept.contains(source)) {
        writer.deleteDocument(source);
        removed.add(source);
      }
    }
    removed.sort(null);
    writer.commit();
    return new IngestReport(indexed, unchanged, removed, skipped, written,
        (System.nanoTime() - t0) / 1_000_000);
  }

  private static List<Chunk> withHash(List<Chunk> chunks, String hash) {
    List<Chunk> out = new ArrayList<>(chunks.size());
    for (Chunk c : chunks) {
      Map<String, String> meta = new HashMap<>(c.meta());
      meta.put(CONTENT_HASH, hash);
      out.add(new Chunk(c.id(), c.docId(), c.ordinal(), c.raw(), c.embedText(), c.headingPath(),
          c.page(), c.startOffset(), c.endOffset(), meta));
    }
    return out;
  }

  private List<EmbeddedChunk> embed(List<Chunk> chunks) {
    List<EmbeddedChunk> out = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i += EMBED_BATCH) {
      List<Chunk> batch = chunks.subList(i, Math.min(chunks.size(), i + EMBED_BATCH));
      List<String> texts = batch.stream().map(Chunk::embedText).toList();
      List<float[]> vectors = embedder.embedAll(texts);
      for (int j = 0; j < batch.size(); j++) {
        out.add(new EmbeddedChunk(batch.get(j), vectors.get(j)));
      }
    }
    return out;
  }
}
