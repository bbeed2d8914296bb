package org.openbook.engine.corpus;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
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
import org.openbook.document.DocumentReader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.Loaders;
import org.openbook.engine.OpenBook;
import org.openbook.index.DocumentEntry;
import org.openbook.index.IndexStore;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live corpus of a server: one docs folder and the index built from it. Uploads are
 * <em>staged</em> (written under short temporary names in {@code <docs>/.openbook-upload}),
 * then <em>committed</em>: department checks, a journal, the move into the docs folder, an
 * ingest of exactly those files, and on any failure a roll-back that restores the previous
 * files and their index entries. A process killed mid-commit leaves the journal behind;
 * {@link #reconcile()} at start-up rolls that upload back, so a file is never left in the docs
 * folder without its index entry. Writes are serialised by one lock; searches go on against the
 * last commit.
 *
 * <p>Paths: every source a request names is parsed once into a {@link SourcePath} (NFC, no
 * {@code .}, {@code ..} or empty segments) before any lookup, rule or file operation, and the
 * index's sources are compared in that form. A change never goes through a symbolic link
 * ({@link DocsFolder}): documents reached through a link are read-only through the API.
 *
 * <p>Access: a principal may create, replace or delete only documents of departments it can
 * read — both the department the new file declares and the one already indexed at that source.
 * Every such refusal of an upload has one reply, whatever the reason. Lists and sections show
 * only readable departments; a document of another department is reported as not found, so its
 * existence is not revealed. (Whether a principal may write at all is the caller's decision.)
 *
 * <p>Because a full re-ingest would remove sources that are not under the docs folder, writes are
 * refused ({@link CorpusConflictException}) while the index holds such a source.
 */
public final class Corpus {
  private static final Logger LOG = LoggerFactory.getLogger(Corpus.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Staging folder under the docs folder; the corpus walker skips dot-folders. */
  static final String STAGING = ".openbook-upload";
  private static final String JOURNAL = "journal.json";
  /** Longest file or folder name accepted, in UTF-8 bytes (below the 255 of common file systems). */
  public static final int MAX_NAME_BYTES = 200;

  /** Names an upload may use: letters, digits, {@code . _ -} and spaces, not starting with a dot or space. */
  private static final Pattern SEGMENT =
      Pattern.compile("[\\p{L}\\p{N}_\\-][\\p{L}\\p{N}._\\- ]*");

  /** One uploaded file: the client's file name and its bytes. */
  public record Upload(String filename, byte[] content) {}

  /**
   * One staged file.
   *
   * @param source the source it will become, relative to the docs folder
   * @param field  the request field it came from, {@code files[i]}
   * @param file   its staged copy (a short temporary name with the original extension)
   */
  public record StagedFile(String source, String field, Path file) {}

  /** Files staged by {@link #stage}, waiting for {@link #commit} or {@link #discard}. */
  public record Staged(List<StagedFile> files) {
    public Staged {
      files = List.copyOf(files);
    }

    /** The sources, in upload order. */
    public List<String> sources() {
      return files.stream().map(StagedFile::source).toList();
    }
  }

  /**
   * One listed document.
   *
   * @param source    path relative to the docs folder, {@code /}-separated
   * @param title     front matter title, else first heading, else file name
   * @param dept      its department
   * @param chunks    chunks in the index
   * @param hash      SHA-256 hex of the file's bytes when ingested ({@code ""} if unknown)
   * @param updatedAt last modification of the file in the docs folder, or {@code null} if absent
   */
  public record DocumentInfo(String source, String title, String dept, int chunks, String hash,
      Instant updatedAt) {}

  /**
   * One page of a listing.
   *
   * @param total all items the principal may see
   * @param items the items in {@code [offset, offset + limit)}
   */
  public record Page<T>(int total, int offset, int limit, List<T> items) {}

  /**
   * A whole document section: the consecutive chunks of one document under one heading path.
   *
   * @param chunkId     the chunk asked for
   * @param headingPath headings joined by {@code " > "}, or empty
   * @param page        1-based page of the first chunk, or 0 for documents without pages
   * @param text        the chunks' raw texts joined by blank lines, in document order
   * @param chunkIds    the section's chunk ids in order
   */
  public record Section(String chunkId, String source, String title, String dept,
      String headingPath, int page, String text, List<String> chunkIds) {}

  /**
   * What {@link #reconcile()} found.
   *
   * @param rolledBack sources of an interrupted upload that were rolled back
   * @param strayFiles staged files of interrupted uploads that were deleted
   */
  public record Reconciled(List<String> rolledBack, int strayFiles) {}

  /** The journal of a commit in progress: each source and its backup (or null if new). */
  record Journal(List<Entry> entries) {
    record Entry(String source, String backup) {}
  }

  private final OpenBook engine;
  private final Path docsDir;
  private final Path staging;
  private final DocumentReader reader;
  private final org.openbook.document.FolderAccess rules;
  private final DocsFolder folder;
  private final ReentrantLock writeLock = new ReentrantLock();

  /**
   * @param engine       the engine whose index is served (opened for writing)
   * @param docsDir      the corpus folder; created on the first upload if absent
   * @param maxFileBytes largest file the loaders read
   */
  public Corpus(OpenBook engine, Path docsDir, long maxFileBytes) {
    this(engine, docsDir, maxFileBytes,
        Loaders.defaults(engine.settings().ingest().loaders()));
  }

  /**
   * As {@link #Corpus(OpenBook, Path, long)} loading uploads with {@code loaders} (the
   * configured ones by default; a test may add a slow or failing one).
   */
  public Corpus(OpenBook engine, Path docsDir, long maxFileBytes, Loaders loaders) {
    this.engine = engine;
    this.docsDir = docsDir.toAbsolutePath().normalize();
    this.staging = this.docsDir.resolve(STAGING);
    this.folder = new DocsFolder(this.docsDir);
    this.rules = engine.settings().access();
    // the engine's folder rules, so the checks see the department the ingest will give
    this.reader = new DocumentReader(loaders, maxFileBytes, engine.settings().access());
  }

  /** The corpus folder. */
  public Path docsDir() {
    return docsDir;
  }

  /**
   * Checks names and types and writes {@code files} to the staging folder (under {@code folder}
   * once committed). Nothing enters the docs folder or the index.
   *
   * @param folder optional sub-folder, {@code /}-separated, e.g. {@code hr}; null for the root.
   *     Normalised as a {@link SourcePath} ({@code ./finance} and {@code hr/../finance} are
   *     {@code finance}), so the folder rules see the folder the file lands in
   * @throws InvalidUploadException naming {@code files[i]} or {@code folder}: no files, a missing,
   *     over-long ({@value #MAX_NAME_BYTES} bytes) or disallowed name, a duplicate, an
   *     unsupported type, a folder that leaves the docs folder
   */
  public Staged stage(String folder, List<Upload> files) throws IOException {
    if (files.isEmpty()) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, "files",
          "no files: send one or more multipart parts named 'files'");
    }
    Optional<SourcePath> target = targetFolder(folder);
    Map<String, Integer> bySource = new LinkedHashMap<>();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < files.size(); i++) {
      String field = "files[" + i + "]";
      String name = baseName(files.get(i).filename(), field);
      if (!reader.supports(Path.of(name))) {
        throw new InvalidUploadException(InvalidUploadException.Reason.UNSUPPORTED_TYPE, field,
            "unsupported file type '" + name + "'; supported: "
                + String.join(", ", reader.supportedExtensions()));
      }
      String source = SourcePath.in(target, name).value();
      if (bySource.put(source, i) != null) {
        throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
            "file '" + source + "' is uploaded twice");
      }
      names.add(name);
    }
    Files.createDirectories(staging);
    // one folder per upload, files under their own names (at most MAX_NAME_BYTES), so a loader
    // that falls back on the file name for the title sees the real one
    Path dir = Files.createTempDirectory(staging, "up-");
    List<StagedFile> staged = new ArrayList<>();
    try {
      for (Map.Entry<String, Integer> e : bySource.entrySet()) {
        int i = e.getValue();
        Path tmp = dir.resolve(names.get(i));
        staged.add(new StagedFile(e.getKey(), "files[" + i + "]", tmp));
        Files.write(tmp, files.get(i).content());
      }
    } catch (IOException | RuntimeException e) {
      discard(new Staged(staged));
      throw e;
    }
    return new Staged(staged);
  }

  /**
   * Checks, before any change, that uploads can be committed at all (the docs folder holds the
   * indexed documents) and that {@code writer} may read both the department each staged file
   * declares and the department of the document it would replace. Only the metadata that
   * decides the department is read ({@link DocumentReader#declaredDepartment}), so the check is
   * cheap whatever the file; {@link #commit} loads each file once and checks the loaded
   * document, and checks replacements again under the write lock.
   *
   * @return staged source → the department it will be indexed under (its metadata, else its
   *     folder's {@code access.folders} rule, else {@value org.openbook.document.Document#PUBLIC}),
   *     in staging order
   * @throws CorpusConflictException when writes are disabled (see {@link #writesDisabled()})
   * @throws AccessDeniedException naming {@code files[i]}
   * @throws InvalidUploadException ({@code UNREADABLE}) naming {@code files[i]}
   */
  public Map<String, String> check(Principal writer, Staged staged) throws IOException {
    requireDocsFolderHoldsIndex();
    Map<String, DocumentEntry> indexed = catalogue();
    Map<String, String> depts = new java.util.LinkedHashMap<>();
    for (StagedFile f : staged.files()) {
      String dept;
      try {
        // metadata only: the body is parsed once, by the job (an Office file or a PDF not here);
        // read before the name is looked at, so an unreadable file is refused alike at any name
        dept = reader.declaredDepartment(f.file(), f.source());
      } catch (LoadException e) {
        throw unreadable(f, e);
      }
      checkWritable(writer, f, indexed.get(f.source()), dept);
      depts.put(f.source(), dept);
    }
    return depts;
  }

  /**
   * Why uploads cannot be committed, or empty when they can: every indexed source
   * must be a file under the docs folder, else an ingest of it would remove the others (the
   * server was started with another {@code --docs} than the folder the index was built from).
   */
  public Optional<String> writesDisabled() throws IOException {
    try {
      requireDocsFolderHoldsIndex();
      return Optional.empty();
    } catch (CorpusConflictException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The normal form of {@code folder} as {@link #stage} uses it ({@code ""} for the root). */
  public static String folderOf(String folder) {
    return targetFolder(folder).map(SourcePath::value).orElse("");
  }

  /** Whether an {@code access.folders} rule gives {@code source} its department. */
  public boolean folderRuleCovers(String source) {
    return reader.folderDepartment(source) != null;
  }

  /** Deletes the staged copies and their folder (after a refused or failed commit, or instead of one). */
  public void discard(Staged staged) {
    for (StagedFile f : staged.files()) {
      try {
        Files.deleteIfExists(f.file());
        Path dir = f.file().getParent();
        if (!dir.equals(staging) && dir.startsWith(staging)) {
          try (var left = Files.list(dir)) {
            if (left.findAny().isEmpty()) {
              Files.deleteIfExists(dir);
            }
          }
        }
      } catch (IOException e) {
        LOG.warn("cannot delete staged file {}: {}", f.file(), e.getMessage());
      }
    }
  }

  /**
   * Loads each staged file once (before the write lock, so a slow file holds up no other
   * writer), then under the lock checks each loaded document's department and the document it
   * replaces, moves the files into the docs folder and ingests exactly them from what was loaded. On any
   * failure, an {@link Error} such as {@link OutOfMemoryError} included, the docs folder and index
   * are restored to their state before the call. The staged copies are consumed either way.
   *
   * @param writer   who uploads; must be able to read every department involved
   * @param listener progress of the ingest ({@code started(n)}, {@code fileDone} per file)
   * @return the ingest report of the uploaded files only
   * @throws AccessDeniedException naming {@code files[i]} when a file declares, or replaces a
   *     document of, a department {@code writer} cannot read, or its path passes through a
   *     symbolic link (one message for all three)
   * @throws InvalidUploadException ({@code UNREADABLE}) naming {@code files[i]} when a file cannot
   *     be loaded, or no uploaded file yielded chunks
   * @throws CorpusConflictException when the docs folder does not hold the indexed documents
   */
  public IngestReport commit(Principal writer, Staged staged, IngestListener listener)
      throws IOException {
    try {
      // Load every file once, before the write lock: a slow file (OCR, a large workbook) holds
      // up no other writer; the lock covers only the chunking, embedding and index writes.
      Map<String, LoadResult> loaded = new LinkedHashMap<>();
      Map<String, LoadException> failed = new LinkedHashMap<>();
      for (StagedFile f : staged.files()) {
        try {
          loaded.put(f.source(), reader.read(f.file(), f.source()));
        } catch (LoadException e) {
          failed.put(f.source(), e);
        }
      }
      if (loaded.isEmpty()) {
        StagedFile first = staged.files().get(0);
        throw notIndexed(first, failed.get(first.source()));
      }
      writeLock.lock();
      try {
        return commitLoaded(writer, staged, loaded, listener, (file, source) -> {
          LoadResult r = loaded.get(source);
          if (r != null) {
            return r;
          }
          LoadException e = failed.get(source);
          if (e != null) {
            throw e;
          }
          return reader.read(file, source);
        });
      } finally {
        writeLock.unlock();
      }
    } finally {
      discard(staged);
    }
  }

  /**
   * The locked part of {@link #commit}: checks the loaded departments and replacements, moves in,
   * ingests, rolls back on failure.
   */
  private IngestReport commitLoaded(Principal writer, Staged staged,
      Map<String, LoadResult> loaded, IngestListener listener,
      org.openbook.ingest.Indexer.FileLoader loader) throws IOException {
    requireDocsFolderHoldsIndex();
    Map<String, DocumentEntry> indexed = catalogue();
    for (StagedFile f : staged.files()) {
      LoadResult r = loaded.get(f.source());
      checkWritable(writer, f, indexed.get(f.source()), r == null ? null : r.document().dept());
    }
    Journal journal = moveIn(staged);
    IngestReport report;
    try {
      report = engine.ingest(docsDir, staged.files().stream()
          .map(f -> docsDir.resolve(f.source())).toList(), loader, listener);
    } catch (IOException | RuntimeException | Error e) {
      // an OutOfMemoryError or StackOverflowError too: never leave files without index entries
      rollBack(journal);
      throw e;
    }
    List<String> skippedNew = new ArrayList<>();
    InvalidUploadException firstSkip = null;
    for (IngestReport.SkippedFile s : report.skipped()) {
      StagedFile f = staged.files().stream().filter(x -> x.source().equals(s.source()))
          .findFirst().orElseThrow();
      if (firstSkip == null) {
        firstSkip = new InvalidUploadException(InvalidUploadException.Reason.UNREADABLE,
            f.field(), "'" + s.source() + "' was not indexed: " + s.reason()
            + (s.detail().isEmpty() ? "" : " (" + s.detail() + ")"));
      }
      if (journal.entries().stream().anyMatch(
          j -> j.source().equals(s.source()) && j.backup() == null)) {
        skippedNew.add(s.source());
      }
    }
    if (firstSkip != null && report.indexed().isEmpty()) {
      rollBack(journal);
      throw firstSkip;
    }
    for (String source : skippedNew) {
      // a new file that yielded no chunks would otherwise sit in the docs folder unindexed
      Files.deleteIfExists(docsDir.resolve(source));
    }
    finish(journal);
    return report;
  }

  /**
   * Removes {@code source} from the index and its file from the docs folder. A file that is on
   * disk but not indexed (left by an interrupted upload of an older version) is removed too.
   *
   * @param source the source as the request named it; parsed as a {@link SourcePath}
   * @return the normal form of the deleted source
   * @throws InvalidUploadException ({@code BAD_NAME}) naming {@code source} when it has no normal
   *     form (e.g. {@code ..} leaves the docs folder)
   * @throws NotFoundException naming {@code source} when it is neither indexed nor a file in the
   *     docs folder, or its department is one {@code writer} cannot read — one reply for both
   * @throws AccessDeniedException naming {@code source} when it is a readable document reached
   *     through a symbolic link (the API never changes files there)
   */
  public String delete(Principal writer, String source) throws IOException {
    SourcePath path = SourcePath.parse(source, "source");
    writeLock.lock();
    try {
      // the disk is looked at before the department decides, so both refusals do the same work
      DocsFolder.Located file = folder.locate(path);
      DocumentEntry entry = catalogue().get(path.value());
      String dept = entry != null ? entry.dept()
          : file.plainFile() ? fileDept(file.file(), path.value()) : null;
      if (dept == null || !writer.departments().contains(dept)) {
        throw notFound();
      }
      if (file.linked()) {
        throw new AccessDeniedException("source", "'" + path + "' is reached through a symbolic"
            + " link in the docs folder; the API does not change files there (change it on the"
            + " server and re-ingest)");
      }
      if (file.exists()) {
        Files.deleteIfExists(file.file());
      }
      if (entry != null) {
        IndexStore store = engine.store();
        store.deleteDocument(entry.source());
        store.commit();
      }
      return path.value();
    } finally {
      writeLock.unlock();
    }
  }

  private static NotFoundException notFound() {
    return new NotFoundException("source", "no such document");
  }

  /**
   * The indexed documents {@code principal} may read, sorted by source.
   *
   * @param offset first item, ≥ 0
   * @param limit  items per page, ≥ 1
   */
  public Page<DocumentInfo> list(Principal principal, int offset, int limit) throws IOException {
    List<DocumentEntry> readable = engine.store().documents().stream()
        .filter(d -> principal.departments().contains(d.dept())).toList();
    List<DocumentInfo> items = new ArrayList<>();
    for (DocumentEntry d : readable.subList(Math.min(offset, readable.size()),
        Math.min(readable.size(), offset + (long) limit > Integer.MAX_VALUE
            ? readable.size() : offset + limit))) {
      Path file = fileOf(d.source());
      Instant updated = file != null ? Files.getLastModifiedTime(file).toInstant() : null;
      items.add(new DocumentInfo(d.source(), titleOf(d.title(), d.source()), d.dept(),
          d.chunks(), d.contentHash(), updated));
    }
    return new Page<>(readable.size(), offset, limit, items);
  }

  /**
   * The section around {@code chunkId}: it and its neighbours in the same document with the same
   * heading path.
   *
   * @throws NotFoundException naming {@code chunkId} when there is no such chunk or
   *     {@code principal} cannot read its department
   */
  public Section section(Principal principal, String chunkId) throws IOException {
    return Sections.read(engine.store(), principal, chunkId);
  }

  /**
   * The display title of a source: {@code title} when not blank, else the file name.
   */
  public static String titleOf(String title, String source) {
    if (title != null && !title.isBlank()) {
      return title.strip();
    }
    return source.substring(source.lastIndexOf('/') + 1);
  }

  /**
   * Start-up repair: rolls back an upload whose commit was interrupted (restoring the files it
   * replaced, removing the files it added, re-indexing the restored ones) and deletes staged
   * files left by interrupted uploads.
   */
  public Reconciled reconcile() throws IOException {
    writeLock.lock();
    try {
      if (!Files.isDirectory(staging)) {
        return new Reconciled(List.of(), 0);
      }
      List<String> rolledBack = List.of();
      Path journalFile = staging.resolve(JOURNAL);
      if (Files.exists(journalFile)) {
        Journal journal = JSON.readValue(journalFile.toFile(), Journal.class);
        rollBack(journal);
        rolledBack = journal.entries().stream().map(Journal.Entry::source).toList();
      }
      int stray = 0;
      try (DirectoryStream<Path> left = Files.newDirectoryStream(staging)) {
        for (Path p : left) {
          stray += deleteTree(p);
        }
      }
      if (!rolledBack.isEmpty() || stray > 0) {
        LOG.warn("reconciled the docs folder: rolled back interrupted upload of {}; deleted {} "
            + "staged file(s)", rolledBack, stray);
      }
      return new Reconciled(rolledBack, stray);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * What a principal may read.
   *
   * @param documents indexed documents of readable departments
   * @param chunks    their chunks
   */
  public record Counts(int documents, long chunks) {}

  /** The documents and chunks {@code principal} may read now (the catalogue, filtered). */
  public Counts counts(Principal principal) throws IOException {
    int docs = 0;
    long chunks = 0;
    for (DocumentEntry d : engine.store().documents()) {
      if (principal.departments().contains(d.dept())) {
        docs++;
        chunks += d.chunks();
      }
    }
    return new Counts(docs, chunks);
  }


  // ------------------------------------------------------------------ commit steps

  /**
   * Refuses one staged file whose department {@code dept} (declared, or of the loaded document;
   * {@code null} when it could not be loaded) the writer cannot read, whose name holds a
   * document of such a department ({@code existing}; {@code null} when not looked up yet), whose
   * path passes through a symbolic link or (with
   * {@code access.uploadsOnlyInRuledFolders}) lies in a folder no rule covers. One refusal, with
   * one message, covers them all: the reply does not say which, so it does not tell the writer
   * whether another department's document exists there.
   */
  private void checkWritable(Principal writer, StagedFile f, DocumentEntry existing,
      String dept) throws IOException {
    boolean linked = folder.locate(new SourcePath(f.source())).linked();
    boolean unruled = rules.uploadsOnlyInRuledFolders() && rules.departmentOf(f.source()) == null;
    if (linked || unruled || dept != null && !writer.departments().contains(dept)
        || existing != null && !writer.departments().contains(existing.dept())) {
      throw new AccessDeniedException(f.field(), "'" + f.source() + "' may not be written by"
          + " principal '" + writer.name() + "': a writer writes only documents of departments"
          + " it reads, at names it may replace, in plain folders of the docs folder");
    }
  }

  private static InvalidUploadException unreadable(StagedFile f, LoadException e) {
    return new InvalidUploadException(InvalidUploadException.Reason.UNREADABLE, f.field(),
        "cannot load '" + f.source() + "': " + e.reason().label() + " (" + e.getMessage() + ")");
  }

  private static InvalidUploadException notIndexed(StagedFile f, LoadException e) {
    return new InvalidUploadException(InvalidUploadException.Reason.UNREADABLE, f.field(),
        "'" + f.source() + "' was not indexed: " + e.reason().label() + " (" + e.getMessage()
            + ")");
  }

  /** Writes the journal, then backs up replaced files and moves the staged ones in. */
  private Journal moveIn(Staged staged) throws IOException {
    List<Journal.Entry> entries = new ArrayList<>();
    List<Path> existing = new ArrayList<>();
    for (StagedFile f : staged.files()) {
      // the file as on disk: its name may be in another Unicode form than the source
      DocsFolder.Located old = folder.locate(new SourcePath(f.source()));
      existing.add(old.exists() ? old.file() : null);
      // a name only: the backup file must not exist before the old version is moved there,
      // or a roll-back after a kill in between would restore an empty file
      entries.add(new Journal.Entry(f.source(), old.exists()
          ? "bk-" + java.util.UUID.randomUUID() + extension(f.source()) : null));
    }
    Journal journal = new Journal(entries);
    writeJournal(journal);
    for (int i = 0; i < entries.size(); i++) {
      Journal.Entry e = entries.get(i);
      Path dest = docsDir.resolve(e.source());
      if (e.backup() != null) {
        move(existing.get(i), staging.resolve(e.backup()));
      }
      Files.createDirectories(dest.getParent());
      move(staged.files().get(i).file(), dest);
    }
    return journal;
  }

  private void rollBack(Journal journal) throws IOException {
    List<Path> restored = new ArrayList<>();
    for (Journal.Entry e : journal.entries()) {
      if (!normal(e.source()) || e.backup() != null && !e.backup().matches("bk-[\\w.-]+")) {
        // written by this class only; anything else is not followed out of the docs folder
        LOG.warn("journal entry {} -> {} ignored: not a source and backup name", e.source(),
            e.backup());
        continue;
      }
      Path dest = docsDir.resolve(e.source());
      Path backup = e.backup() == null ? null : staging.resolve(e.backup());
      if (backup != null && Files.exists(backup)) {
        move(backup, dest);
      } else if (backup == null) {
        Files.deleteIfExists(dest);
      }
      // else: killed before the backup was made, so the old version is still in place
      restored.add(dest);
    }
    // the index may hold a partial commit of the upload: bring it in line with the files
    engine.ingest(docsDir, restored, IngestListener.NONE);
    Files.deleteIfExists(staging.resolve(JOURNAL));
  }

  private static boolean normal(String source) {
    try {
      return new SourcePath(source) != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private void finish(Journal journal) throws IOException {
    Files.deleteIfExists(staging.resolve(JOURNAL));
    for (Journal.Entry e : journal.entries()) {
      if (e.backup() != null) {
        Files.deleteIfExists(staging.resolve(e.backup()));
      }
    }
  }

  private void writeJournal(Journal journal) throws IOException {
    Path tmp = Files.createTempFile(staging, "journal-", ".tmp");
    Files.writeString(tmp, JSON.writeValueAsString(journal), StandardCharsets.UTF_8);
    move(tmp, staging.resolve(JOURNAL));
  }

  // ------------------------------------------------------------------ helpers

  private Map<String, DocumentEntry> catalogue() throws IOException {
    Map<String, DocumentEntry> out = new LinkedHashMap<>();
    for (DocumentEntry d : engine.store().documents()) {
      // keyed by the normal form: an index built before sources were NFC may hold other forms
      out.put(SourcePath.nfc(d.source()), d);
    }
    return out;
  }

  /** The department a file on disk declares, or null when it is absent or cannot be loaded. */
  private String fileDept(Path file, String source) {
    if (file == null || !Files.isRegularFile(file) || !reader.supports(file)) {
      return null;
    }
    try {
      return reader.declaredDepartment(file, source);
    } catch (LoadException e) {
      return null;
    }
  }

  /**
   * The regular file of an indexed {@code source} in the docs folder (links followed: this is
   * for reading), or null when it is absent or the source has no normal form.
   */
  private Path fileOf(String source) throws IOException {
    SourcePath path;
    try {
      path = SourcePath.parse(source, "source");
    } catch (InvalidUploadException e) {
      return null;
    }
    DocsFolder.Located l = folder.locate(path);
    return l.exists() && Files.isRegularFile(l.file()) ? l.file() : null;
  }

  private void requireDocsFolderHoldsIndex() throws IOException {
    for (String source : engine.store().documentHashes().keySet()) {
      if (fileOf(source) == null) {
        // the source goes to the log only: the reply goes to every writer, of any department
        LOG.warn("writes are disabled: indexed source '{}' is not a file under the docs folder {}",
            source, docsDir);
        throw new CorpusConflictException("writes are disabled: an indexed document is not a"
            + " file under the docs folder, so an ingest would remove it (the server log names"
            + " it). Serve with --docs set to the folder the index was built from.");
      }
    }
  }

  private static Optional<SourcePath> targetFolder(String folder) {
    Optional<SourcePath> path = SourcePath.parseFolder(folder, "folder");
    for (String seg : path.map(SourcePath::segments).orElse(List.of())) {
      if (!SEGMENT.matcher(seg).matches() || utf8Length(seg) > MAX_NAME_BYTES) {
        throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, "folder",
            "bad folder name: use '/'-separated names of letters, digits, '.', '_' or '-', not"
                + " starting with '.', each at most " + MAX_NAME_BYTES + " bytes");
      }
    }
    return path;
  }

  private static String baseName(String filename, String field) {
    if (filename == null || filename.isBlank()) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
          "file part has no file name");
    }
    // Browsers may send a full client path; only the last segment names the file.
    String name = SourcePath.nfc(filename.substring(
        Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1));
    if (utf8Length(name) > MAX_NAME_BYTES) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
          "file name too long: " + utf8Length(name) + " bytes, at most " + MAX_NAME_BYTES);
    }
    if (!SEGMENT.matcher(name).matches()) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
          "bad file name: use letters, digits, spaces, '.', '_' or '-', not starting with '.'"
              + " (no control characters)");
    }
    return name;
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot).toLowerCase(java.util.Locale.ROOT);
    return ext.length() > 16 ? "" : ext;
  }

  /** Deletes {@code p} and, for a folder, everything under it; returns the files deleted. */
  private static int deleteTree(Path p) throws IOException {
    int n = 0;
    if (Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> in = Files.newDirectoryStream(p)) {
        for (Path c : in) {
          n += deleteTree(c);
        }
      }
      Files.deleteIfExists(p);
      return n;
    }
    Files.deleteIfExists(p);
    return 1;
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
