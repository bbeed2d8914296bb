package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CorpusWalkerTest {

  private final CorpusWalker walker = new CorpusWalker();

  @TempDir Path root;

  private void touch(String relative) throws IOException {
    Path p = root.resolve(relative);
    Files.createDirectories(p.getParent());
    Files.writeString(p, "x");
  }

  @Test
  void should_list_files_recursively_sorted_with_slash_sources_skipping_hidden() throws IOException {
    touch("b/README.md");
    touch("a/README.md");
    touch("a/z/深层.txt");
    touch("top.pdf");
    touch(".git/config");
    touch("a/.hidden.md");

    assertThat(walker.walk(root)).extracting(CorpusFile::source)
        .containsExactly("a/README.md", "a/z/深层.txt", "b/README.md", "top.pdf");
    assertThat(walker.walk(root).get(1).path()).isEqualTo(root.resolve("a/z/深层.txt"));
  }

  @Test
  void i30_1_should_give_nfc_sources_for_nfd_names_and_skip_a_second_form_of_one_name()
      throws IOException {
    String nfd = java.text.Normalizer.normalize("财务/Prämie.md", java.text.Normalizer.Form.NFD);
    touch(nfd);
    touch("财务/Prämie.md");  // the NFC name beside it: a second file for one source
    touch(java.text.Normalizer.normalize("Café.txt", java.text.Normalizer.Form.NFD));
    Assumptions.assumeTrue(Files.list(root.resolve("财务")).count() == 2,
        "file system folds Unicode forms");

    CorpusWalker.Walk walk = walker.scan(root);

    assertThat(walk.files()).extracting(CorpusFile::source)
        .containsExactly("Café.txt", "财务/Prämie.md");
    assertThat(walk.skipped()).singleElement().satisfies(s -> {
      assertThat(s.source()).isEqualTo("财务/Prämie.md");
      assertThat(s.reason()).contains("another Unicode form");
    });
  }

  @Test
  void should_report_symlink_loop_instead_of_recursing() throws IOException {
    touch("docs/a.md");
    try {
      Files.createSymbolicLink(root.resolve("docs/loop"), root);
    } catch (UnsupportedOperationException | IOException e) {
      Assumptions.abort("symbolic links not supported here: " + e);
    }

    CorpusWalker.Walk walk = walker.scan(root);

    assertThat(walk.files()).extracting(CorpusFile::source).containsExactly("docs/a.md");
    assertThat(walk.skipped()).singleElement().satisfies(s -> {
      assertThat(s.source()).isEqualTo("docs/loop");
      assertThat(s.reason()).isEqualTo("symbolic link loop");
    });
  }

  @Test
  void should_follow_links_to_other_folders_and_report_broken_links(@TempDir Path elsewhere)
      throws IOException {
    Files.writeString(elsewhere.resolve("shared.md"), "x");
    try {
      Files.createSymbolicLink(root.resolve("linked"), elsewhere);
      Files.createSymbolicLink(root.resolve("dangling.md"), root.resolve("missing.md"));
    } catch (UnsupportedOperationException | IOException e) {
      Assumptions.abort("symbolic links not supported here: " + e);
    }

    CorpusWalker.Walk walk = walker.scan(root);

    assertThat(walk.files()).extracting(CorpusFile::source).containsExactly("linked/shared.md");
    assertThat(walk.skipped()).extracting(SkippedPath::source, SkippedPath::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("dangling.md", "broken symbolic link"));
  }

  @Test
  void should_report_unreadable_directory_as_skipped() throws IOException {
    touch("ok/a.md");
    touch("locked/b.md");
    Path locked = root.resolve("locked");
    try {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
      Assumptions.assumeFalse(Files.isReadable(locked), "running as root: permissions not enforced");

      CorpusWalker.Walk walk = walker.scan(root);

      assertThat(walk.files()).extracting(CorpusFile::source).containsExactly("ok/a.md");
      assertThat(walk.skipped()).extracting(SkippedPath::source).containsExactly("locked");
    } catch (UnsupportedOperationException e) {
      Assumptions.abort("no POSIX permissions here");
    } finally {
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwx------"));
    }
  }

  @Test
  void should_accept_a_single_file_as_root() throws IOException {
    touch("one.md");

    assertThat(walker.walk(root.resolve("one.md"))).extracting(CorpusFile::source)
        .containsExactly("one.md");
  }

  @Test
  void should_fail_clearly_for_missing_root() {
    assertThatThrownBy(() -> walker.walk(root.resolve("nope")))
        .isInstanceOf(NoSuchFileException.class).hasMessageContaining("nope");
  }
}
