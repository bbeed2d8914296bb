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
import org.openbook.index.ChunkStore.ChunkWriter;
import org.openbook.index.ChunkStore.DocumentCatalog;
import org.openbook.index.EmbeddedChunk;

/**
 * The ingest pipeline: walk a folder, load each file, chunk, embed and write it, committing every
 * {@link IngestOptions#commitEvery()} changed documents and once at the end.
 *
 * <ul>
 *   <li>Throughput: loading and chunking run one thread ahead, the model embeds batches of
 *       {@value #EMBED_BATCH} texts across file boundaries on another, and the calling thread
 *       writes and commits documents in walk order ({@link EmbeddingPipeline}), so the run goes
 *       at the model's own rate (docs/PERFORMANCE.md).</li>
 *   <li>Incremental: a file whose SHA-256 equals the {@code contentHash} the index holds for its
 *       source is neither parsed nor embedded; a changed file replaces all its old chunks (both
 *       routes, one atomic update); a source no longer under the root, or no longer indexable,
 *       loses all its chunks. Sources missing from the folder are deleted first, so a renamed
 *       file never shows twice after the first commit.</li>
 *   <li>Crash safety comes from the store: each commit is atomic and carries its manifest, so a
 *       killed run leaves the last commit; the next run sees those documents' hashes and
 *       continues with the rest.</li>
 *   <li>A file's chunks are all embedded before any is written, so a file the embedding
 *       endpoint failed on is reported ({@link #EMBEDDING_FAILED}) and not half-written; it
 *       carries no new content hash, so the next run embeds it.</li>
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

  /**
   * Skip reason of a file whose chunks the embedding endpoint could not embed (down, overloaded
   * past its retries): nothing of the new version is written, the index keeps the version it had
   * (whose content hash differs, so the next run embeds the file again).
   */
  public static final String EMBEDDING_FAILED = "embedding failed";

  /**
   * Texts per embedding call, across files: the batch the model is measured with (docs/
   * PERFORMANCE.md); LangChain4j spreads a batch over the cores, so it must be well above their
   * number. Public so the throughput benchmark's raw baseline uses the same batch.
   */
  public static final int EMBED_BATCH = 32;

  /**
   * Chunks loaded ahead of the index writes at most (plus one document): four batches keep the
   * model fed while the loader reads the next files, and bound memory to about 4 × 32 chunk
   * texts and vectors (a few MB) however large the folder.
   */
  static final int MAX_CHUNKS_IN_FLIGHT = 4 * EMBED_BATCH;

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
    int written = indexEach(walk.files(), known, run, indexed, unchanged, skipped, removed,
        null);
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
    return ingestFiles(root, files, writer, catalog, listener, null);
  }

  /**
   * Loads one file of an ingest: the reader's {@link DocumentReader#read}, or what a caller
   * already loaded (an upload is loaded before the index is locked, and only once).
   */
  @FunctionalInterface
  public interface FileLoader {
    /** As {@link DocumentReader#read}. */
    LoadResult read(Path file, String source) throws LoadException;
  }

  /**
   * As {@link #ingestFiles(Path, List, ChunkWriter, DocumentCatalog, IngestListener)}, loading
   * each changed file with {@code loader} instead of the reader (which then decides the supported
   * types too: its {@link LoadException.Reason#UNSUPPORTED_TYPE} is a skip like any other).
   *
   * @param loader the loader, or null for the reader
   */
  public IngestReport ingestFiles(Path root, List<Path> files, ChunkWriter writer,
      DocumentCatalog catalog, IngestListener listener, FileLoader loader) throws IOException {
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
    int written = indexEach(present, known, run, indexed, unchanged, skipped, removed, loader);
    run.commit();
    removed.sort(null);
    return new IngestReport(indexed, unchanged, removed, skipped, written,
        (System.nanoTime() - t0) / 1_000_000);
  }

  /**
   * Indexes {@code files} in order through an {@link EmbeddingPipeline} (loading and embedding
   * run ahead on their own threads, batches span files), adding each outcome to the lists;
   * returns chunks written. Index writes and commits stay on the calling thread, in file order.
   */
  private int indexEach(List<CorpusFile> files, Map<String, String> known, Run run,
      List<IngestReport.IndexedFile> indexed, List<String> unchanged,
      List<IngestReport.SkippedFile> skipped, List<String> removed, FileLoader loader)
      throws IOException {
    int written = 0;
    // a remote model asks for its own batch (request size × requests in flight)
    int batch = routes.ingestBatchSize() > 0 ? routes.ingestBatchSize() : EMBED_BATCH;
    try (EmbeddingPipeline pipeline = new EmbeddingPipeline(files,
        f -> process(f, known.get(f.source()), loader), routes, batch,
        batch == EMBED_BATCH ? MAX_CHUNKS_IN_FLIGHT : 4 * batch)) {
      for (EmbeddingPipeline.Done d = pipeline.next(); d != null; d = pipeline.next()) {
        String source = d.file().source();
        Outcome o = d.outcome();
        run.listener.fileStarted(source);
        try {
          if (o.unchanged()) {
            unchanged.add(source);
            continue;
          }
          if (o.skip() != null) {
            skipped.add(o.skip());
            if (known.containsKey(source) && !EMBEDDING_FAILED.equals(o.skip().reason())) {
              // the folder no longer has an indexable version: its old chunks must go too (an
              // embedding failure says nothing of the file: its previous version stays whole)
              run.delete(source);
              removed.add(source);
            }
            continue;
          }
          try {
            run.replace(source, o.chunks());
          } catch (IllegalArgumentException e) {
            skipped.add(new IngestReport.SkippedFile(source, LoadException.Reason.CORRUPT.label(),
                e.getMessage()));
            continue;
          }
          written += o.chunks().size();
          indexed.add(new IngestReport.IndexedFile(source, o.chunks().size(),
              known.containsKey(source), o.warnings(), o.ocrPages(), o.ocrMillis()));
        } finally {
          run.listener.fileDone(source);
        }
      }
    }
    return written;
  }

  /**
   * Decides one file before embedding: unchanged, skipped with a reason, or its chunks (with the
   * content hash in their meta) to embed. Every per-file problem becomes a skip; nothing here
   * touches the index or the model. Runs on the pipeline's loader thread.
   */
  private EmbeddingPipeline.Loaded process(CorpusFile file, String knownHash,
      FileLoader loader) {
    String source = file.source();
    try {
      if (loader == null && !reader.supports(file.path())) {
        // decided by name alone: an unsupported (maybe huge) file is never read
        return skip(file, LoadException.Reason.UNSUPPORTED_TYPE.label(),
            "supported: " + reader.supportedExtensions());
      }
      String hash = reader.contentHash(file.path(), source);
      if (hash.equals(knownHash)) {
        return new EmbeddingPipeline.Loaded(file, Outcome.UNCHANGED, List.of());
      }
      LoadResult loaded = loader == null ? reader.read(file.path(), source)
          : loader.read(file.path(), source);
      List<Chunk> chunks = chunker.chunk(loaded.document());
      if (chunks.isEmpty()) {
        return skip(file, LoadException.Reason.EMPTY.label(), "no indexable text");
      }
      if (chunks.size() > options.maxChunksPerDocument()) {
        return skip(file, TOO_MANY_CHUNKS, chunks.size() + " chunks, the limit is "
            + options.maxChunksPerDocument() + " (ingest.maxChunksPerDocument)");
      }
      return new EmbeddingPipeline.Loaded(file, new Outcome(false, null, List.of(),
          loaded.warnings(), loaded.ocrPages(), loaded.ocrMillis()), withHash(chunks, hash));
    } catch (LoadException e) {
      return skip(file, e.reason().label(), e.getMessage());
    } catch (RuntimeException e) {
      // a loader or chunker bug on odd input costs one file, not the run
      return skip(file, LoadException.Reason.CORRUPT.label(),
          e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static EmbeddingPipeline.Loaded skip(CorpusFile file, String reason, String detail) {
    return new EmbeddingPipeline.Loaded(file, Outcome.skipped(file.source(), reason, detail),
        List.of());
  }

  /** The result for one file: exactly one of unchanged, skip, chunks. */
  record Outcome(boolean unchanged, IngestReport.SkippedFile skip,
      List<EmbeddedChunk> chunks, List<String> warnings, int ocrPages, long ocrMillis) {
    static final Outcome UNCHANGED = new Outcome(true, null, List.of(), List.of(), 0, 0);

    static Outcome skipped(String source, String reason, String detail) {
      return new Outcome(false, new IngestReport.SkippedFile(source, reason, detail), List.of(),
          List.of(), 0, 0);
    }

    /** This outcome with its embedded chunks. */
    Outcome withChunks(List<EmbeddedChunk> embedded) {
      return new Outcome(false, null, embedded, warnings, ocrPages, ocrMillis);
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

}
