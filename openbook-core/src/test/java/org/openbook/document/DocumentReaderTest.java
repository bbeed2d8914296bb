package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DocumentReaderTest {

  @TempDir Path tmp;

  private static LoadException.Reason reasonOf(DocumentReader reader, Path file) {
    try {
      reader.read(file, file.getFileName().toString());
    } catch (LoadException e) {
      assertThat(e.getMessage()).startsWith(file.getFileName().toString() + ": ");
      return e.reason();
    }
    throw new AssertionError("expected a LoadException for " + file);
  }

  @Test
  void should_load_supported_file_with_sha256_of_bytes() throws Exception {
    Path f = tmp.resolve("a.md");
    Files.writeString(f, "# 标题\n正文。\n");

    Document doc = new DocumentReader().read(f, "docs/a.md").document();

    // sha256 of the UTF-8 bytes of "# 标题\n正文。\n"
    assertThat(doc.contentHash())
        .isEqualTo(RawFile.sha256Hex("# 标题\n正文。\n".getBytes(StandardCharsets.UTF_8)));
    assertThat(RawFile.sha256Hex(new byte[0]))
        .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assertThat(doc.id()).isEqualTo("docs/a.md");
    assertThat(doc.source()).isEqualTo("docs/a.md");
  }

  @Test
  void should_reject_unsupported_type() throws IOException {
    Path f = tmp.resolve("archive.zip");
    Files.write(f, new byte[] {1, 2, 3});

    assertThat(reasonOf(new DocumentReader(), f)).isEqualTo(LoadException.Reason.UNSUPPORTED_TYPE);
  }

  @Test
  void should_reject_file_over_size_limit() throws Exception {
    Path f = tmp.resolve("big.txt");
    Files.writeString(f, "x".repeat(101));
    DocumentReader reader = new DocumentReader(Loaders.defaults(), 100);

    assertThat(reasonOf(reader, f)).isEqualTo(LoadException.Reason.TOO_LARGE);
    Files.writeString(f, "x".repeat(100));
    assertThat(reader.read(f, "big.txt").document().text()).hasSize(100);
  }

  @Test
  void should_map_io_errors_to_unreadable() {
    assertThat(reasonOf(new DocumentReader(), tmp.resolve("missing.md")))
        .isEqualTo(LoadException.Reason.UNREADABLE);
  }

  @Test
  void should_map_loader_crash_to_corrupt() throws IOException {
    Path f = tmp.resolve("a.txt");
    Files.writeString(f, "text");
    DocumentLoader crashing = new DocumentLoader() {
      @Override
      public java.util.Set<String> extensions() {
        return java.util.Set.of("txt");
      }

      @Override
      public LoadResult load(Path file, String source) {
        throw new IllegalStateException("parser bug");
      }
    };

    assertThatThrownBy(() -> new DocumentReader(new Loaders(crashing), 1000).read(f, "a.txt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageContaining("parser bug");
  }

  @Test
  void should_load_every_kb_demo_document() throws Exception {
    Path docs = TestData.shared("fixtures/kb-demo/docs");
    List<CorpusFile> files = new CorpusWalker().walk(docs);
    DocumentReader reader = new DocumentReader();

    assertThat(files).hasSize(12);
    for (CorpusFile f : files) {
      LoadResult r = reader.read(f.path(), f.source());
      assertThat(r.warnings()).as(f.source()).isEmpty();
      assertThat(r.document().source()).isEqualTo(f.source());
      TestData.assertOffsetContract(r.document());
    }
    assertThat(reader.read(docs.resolve("finance/年度奖金发放办法.md"), "finance/年度奖金发放办法.md")
        .document().dept()).isEqualTo("finance");
    assertThat(reader.read(docs.resolve("faq/常见问题.txt"), "faq/常见问题.txt")
        .document().dept()).isEqualTo("public");
  }
}
