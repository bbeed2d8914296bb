package org.openbook.app.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.openbook.engine.OpenBook;
import org.openbook.chunk.Chunk;
import org.openbook.document.CorpusWalker;
import org.openbook.document.DocumentReader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.Loaders;
import org.openbook.index.IndexStore;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Principal;

/**
 * The live corpus behind {@code /v1/documents}. The server keeps the corpus in one folder
 * ({@code docsDir}); an upload writes its files there and runs the incremental
 * {@link org.openbook.ingest.Indexer} over that folder, so unchanged files are not re-embedded
 * and the new chunks become visible atomically at the commit. Writes are serialised by one lock;
 * searches go on meanwhile against the last commit.
 *
 * <p>Because the indexer removes sources that are no longer under its root, writes are refused
 * (409) while the index holds a source that is not a file under {@code docsDir} — for instance
 * when the index was built from another folder — rather than deleting those documents.
 */
public final class DocumentService {

  /** One uploaded file: the client's file name and its bytes. */
  public record Upload(String filename, byte[] content) {}

  /**
   * One indexed document as listed by {@code GET /v1/documents}.
   *
   * @param source    path relative to the corpus root, {@code /}-separated
   * @param dept      its department
   * @param chunks    chunks in the index
   * @param hash      SHA-256 hex of the file's bytes when it was ingested ({@code ""} if unknown)
   * @param updatedAt last modification of the file in the docs folder (when an upload wrote it),
   *                  or {@code null} when the file is not there
   */
  public record DocumentInfo(
      String source, String dept, int chunks, String hash, Instant updatedAt) {}

  /** File and folder names an upload may use: letters, digits, {@code . _ -} and spaces, not starting with a dot or space. */
  private static final Pattern SEGMENT = Pattern.compile("[\\p{L}\\p{N}_\\-][\\p{L}\\p{N}._\\- ]*");
  private static final String STAGING = ".openbook-upload";

  private final OpenBook engine;
  private final Path docsDir;
  private final DocumentReader reader;
  private final ReentrantLock writeLock = new ReentrantLock();

  /**
   * @param engine       the engine whose index is served (opened for writing)
   * @param docsDir      the corpus folder; created on the first upload if absent
   * @param maxFileBytes largest file the loaders read
   */
  public DocumentService(OpenBook engine, Path docsDir, long maxFileBytes) {
    this.engine = engine;
    this.docsDir = docsDir.toAbsolutePath().normalize();
    this.reader = new DocumentReader(Loaders.defaults(), maxFileBytes);
  }

  /** The corpus folder. */
  public Path docsDir() {
    return docsDir;
  }

  /**
   * Writes {@code files} into the docs folder (under {@code folder} when given) and ingests.
   * Every file is loaded first; nothing is written unless all load and every document's
   * department is one {@code writer} may read (a writer cannot plant documents in a department
   * it cannot see).
   *
   * @param folder optional sub-folder, e.g. {@code hr}; {@code null} for the root
   * @return the ingest report of the run
   * @throws ApiException 400/415/422 naming {@code files[i]} or {@code folder}; 409 when the index
   *     holds sources outside the docs folder
   */
  public IngestReport upload(Principal writer, String folder, List<Upload> files)
      throws IOException {
    if (files.isEmpty()) {
      throw ApiException.badRequest("files", "no files: send one or more multipart parts named 'files'");
    }
    Path target = targetFolder(folder);
    Map<String, Upload> bySource = new LinkedHashMap<>();
    for (int i = 0; i < files.size(); i++) {
      Upload u = files.get(i);
      String field = "files[" + i + "]";
      String name = baseName(u.filename(), field);
      if (!reader.supports(Path.of(name))) {
        throw new ApiException(415, field, "unsupported file type '" + name + "'; supported: "
            + String.join(", ", reader.supportedExtensions()));
      }
      String source = CorpusWalker.sourceOf(docsDir, target.resolve(name));
      if (bySource.put(source, u) != null) {
        throw ApiException.badRequest(field, "file '" + source + "' is uploaded twice");
      }
    }
    writeLock.lock();
    try {
      requireDocsFolderHoldsIndex();
      Path staging = docsDir.resolve(STAGING);
      Files.createDirectories(staging);
      Map<String, Path> staged = new LinkedHashMap<>();
      List<String> existedBefore = new ArrayList<>();
      try {
        int i = 0;
        for (Map.Entry<String, Upload> e : bySource.entrySet()) {
          String field = "files[" + i++ + "]";
          Path tmp = Files.createTempFile(staging, "up-", "-" + Path.of(e.getKey()).getFileName());
          Files.write(tmp, e.getValue().content());
          staged.put(e.getKey(), tmp);
          check(writer, tmp, e.getKey(), field);
        }
        for (Map.Entry<String, Path> e : staged.entrySet()) {
          Path dest = docsDir.resolve(e.getKey());
          if (Files.exists(dest)) {
            existedBefore.add(e.getKey());
          }
          Files.createDirectories(dest.getParent());
          move(e.getValue(), dest);
        }
      } finally {
        for (Path p : staged.values()) {
          Files.deleteIfExists(p);
        }
      }
      IngestReport report = engine.ingest(docsDir, IngestListener.NONE);
      rejectIfNothingIndexed(report, new ArrayList<>(bySource.keySet()), existedBefore);
      return report;
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Removes {@code source} from the index (and its file from the docs folder), committing at once.
   *
   * @throws ApiException 404 naming {@code source} when the index has no such document, or it is
   *     in a department {@code writer} cannot read
   */
  public void delete(Principal writer, String source) throws IOException {
    writeLock.lock();
    try {
      IndexStore store = engine.store();
      Optional<Chunk> first = store.documentHashes().containsKey(source)
          ? store.get(source + "#0") : Optional.empty();
      if (first.isEmpty() || !writer.departments().contains(first.get().dept())) {
        throw new ApiException(404, "source", "no document '" + source + "' in the index");
      }
      Path file = docsDir.resolve(source).normalize();
      if (file.startsWith(docsDir) && !file.equals(docsDir)) {
        Files.deleteIfExists(file);
      }
      store.deleteDocument(source);
      store.commit();
    } finally {
      writeLock.unlock();
    }
  }

  /** The indexed documents {@code reader} may read, sorted by source. */
  public List<DocumentInfo> list(Principal principal) throws IOException {
    IndexStore store = engine.store();
    List<DocumentInfo> out = new ArrayList<>();
    for (Map.Entry<String, String> e : store.documentHashes().entrySet()) {
      String source = e.getKey();
      Optional<Chunk> first = store.get(source + "#0");
      String dept = first.map(Chunk::dept).orElse(null);
      if (dept == null || !principal.departments().contains(dept)) {
        continue;
      }
      Path file = docsDir.resolve(source).normalize();
      Instant updated = file.startsWith(docsDir) && Files.isRegularFile(file)
          ? Files.getLastModifiedTime(file).toInstant() : null;
      out.add(new DocumentInfo(source, dept, chunkCount(store, source), e.getValue(), updated));
    }
    return out;
  }

  /**
   * Chunks of {@code source}: ids are {@code <source>#<ordinal>} with ordinals 0..n-1 (a document
   * is always replaced whole), so the count is the first missing ordinal, found by doubling and
   * then bisecting — O(log n) id look-ups.
   */
  static int chunkCount(IndexStore store, String source) throws IOException {
    if (store.get(source + "#0").isEmpty()) {
      return 0;
    }
    int present = 0;
    int probe = 1;
    while (store.get(source + "#" + probe).isPresent()) {
      present = probe;
      probe *= 2;
    }
    int lo = present;
    int hi = probe;
    while (hi - lo > 1) {
      int mid = (lo + hi) >>> 1;
      if (store.get(source + "#" + mid).isPresent()) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private void check(Principal writer, Path file, String source, String field) {
    LoadResult loaded;
    try {
      loaded = reader.read(file, source);
    } catch (LoadException e) {
      throw new ApiException(422, field, "cannot load '" + source + "': " + e.reason().label()
          + " (" + e.getMessage() + ")");
    }
    String dept = loaded.document().dept();
    if (!writer.departments().contains(dept)) {
      throw new ApiException(403, field, "'" + source + "' has dept '" + dept
          + "', which principal '" + writer.name() + "' may not read");
    }
  }

  /**
   * Loaded files can still yield no chunks (e.g. front matter only). New files the indexer
   * skipped are removed again so the docs folder matches the index; when no upload was indexed
   * the request fails with 422 naming the first.
   */
  private void rejectIfNothingIndexed(IngestReport report, List<String> uploaded,
      List<String> existedBefore) throws IOException {
    Map<String, IngestReport.SkippedFile> skipped = new LinkedHashMap<>();
    report.skipped().forEach(s -> skipped.put(s.source(), s));
    int failed = 0;
    ApiException first = null;
    for (int i = 0; i < uploaded.size(); i++) {
      IngestReport.SkippedFile s = skipped.get(uploaded.get(i));
      if (s == null) {
        continue;
      }
      failed++;
      if (first == null) {
        first = new ApiException(422, "files[" + i + "]", "'" + s.source()
            + "' was not indexed: " + s.reason() + " (" + s.detail() + ")");
      }
      if (!existedBefore.contains(s.source())) {
        Files.deleteIfExists(docsDir.resolve(s.source()));
      }
    }
    if (failed == uploaded.size()) {
      throw first;
    }
  }

  private void requireDocsFolderHoldsIndex() throws IOException {
    List<String> missing = new ArrayList<>();
    for (String source : engine.store().documentHashes().keySet()) {
      if (!Files.isRegularFile(docsDir.resolve(source))) {
        missing.add(source);
      }
    }
    if (!missing.isEmpty()) {
      throw new ApiException(409, null, "writes are disabled: " + missing.size()
          + " indexed source(s) are not files under the docs folder " + docsDir + " (e.g. '"
          + missing.get(0) + "'); an ingest would remove them. Serve with --docs set to the "
          + "folder the index was built from.");
    }
  }

  private Path targetFolder(String folder) {
    if (folder == null || folder.isBlank()) {
      return docsDir;
    }
    Path p = docsDir;
    for (String seg : folder.split("/", -1)) {
      if (!SEGMENT.matcher(seg).matches()) {
        throw ApiException.badRequest("folder", "bad folder '" + folder
            + "': use '/'-separated names of letters, digits, '.', '_' or '-', not starting with '.'");
      }
      p = p.resolve(seg);
    }
    return p;
  }

  private static String baseName(String filename, String field) {
    if (filename == null || filename.isBlank()) {
      throw ApiException.badRequest(field, "file part has no file name");
    }
    // Browsers may send a full client path; only the last segment names the file.
    String name = filename.substring(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
    if (!SEGMENT.matcher(name).matches()) {
      throw ApiException.badRequest(field, "bad file name '" + filename
          + "': letters, digits, '.', '_' or '-', not starting with '.'");
    }
    return name;
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Visible chunks now. */
  public long count() {
    try {
      return engine.store().count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
