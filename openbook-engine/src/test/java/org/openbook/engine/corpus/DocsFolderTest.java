package org.openbook.engine.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 30 items 1 and 12: sources on disk, NFD names found, links seen, never followed. */
class DocsFolderTest {
  @TempDir Path root;
  @TempDir Path outside;

  @Test
  void i30_1_should_find_a_file_whose_name_is_stored_in_nfd_by_its_nfc_source() throws Exception {
    String nfd = Normalizer.normalize("Prämie.md", Normalizer.Form.NFD);
    Path file = Files.createDirectories(root.resolve("finance")).resolve(nfd);
    Files.writeString(file, "x");

    DocsFolder.Located l = new DocsFolder(root).locate(new SourcePath("finance/Prämie.md"));

    assertThat(l.exists()).isTrue();
    assertThat(l.file()).isEqualTo(file);
    assertThat(l.plainFile()).isTrue();
  }

  @Test
  void i30_12_should_mark_a_path_through_a_linked_folder_or_a_linked_file_as_linked()
      throws Exception {
    Files.writeString(outside.resolve("a.md"), "x");
    Files.createSymbolicLink(root.resolve("in"), outside);
    Files.createDirectories(root.resolve("hr"));
    Files.createSymbolicLink(root.resolve("hr/b.md"), outside.resolve("a.md"));
    DocsFolder docs = new DocsFolder(root);

    assertThat(docs.locate(new SourcePath("in/a.md")).linked()).isTrue();
    assertThat(docs.locate(new SourcePath("in/new.md")).linked()).isTrue();
    assertThat(docs.locate(new SourcePath("in/new.md")).exists()).isFalse();
    assertThat(docs.locate(new SourcePath("hr/b.md")).linked()).isTrue();
    assertThat(docs.locate(new SourcePath("hr/b.md")).plainFile()).isFalse();
    assertThat(docs.locate(new SourcePath("hr/c.md")).linked()).isFalse();
    assertThat(docs.locate(new SourcePath("hr/c.md")).exists()).isFalse();
  }
}
