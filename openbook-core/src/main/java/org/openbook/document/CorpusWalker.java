package org.openbook.document;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

/**
 * Lists the files of a corpus: recursive, in a deterministic order (sorted by {@code source},
 * i.e. by UTF-16 code unit order of the relative path), skipping hidden files and directories
 * (name starting with '.').
 *
 * <p>Symbolic links are followed, because corpora are often assembled from linked folders; a
 * link back to an ancestor is detected by {@link Files#walkFileTree} ({@link
 * FileSystemLoopException}) and reported as skipped, so loops cannot recurse forever. Unreadable
 * directories and broken links are reported as {@link SkippedPath}s, never thrown. All file types
 * are returned; the {@link DocumentReader} rejects unsupported ones with a reason. (The server
 * reads linked files too but never changes them: uploads and deletes refuse a path through a
 * link.)
 *
 * <p>Sources are in Unicode NFC whatever form the file system stores the names in (macOS tools
 * write NFD), so a source compares equal to the same name typed elsewhere; a second file whose
 * name differs from another only in its Unicode form is skipped as a duplicate.
 */
public final class CorpusWalker {

  /**
   * The outcome of one walk.
   *
   * @param files   regular files, sorted by source
   * @param skipped paths that could not be read, sorted by source
   */
  public record Walk(List<CorpusFile> files, List<SkippedPath> skipped) {
    public Walk {
      files = List.copyOf(files);
      skipped = List.copyOf(skipped);
    }
  }

  /** The files under {@code root}; see {@link #scan(Path)} for what was skipped. */
  public List<CorpusFile> walk(Path root) throws IOException {
    return scan(root).files();
  }

  /**
   * Walks {@code root}. A root that is a regular file yields that one file, with its file name
   * as source.
   *
   * @throws NoSuchFileException when {@code root} does not exist
   * @throws IOException         when the root itself cannot be read
   */
  public Walk scan(Path root) throws IOException {
    if (!Files.exists(root)) {
      throw new NoSuchFileException(root.toString(), null, "corpus root does not exist");
    }
    if (Files.isRegularFile(root)) {
      return new Walk(List.of(new CorpusFile(root, root.getFileName().toString())), List.of());
    }
    List<CorpusFile> files = new ArrayList<>();
    List<SkippedPath> skipped = new ArrayList<>();
    Files.walkFileTree(root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            return !dir.equals(root) && hidden(dir)
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (hidden(file)) {
              return FileVisitResult.CONTINUE;
            }
            if (attrs.isRegularFile()) {
              files.add(new CorpusFile(file, sourceOf(root, file)));
            } else if (attrs.isSymbolicLink()) {
              // with FOLLOW_LINKS, only a link whose target is missing arrives as a link
              skipped.add(new SkippedPath(file, sourceOf(root, file), "broken symbolic link"));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            if (!hidden(file)) {
              skipped.add(new SkippedPath(file, sourceOf(root, file), describe(e)));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path dir, IOException e) {
            if (e != null) {
              skipped.add(new SkippedPath(dir, sourceOf(root, dir),
                  "directory listing failed: " + describe(e)));
            }
            return FileVisitResult.CONTINUE;
          }
        });
    files.sort(Comparator.comparing(CorpusFile::source)
        .thenComparing(f -> f.path().getFileName().toString()));
    for (int i = files.size() - 1; i > 0; i--) {
      if (files.get(i).source().equals(files.get(i - 1).source())) {
        CorpusFile dup = files.remove(i);
        skipped.add(new SkippedPath(dup.path(), dup.source(), "same name as "
            + files.get(i - 1).path().getFileName() + " in another Unicode form"));
      }
    }
    skipped.sort(Comparator.comparing(SkippedPath::source));
    return new Walk(files, skipped);
  }

  /** {@code file} relative to {@code root}, with '/' separators on every platform, in NFC. */
  public static String sourceOf(Path root, Path file) {
    Path rel = root.relativize(file);
    List<String> parts = new ArrayList<>();
    rel.forEach(p -> parts.add(p.toString()));
    return Normalizer.normalize(String.join("/", parts), Normalizer.Form.NFC);
  }

  private static boolean hidden(Path p) {
    Path name = p.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  private static String describe(IOException e) {
    if (e instanceof FileSystemLoopException) {
      return "symbolic link loop";
    }
    if (e instanceof AccessDeniedException) {
      return "unreadable: permission denied";
    }
    return "unreadable: " + e;
  }
}
