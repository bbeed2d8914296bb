package org.openbook.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.Chunker;
import org.openbook.document.CorpusFile;
import org.openbook.document.CorpusWalker;
import org.openbook.document.DocumentReader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.SkippedPath;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.InputTooLongException;
import org.openbook.index.ChunkStore.ChunkWriter;
import org.openbook.index.ChunkStore.DocumentCatalog;
import org.openbook.index.EmbeddedChunk;

/**
 * The ingest pipeline: walk a folder, load each file, chunk, embed and write it, committing every
 * {@link IngestOptions#commitEvery()} changed documents and once at the end.
 *
 * <ul>
 *   <li>Incremental: a file whose SHA-256 equals the {@code contentHash} the index holds for its
 *       source is neither parsed nor embedded; a changed file replaces all its old chunks (both
 *       routes, one atomic update); a source no longer under the root, or no longer indexable,
 *       loses all its chunks. Sources missing from the folder are deleted first, so a renamed
 *       file never shows twice after the first commit.</li>
 *   <li>Crash safety comes from the store: each commit is atomic and carries its manifest, so a
 *       killed run leaves the last commit; the next run sees those documents' hashes and
 *       continues with the rest.</li>
 *   <li>One bad file is reported (in {@link IngestReport#skipped()}) and the run goes on; an
 *       {@link IOException} from the index itself stops the run.</li>
 * </ul>
 */
public final class Indexer {

  /** Chunk metadata key holding the document's content hash. */
  public static final String CONTENT_HASH = "contentHash";

  /** Skip reason of a document over {@link IngestOptions#maxChunksPerDocument()}. */
  public static final String TOO_MANY_CHUNKS = "too many chunks";

  /** Skip reason of a chunk longer than the embedding model reads. */
  public static final String TOO_LONG_FOR_MODEL = "too long for the model";

  /** Texts per embedding call. */
  static final int EMBED_BATCH = 32;

  private final DocumentReader reader;
  private final Chunker chunker;
  private final DenseRoutes routes;
  private final IngestOptions options;

  /** An indexer with {@link IngestOptions#DEFAULTS}. */
  public Indexer(DocumentReader reader, Chunker chunker, Embedder embedder) {
    this(reader, chunker, embedder, IngestOptions.DEFAULTS);
  }

  /**
   * @param options limits, commit interval and embedding cache (the embedder is wrapped in a
   *                {@link org.openbook.embed.CachingEmbedder} when a cache is given)
   */
  public Indexer(DocumentReader reader, Chunker chunker, Embedder embedder,
      IngestOptions options) {
    this(reader, chunker, DenseRoutes.single(embedder), options);
  }

  /**
   * @param routes  which models embed each chunk, by its language (one vector per model)
   * @param options limits, commit interval and embedding cache (every model answers from it
   *                first when a cache is given)
   */
  public Indexer(DocumentReader reader, Chunker chunker, DenseRoutes routes,
      IngestOptions options) {
    this.reader = reader;
    this.chunker = chunker;
    this.options = options;
    this.routes = options.cache() == null ? routes : routes.cached(options.cache());
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
    Run run = new Run(writer, listener);

    List<IngestReport.SkippedFile> skipped = new ArrayList<>();
    for (SkippedPath p : walk.skipped()) {
      skipped.add(new IngestReport.SkippedFile(p.source(), p.reason(), p.path().toString()));
    }
    Set<String> present = new HashSet<>();
    walk.files().forEach(f -> present.add(f.source()));
    List<String> removed = new ArrayList<>();
    for (String source : known.keySet()) {
      if (!present.contains(source)) {
        run.delete(source);
        removed.add(source);
      }
    }

    List<IngestReport.IndexedFile> indexed = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    int written = indexEach(walk.files(), known, run, indexed, unchanged, skipped, removed);
    run.commit();
    removed.sort(null);
    return new IngestReport(indexed, unchanged, removed, skipped, written,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Ingests only {@code files} (each a regular file under {@code root}) and commits; no other
   * source is read, hashed or removed, so the cost is that of the given files alone (an upload).
   * A given file that no longer exists loses its chunks.
   *
   * @param files files to (re)index; paths under {@code root}
   * @return what happened to each given file ({@code filesSeen} = {@code files.size()})
   * @throws IllegalArgumentException naming the file when one is not under {@code root}
   * @throws IOException if the index cannot be written
   */
  public IngestReport ingestFiles(Path root, List<Path> files, ChunkWriter writer,
      DocumentCatalog catalog, IngestListener listener) throws IOException {
    long t0 = System.nanoTime();
    Path base = root.toAbsolutePath().normalize();
    List<CorpusFile> present = new ArrayList<>();
    List<String> gone = new ArrayList<>();
    for (Path f : files) {
      Path abs = f.toAbsolutePath().normalize();
      if (!abs.startsWith(base) || abs.equals(base)) {
        throw new IllegalArgumentException("file " + f + " is not under the corpus root " + root);
      }
      String source = CorpusWalker.sourceOf(base, abs);
      if (java.nio.file.Files.isRegularFile(abs)) {
        present.add(new CorpusFile(abs, source));
      } else {
        gone.add(source);
      }
    }
    Map<String, String> known = new HashMap<>(catalog.documentHashes());
    listener.started(present.size());
    Run run = new Run(writer, listener);
    List<String> removed = new ArrayList<>();
    for (String source : gone) {
      if (known.containsKey(source)) {
        run.delete(source);
        removed.add(source);
      }
    }
    List<IngestReport.IndexedFile> indexed = new ArrayList<>();
    List<String> unchanged = new ArrayList<>();
    List<IngestReport.SkippedFile> skipped = new ArrayList<>();
    int written = indexEach(present, known, run, indexed, unchanged, skipped, removed);
    run.commit();
    removed.sort(null);
    return new IngestReport(indexed, unchanged, removed, skipped, written,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /** Indexes {@code files} in order, adding each outcome to the lists; returns chunks written. */
  private int indexEach(List<CorpusFile> files, Map<String, String> known, Run run,
      List<IngestReport.IndexedFile> indexed, List<String> unchanged,
      List<IngestReport.SkippedFile> skipped, List<String> removed) throws IOException {
    int written = 0;
    for (CorpusFile file : files) {
      String source = file.source();
      run.listener.fileStarted(source);
      try {
        Outcome o = process(file, known.get(source));
        if (o.unchanged()) {
          unchanged.add(source);
          continue;
        }
        if (o.skip() != null) {
          skipped.add(o.skip());
          if (known.containsKey(source)) {
            // the folder no longer has an indexable version: its old chunks must go too
            run.delete(source);
            removed.add(source);
          }
          continue;
        }
        try {
          run.replace(source, o.chunks());
        } catch (IllegalArgumentException e) {
          skipped.add(new IngestReport.SkippedFile(source, LoadException.Reason.CORRUPT.label(),
              source + ": " + e.getMessage()));
          continue;
        }
        written += o.chunks().size();
        indexed.add(new IngestReport.IndexedFile(source, o.chunks().size(),
            known.containsKey(source), o.warnings(), o.ocrPages(), o.ocrMillis()));
      } finally {
        run.listener.fileDone(source);
      }
    }
    return written;
  }

  /**
   * Decides one file: unchanged, skipped with a reason, or its embedded chunks. Every per-file
   * problem becomes a skip; nothing here touches the index.
   */
  private Outcome process(CorpusFile file, String knownHash) {
    String source = file.source();
    try {
      if (!reader.supports(file.path())) {
        // decided by name alone: an unsupported (maybe huge) file is never read
        return Outcome.skipped(source, LoadException.Reason.UNSUPPORTED_TYPE.label(),
            "supported: " + reader.supportedExtensions());
      }
      String hash = reader.contentHash(file.path(), source);
      if (hash.equals(knownHash)) {
        return Outcome.UNCHANGED;
      }
      LoadResult loaded = reader.read(file.path(), source);
      List<Chunk> chunks = chunker.chunk(loaded.document());
      if (chunks.isEmpty()) {
        return Outcome.skipped(source, LoadException.Reason.EMPTY.label(), "no indexable text");
      }
      if (chunks.size() > options.maxChunksPerDocument()) {
        return Outcome.skipped(source, TOO_MANY_CHUNKS, source + ": too many chunks ("
            + chunks.size() + " > " + options.maxChunksPerDocument() + ")");
      }
      return new Outcome(false, null, embed(withHash(chunks, hash)), loaded.warnings(),
          loaded.ocrPages(), loaded.ocrMillis());
    } catch (LoadException e) {
      return Outcome.skipped(source, e.reason().label(), e.getMessage());
    } catch (InputTooLongException e) {
      return Outcome.skipped(source, TOO_LONG_FOR_MODEL, source + ": " + e.getMessage());
    } catch (RuntimeException e) {
      // a chunker or model bug on odd input costs one file, not the run
      return Outcome.skipped(source, LoadException.Reason.CORRUPT.label(),
          source + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  /** The result of {@link #process}: exactly one of unchanged, skip, chunks. */
  private record Outcome(boolean unchanged, IngestReport.SkippedFile skip,
      List<EmbeddedChunk> chunks, List<String> warnings, int ocrPages, long ocrMillis) {
    static final Outcome UNCHANGED = new Outcome(true, null, List.of(), List.of(), 0, 0);

    static Outcome skipped(String source, String reason, String detail) {
      return new Outcome(false, new IngestReport.SkippedFile(source, reason, detail), List.of(),
          List.of(), 0, 0);
    }
  }

  /** Writes of one run, committing every {@code commitEvery} changed documents. */
  private final class Run {
    private final ChunkWriter writer;
    private final IngestListener listener;
    private int changed;
    private int sinceCommit;

    Run(ChunkWriter writer, IngestListener listener) {
      this.writer = writer;
      this.listener = listener;
    }

    void replace(String source, List<EmbeddedChunk> chunks) throws IOException {
      writer.replaceDocument(source, chunks);
      changedOne();
    }

    void delete(String source) throws IOException {
      writer.deleteDocument(source);
      changedOne();
    }

    private void changedOne() throws IOException {
      changed++;
      if (++sinceCommit >= options.commitEvery()) {
        commit();
      }
    }

    /** Commits the index, then the cache (a cache entry without index entry is harmless). */
    void commit() throws IOException {
      if (sinceCommit == 0) {
        return;
      }
      writer.commit();
      sinceCommit = 0;
      if (options.cache() != null) {
        options.cache().commit();
      }
      listener.committed(changed);
    }
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
      List<DenseRoutes.RoutedVectors> vectors = routes.embedAll(texts);
      for (int j = 0; j < batch.size(); j++) {
        DenseRoutes.RoutedVectors v = vectors.get(j);
        out.add(new EmbeddedChunk(batch.get(j), v.primary(), v.fields()));
      }
    }
    return out;
  }
}
