package org.openbook.document;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The bytes of one file and their SHA-256, read once so that hashing and parsing see the same
 * content.
 *
 * @param bytes  the raw file content
 * @param sha256 lower-case hex SHA-256 of {@code bytes} (64 characters)
 */
public record RawFile(byte[] bytes, String sha256) {

  /** Reads the whole file; throws the {@link IOException} of {@link Files#readAllBytes}. */
  public static RawFile read(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    return new RawFile(bytes, sha256Hex(bytes));
  }

  /** Lower-case hex SHA-256 of {@code bytes}. */
  static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(newSha256().digest(bytes));
  }

  /** A fresh SHA-256 digest; shared with {@link DocumentReader#contentHash}, which streams. */
  static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM must provide SHA-256", e);
    }
  }

  /** The file name without its last extension, used as the fallback title. */
  public static String baseName(Path file) {
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
