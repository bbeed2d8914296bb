package org.openbook.document;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.util.HexFormat;
import java.util.Set;

/**
 * The one call the ingest pipeline makes per file: picks the loader, enforces a size limit and
 * turns every failure into a {@link LoadException} with a reason, so one bad file never stops a
 * run. {@link Document#contentHash()} is the SHA-256 hex of the file bytes.
 */
public final class DocumentReader {

  /** Default size limit: 50 MiB, far above any text document, below memory trouble. */
  public static final long DEFAULT_MAX_BYTES = 50L * 1024 * 1024;

  private final Loaders loaders;
  private final long maxBytes;
  private final FolderAccess access;

  /**
   * @param loaders  the loaders by extension
   * @param maxBytes largest accepted file size in bytes ({@code > 0})
   */
  public DocumentReader(Loaders loaders, long maxBytes) {
    this(loaders, maxBytes, FolderAccess.NONE);
  }

  /**
   * @param loaders  the loaders by extension
   * @param maxBytes largest accepted file size in bytes ({@code > 0})
   * @param access   folder-level department rules applied to every loaded document
   */
  public DocumentReader(Loaders loaders, long maxBytes, FolderAccess access) {
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be > 0, got " + maxBytes);
    }
    this.loaders = loaders;
    this.maxBytes = maxBytes;
    this.access = java.util.Objects.requireNonNull(access, "access");
  }

  /** Default loaders and {@link #DEFAULT_MAX_BYTES}. */
  public DocumentReader() {
    this(Loaders.defaults(), DEFAULT_MAX_BYTES);
  }

  /** Extensions this reader accepts (lower case, no dot). */
  public Set<String> supportedExtensions() {
    return loaders.supportedExtensions();
  }

  /** Whether a loader exists for the file's extension. */
  public boolean supports(Path file) {
    return loaders.forPath(file).isPresent();
  }

  /**
   * The SHA-256 hex of the file's bytes, equal to {@link Document#contentHash()} of what
   * {@link #read} returns; cheap enough to decide whether a file changed before parsing it.
   *
   * @throws LoadException UNREADABLE when the file cannot be read
   */
  public String contentHash(Path file, String source) throws LoadException {
    // streamed rather than RawFile.read: no need to hold a large unchanged file in memory
    try (var in = new DigestInputStream(Files.newInputStream(file), RawFile.newSha256())) {
      in.transferTo(OutputStream.nullOutputStream());
      return HexFormat.of().formatHex(in.getMessageDigest().digest());
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.UNREADABLE, source + ": cannot read (" + e + ")",
          e);
    }
  }

  /**
   * Loads one file.
   *
   * @param file   the file
   * @param source its path relative to the corpus root ('/'-separated)
   * @throws LoadException UNSUPPORTED_TYPE (no loader for the extension), TOO_LARGE (over the
   *                       limit, over a {@link LoadLimits} cap, or nested so deeply that the
   *                       parser overflowed its stack), UNREADABLE (I/O error), or the loader's reason (EMPTY, BINARY,
   *                       CORRUPT, ENCRYPTED, NEEDS_OCR), or BAD_METADATA when the document's
   *                       department conflicts with its folder's ({@link FolderAccess}); the
   *                       message always names {@code source}
   */
  public LoadResult read(Path file, String source) throws LoadException {
    return readChecked(file, source);
  }

  /**
   * The department {@link #read} would give the file, from its own metadata and the folder rules
   * only ({@link DocumentLoader#declaredDepartment}): an Office file, PDF or image is not parsed,
   * so this is cheap enough to answer an upload at once. The authoritative department is still
   * the loaded document's.
   *
   * @throws LoadException UNSUPPORTED_TYPE, TOO_LARGE (file size), UNREADABLE, the metadata's own
   *     reason, or BAD_METADATA when it conflicts with the folder's department
   */
  public String declaredDepartment(Path file, String source) throws LoadException {
    String own = withLoader(file, source, loader -> loader.declaredDepartment(file, source));
    String folder = access.departmentOf(source);
    if (folder == null || folder.equals(own)) {
      return own;
    }
    if (!own.equals(Document.PUBLIC)) {
      throw new LoadException(LoadException.Reason.BAD_METADATA, source + ": its metadata says"
          + " dept '" + own + "' but access.folders gives its folder to '" + folder
          + "'; conflict, not indexed");
    }
    return folder;
  }

  /**
   * The department {@code access.folders} gives {@code source} (deepest matching folder), or null
   * when no folder rule covers it — then only its own metadata can restrict it.
   */
  public String folderDepartment(String source) {
    return access.departmentOf(source);
  }

  private LoadResult readChecked(Path file, String source) throws LoadException {
    return withLoader(file, source, loader -> access.apply(source, loader.load(file, source)));
  }

  /** One call on a file's loader: what it may throw, as a {@link LoadException}. */
  private interface LoaderCall<T> {
    T call(DocumentLoader loader) throws IOException, LoadException;
  }

  /**
   * Runs {@code call} with the loader for {@code file}, after the type and size checks; every
   * failure of the loader is a {@link LoadException} that costs this one file.
   */
  private <T> T withLoader(Path file, String source, LoaderCall<T> call) throws LoadException {
    DocumentLoader loader = loaders.forPath(file).orElseThrow(() -> new LoadException(
        LoadException.Reason.UNSUPPORTED_TYPE,
        source + ": unsupported file type (supported: " + loaders.supportedExtensions() + ")"));
    try {
      long size = Files.size(file);
      if (size > maxBytes) {
        throw new LoadException(LoadException.Reason.TOO_LARGE,
            source + ": " + size + " bytes exceeds the limit of " + maxBytes + " bytes");
      }
      return call.call(loader);
    } catch (IOException e) {
      throw new LoadException(LoadException.Reason.UNREADABLE, source + ": cannot read (" + e + ")",
          e);
    } catch (RuntimeException e) {
      // a parser bug on odd input must cost one file, not the whole ingest
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": loader failed (" + e + ")", e);
    } catch (StackOverflowError e) {
      // a recursive parser on deeply nested input (XML, lists, tables): one file, not the run;
      // the stack is unwound here, so nothing is left in a broken state
      throw new LoadException(LoadException.Reason.TOO_LARGE,
          source + ": nested too deeply to load (stack overflow)");
    }
  }
}
