package org.openbook.document.office;

import java.nio.file.Path;
import java.util.Locale;
import org.apache.poi.EncryptedDocumentException;
import org.apache.poi.openxml4j.util.ZipSecureFile;
import org.apache.poi.poifs.filesystem.FileMagic;
import org.apache.poi.util.IOUtils;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.RawFile;

/**
 * What the Office loaders share: recognising the container, bounding what a hostile file may make
 * POI allocate, and turning POI's failures into {@link LoadException}s that name the file.
 *
 * <p>Limits (set once, JVM-wide, as POI keeps them in static fields): a zip entry may inflate to
 * at most {@value #MAX_ENTRY_BYTES} bytes and at least {@value #MIN_INFLATE_RATIO} of its
 * uncompressed size must be on disk (POI's default ratio; a zip bomb inflates thousands of times);
 * a single record/array POI reads may be at most {@value #MAX_RECORD_BYTES} bytes.
 */
final class OfficeFiles {

  /** Largest inflated size of one zip entry: 256 MiB, far above real sheet XML. */
  static final long MAX_ENTRY_BYTES = 256L * 1024 * 1024;
  /** Smallest compressed/uncompressed ratio accepted (POI's default, 1 %). */
  static final double MIN_INFLATE_RATIO = 0.01;
  /** Largest byte array POI may allocate for one record: 200 MB. */
  static final int MAX_RECORD_BYTES = 200_000_000;

  static {
    ZipSecureFile.setMaxEntrySize(MAX_ENTRY_BYTES);
    ZipSecureFile.setMinInflateRatio(MIN_INFLATE_RATIO);
    IOUtils.setByteArrayMaxOverride(MAX_RECORD_BYTES);
  }

  private OfficeFiles() {}

  /** Whether the bytes are an OLE2 compound file (Office 97–2003, or an encrypted OOXML file). */
  static boolean isOle2(byte[] bytes) {
    return FileMagic.valueOf(bytes) == FileMagic.OLE2;
  }

  /**
   * Rejects what is neither OLE2 nor a zip container before POI parses it.
   *
   * @throws LoadException CORRUPT naming {@code source}
   */
  static void check(byte[] bytes, String source) throws LoadException {
    FileMagic magic = FileMagic.valueOf(bytes);
    if (magic != FileMagic.OLE2 && magic != FileMagic.OOXML) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": not an Office file (content looks like " + magic + ")");
    }
    if (magic == FileMagic.OLE2 && isEncryptedPackage(bytes)) {
      throw new LoadException(LoadException.Reason.ENCRYPTED,
          source + ": password-protected Office file (encrypted), cannot be read");
    }
  }

  /** The LoadException for a POI failure: ENCRYPTED, TOO_LARGE (zip bomb) or CORRUPT. */
  static LoadException failure(String source, String kind, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof EncryptedDocumentException
          || String.valueOf(t.getMessage()).contains("EncryptedPackage")) {
        return new LoadException(LoadException.Reason.ENCRYPTED,
            source + ": password-protected " + kind + " file (encrypted), cannot be read", e);
      }
      String m = String.valueOf(t.getMessage());
      if (m.contains("Zip bomb") || m.contains("exceeds the maximum")
          || m.contains("Tried to allocate") || m.contains("MaxEntrySize")) {
        return new LoadException(LoadException.Reason.TOO_LARGE,
            source + ": " + kind + " file would inflate beyond the safety limits (zip bomb?): "
                + firstLine(m), e);
      }
    }
    return new LoadException(LoadException.Reason.CORRUPT,
        source + ": cannot parse " + kind + " file (" + firstLine(String.valueOf(e)) + ")", e);
  }

  /**
   * Whether OLE2 {@code bytes} are an encrypted OOXML package (Office's "protect with password"
   * stores the real file as an {@code EncryptedPackage} stream).
   */
  static boolean isEncryptedPackage(byte[] bytes) {
    try (var fs = new org.apache.poi.poifs.filesystem.POIFSFileSystem(
        new java.io.ByteArrayInputStream(bytes))) {
      return fs.getRoot().hasEntryCaseInsensitive("EncryptedPackage");
    } catch (java.io.IOException | RuntimeException e) {
      return false;
    }
  }

  /** An encrypted OOXML file is an OLE2 container holding an {@code EncryptedPackage} stream. */
  static LoadException encrypted(String source, String kind) {
    return new LoadException(LoadException.Reason.ENCRYPTED,
        source + ": password-protected " + kind + " file (encrypted), cannot be read");
  }

  /**
   * {@link #check(byte[], String)}, then, for a zip container, the {@link ZipGuard} pass: inflated
   * bytes and XML nodes within {@code limits}, before POI parses anything.
   *
   * @throws LoadException as {@link #check(byte[], String)}, or TOO_LARGE naming the limit
   */
  static void check(byte[] bytes, String source, String kind, LoadLimits limits)
      throws LoadException {
    check(bytes, source);
    if (FileMagic.valueOf(bytes) == FileMagic.OOXML) {
      ZipGuard.scan(bytes, source, kind, limits, java.util.Set.of());
    }
  }

  /**
   * Inflates every entry of a zip container through POI's guarded stream (the limits above) and
   * {@link ZipGuard}'s limits, and returns the wanted ones, so that a zip bomb, an oversized XML
   * part or a truncated archive is refused before any XML is parsed.
   *
   * @param wanted entry names to return, e.g. {@code content.xml}
   * @return the wanted entries that exist, by name
   * @throws LoadException CORRUPT when the bytes are not a whole zip, TOO_LARGE when an entry
   *     exceeds {@value #MAX_ENTRY_BYTES} bytes or inflates more than 1/{@value #MIN_INFLATE_RATIO}
   *     times, or the file exceeds {@code limits}
   */
  static java.util.Map<String, byte[]> readZip(byte[] bytes, String source, String kind,
      java.util.Set<String> wanted, LoadLimits limits) throws LoadException {
    if (FileMagic.valueOf(bytes) != FileMagic.OOXML) { // OOXML = the zip signature PK\3\4
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": not a zip container, as " + kind + " files are");
    }
    return ZipGuard.scan(bytes, source, kind, limits, wanted);
  }

  /** The lower-case extension of {@code file}, e.g. {@code docx}. */
  static String extension(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return line.length() > 300 ? line.substring(0, 300) + "…" : line;
  }

  static String baseName(Path file) {
    return RawFile.baseName(file);
  }
}
