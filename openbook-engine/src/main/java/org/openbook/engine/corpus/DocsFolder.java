package org.openbook.engine.corpus;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Maps a {@link SourcePath} to its file in the docs folder, one segment at a time without
 * following links, so a change can refuse a path that passes through a symbolic link (and could
 * therefore write or delete outside the folder). A segment that is not on disk as spelled is
 * matched to an entry whose NFC form equals it, so a file whose name was written in another
 * Unicode form (NFD, as macOS tools write) is the same document as its NFC source.
 */
final class DocsFolder {

  /**
   * Where a source is on disk.
   *
   * @param file    the path (as on disk for the segments that exist, as given for the rest)
   * @param exists  whether every segment exists
   * @param linked  whether an existing segment is a symbolic link, or the path's real location
   *     is outside the docs folder: such a path is never changed through the API
   */
  record Located(Path file, boolean exists, boolean linked) {
    /** Whether {@link #file} is a regular file reached without links. */
    boolean plainFile() {
      return exists && !linked && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
    }
  }

  private final Path root;

  /** @param root the docs folder, absolute and normalised (it may not exist yet) */
  DocsFolder(Path root) {
    this.root = root;
  }

  /** Finds {@code source} on disk; never follows a link, never throws for a missing path. */
  Located locate(SourcePath source) throws IOException {
    java.util.List<String> segs = source.segments();
    Path p = root;
    boolean exists = Files.isDirectory(root);
    for (int i = 0; i < segs.size(); i++) {
      Path next = p.resolve(segs.get(i));
      if (exists && !Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
        Path other = sameInNfc(p, segs.get(i));
        if (other != null) {
          next = other;
        } else {
          exists = false;
        }
      }
      p = next;
      if (exists && Files.isSymbolicLink(p)) {
        // nothing at or below a link is changed, so the rest is not looked up
        for (String rest : segs.subList(i + 1, segs.size())) {
          p = p.resolve(rest);
        }
        return new Located(p, Files.exists(p), true);
      }
    }
    // no segment is a link; a real path elsewhere means the docs folder itself moved under us
    boolean outside = exists && !p.toRealPath().startsWith(root.toRealPath());
    return new Located(p, exists, outside);
  }

  /** The entry of {@code dir} whose NFC name is {@code seg}, or null. */
  private static Path sameInNfc(Path dir, String seg) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path e : entries) {
        if (SourcePath.nfc(e.getFileName().toString()).equals(seg)) {
          return e;
        }
      }
    }
    return null;
  }
}
