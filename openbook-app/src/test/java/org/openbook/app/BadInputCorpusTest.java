package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.app.cli.OpenBookCommand;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.testing.HashEmbedder;
import picocli.CommandLine;

/** Issue 6: the bad-input corpus; every file is accounted for with a clear reason. */
class BadInputCorpusTest {

  @TempDir Path tmp;

  private Path configFile() throws IOException {
    Path yaml = tmp.resolve("openbook.yaml");
    Files.writeString(yaml, BadInputCorpus.config());
    return yaml;
  }

  private IngestReport ingest(Path corpus) throws IOException {
    OpenBookConfig config = ConfigLoader.read(configFile());
    try (OpenBook engine = OpenBook.builder().index(tmp.resolve("index")).config(config)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build()) {
      return engine.ingest(corpus, IngestListener.NONE);
    }
  }

  /** source → "indexed N" or "reason | detail". */
  private static Map<String, String> outcomes(IngestReport r) {
    Map<String, String> out = new TreeMap<>();
    r.indexed().forEach(f -> out.put(f.source(), "indexed " + f.chunks()));
    r.skipped().forEach(f -> out.put(f.source(), f.reason() + " | " + f.detail()));
    return out;
  }

  @Test
  void should_account_for_every_bad_file_with_a_reason_and_index_the_rest() throws IOException {
    Path corpus = tmp.resolve("corpus");
    BadInputCorpus.write(corpus, false);

    IngestReport r = ingest(corpus);
    Map<String, String> got = outcomes(r);

    assertThat(got).containsEntry("good.md", "indexed 1")
        .containsEntry("资料 目录/员工 手册.md", "indexed 1")
        .containsEntry("gbk.txt", "indexed 1")
        .containsEntry("utf16.txt", "indexed 1")
        .containsEntry("long-line.txt", "indexed 250")
        .containsEntry("nested.md", "indexed 59")
        .containsEntry("empty.md", "empty | no text outside front matter")
        .containsEntry("big.txt", "too large | 6291480 bytes exceeds the limit of "
            + BadInputCorpus.MAX_FILE_BYTES + " bytes")
        .containsEntry("many.md", "too many chunks | 400 chunks, the limit is 300"
            + " (ingest.maxChunksPerDocument)")
        .containsEntry("encrypted.pdf", "corrupt | encrypted PDF needs a password"
            + " (Cannot decrypt PDF, the password is incorrect)")
        .containsEntry("truncated.pdf",
            "corrupt | cannot parse PDF (Page tree root must be a dictionary)")
        .containsEntry("image-only.pdf", "needs OCR | no page has usable text"
            + " (page 1: no extractable text (needs OCR)); OCR is off (ingest.ocr: off)")
        .containsEntry("loop/self", "symbolic link loop | " + corpus.resolve("loop/self"))
        .containsEntry("photo.png",
            "corrupt | not a readable image (unknown or damaged format)")
        .containsEntry("office/locked.xlsx", "encrypted | password-protected"
            + " Office file (encrypted), cannot be read")
        .containsEntry("office/pictures.pptx", "empty | none of its 2"
            + " slide(s) holds text (pictures only?)")
        .containsEntry("office/scan.png", "image (OCR off) | image not read,"
            + " OCR is off (ingest.ocr: off)")
        // 20 store rows, one hidden: a table longer than one chunk gives one row per chunk
        .containsEntry("office/stores.xlsx", "indexed 19");
    assertThat(got.get("office/truncated.docx")).startsWith("corrupt | ").doesNotContain("truncated.docx");
    assertThat(got.get("office/bomb.xlsx")).startsWith("too large | ")
        .contains("zip bomb");
    assertThat(got.get("office/full.xls")).matches(
        "too many chunks \\| \\d+ chunks, the limit is 300 \\(ingest.maxChunksPerDocument\\)");
    assertThat(got.get("office/corrupt.tif")).startsWith("corrupt | ");
    assertThat(got.get("office/truncated.odt"))
        .startsWith("corrupt | cannot parse OpenDocument file");
    assertThat(got).containsEntry("office/corrupt.rtf",
        "corrupt | not an RTF file (does not start with {\\rtf)");
    assertThat(r.indexed().stream().filter(f -> f.source().equals("office/stores.xlsx"))
        .findFirst().orElseThrow().warnings()).hasSize(2);
    // every file exactly once; the two binary files and invalid-utf8.txt are checked below
    assertThat(got).containsOnlyKeys("good.md", "资料 目录/员工 手册.md", "gbk.txt", "utf16.txt",
        "long-line.txt", "nested.md", "empty.md", "big.txt", "many.md", "encrypted.pdf",
        "truncated.pdf", "image-only.pdf", "loop/self", "photo.png", "binary.md", "binary.txt",
        "invalid-utf8.txt", "office/truncated.docx", "office/bomb.xlsx", "office/locked.xlsx",
        "office/pictures.pptx", "office/full.xls", "office/corrupt.tif", "office/stores.xlsx",
        "office/scan.png", "office/truncated.odt", "office/corrupt.rtf");
    assertThat(r.filesSeen()).isEqualTo(27);
    assertThat(r.failed()).extracting(IngestReport.SkippedFile::source)
        .doesNotContain("office/scan.png")
        .contains("office/locked.xlsx", "office/truncated.odt", "office/corrupt.rtf");
  }

  @Test
  void should_exit_0_when_only_an_image_is_skipped_for_want_of_ocr() throws IOException {
    Path corpus = tmp.resolve("img");
    Files.createDirectories(corpus);
    Files.writeString(corpus.resolve("good.md"), "# 年假\n\n年假每年十天。\n");
    javax.imageio.ImageIO.write(org.openbook.document.office.OfficeSamples.textImage(
        "SCAN", 200, 80), "png", corpus.resolve("scan.png").toFile());
    Path yaml = tmp.resolve("img.yaml");
    Files.writeString(yaml, "ingest:\n  ocr: off\n");
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setOut(new PrintWriter(out));

    int code = cl.execute("ingest", corpus.toString(), "--index", tmp.resolve("img-index")
        .toString(), "--config", yaml.toString(), "--no-progress");

    assertThat(code).isZero();
    assertThat(out.toString()).contains("skipped: scan.png (image (OCR off): image not"
        + " read, OCR is off (ingest.ocr: off))", "formats: md 1, png 0 (+1 skipped)");
  }

  @Test
  void should_exit_0_when_the_only_skipped_files_are_empty() throws IOException {
    Path corpus = tmp.resolve("empties");
    Files.createDirectories(corpus);
    Files.writeString(corpus.resolve("good.md"), "# 年假\n\n年假每年十天。\n");
    Files.write(corpus.resolve("empty.md"), new byte[0]);
    Files.writeString(corpus.resolve("blank.txt"), " \n\n\t\n");
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setOut(new PrintWriter(out));

    int code = cl.execute("ingest", corpus.toString(), "--index", tmp.resolve("empties-index")
        .toString(), "--no-progress");

    assertThat(code).isZero();
    assertThat(out.toString()).contains("skipped: empty.md (empty: ",
        "skipped: blank.txt (empty: ", "1 added", "2 skipped");
  }

  @Test
  void should_report_a_file_without_read_permission() throws IOException {
    assumeThat(System.getProperty("user.name")).as("root reads every file").isNotEqualTo("root");
    Path corpus = tmp.resolve("corpus");
    BadInputCorpus.write(corpus, true);

    Map<String, String> got = outcomes(ingest(corpus));

    assertThat(got.get(BadInputCorpus.PERMISSION_DENIED)).startsWith("unreadable | ");
  }

  @Test
  void should_skip_binary_content_whatever_the_extension() throws IOException {
    Path corpus = tmp.resolve("corpus");
    BadInputCorpus.write(corpus, false);

    Map<String, String> got = outcomes(ingest(corpus));

    assertThat(got.get("binary.md")).startsWith("binary content | ");
    assertThat(got.get("binary.txt")).startsWith("binary content | ");
  }

  @Test
  void should_exit_with_3_and_list_every_skipped_file_via_the_cli() throws IOException {
    Path corpus = tmp.resolve("few");
    Files.createDirectories(corpus);
    Files.writeString(corpus.resolve("good.md"), "# 年假\n\n年假每年十天。\n");
    Files.write(corpus.resolve("empty.md"), new byte[0]);
    Files.writeString(corpus.resolve("many.md"), "## a\nx\n## b\ny\n## c\nz\n");
    Path yaml = tmp.resolve("cli.yaml");
    Files.writeString(yaml, "ingest:\n  maxChunksPerDocument: 2\n");
    StringWriter out = new StringWriter();
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setOut(new PrintWriter(out));

    int code = cl.execute("ingest", corpus.toString(), "--index", tmp.resolve("cli-index")
        .toString(), "--config", yaml.toString(), "--no-progress");

    assertThat(code).isEqualTo(OpenBookCommand.EXIT_SKIPPED);
    assertThat(out.toString()).contains(
        "skipped: empty.md (empty: no text outside front matter)",
        "skipped: many.md (too many chunks: 3 chunks, the limit is 2"
            + " (ingest.maxChunksPerDocument))",
        "files: 3 seen, 1 added, 0 updated, 0 unchanged, 2 skipped, 0 removed");
  }
}
