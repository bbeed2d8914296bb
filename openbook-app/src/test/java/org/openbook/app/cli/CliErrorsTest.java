package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.IndexMismatchException;
import org.openbook.ingest.IngestListener;
import org.openbook.testing.HashEmbedder;
import picocli.CommandLine;

/** What a user sees for bad arguments, bad configuration and mismatched index settings. */
class CliErrorsTest {
  @TempDir Path tmp;

  private record Run(int exit, String err) {}

  private static Run run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(new StringWriter(), true));
    cl.setErr(new PrintWriter(err, true));
    return new Run(cl.execute(args), err.toString());
  }

  @Test
  void should_reject_k_out_of_range_as_a_usage_error() {
    for (String k : new String[] {"0", "-3", "100000"}) {
      Run r = run("search", "q", "--index", tmp.resolve("none").toString(), "-k", k);
      assertThat(r.exit()).as("-k %s", k).isEqualTo(2);
      assertThat(r.err()).contains("-k must be between 1 and 200");
    }
  }

  @Test
  void should_put_the_error_on_stdout_as_json_too_when_json_is_asked() throws Exception {
    Path none = tmp.resolve("no-index-here");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));

    int exit = cl.execute("search", "q", "--index", none.toString(), "--json");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).startsWith("error: ").contains(none.toString());
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
    assertThat(json.at("/error/message").asText()).contains(none.toString())
        .isEqualTo(err.toString().strip().substring("error: ".length()));
    assertThat(json.at("/error/exitCode").asInt()).isEqualTo(1);
  }

  @Test
  void should_list_the_failed_files_as_errors_in_the_ingest_json() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(docs.resolve("a.md"), "# A\n\n年假申请需提前三天提交。\n");
    Files.write(docs.resolve("bad.pdf"), "%PDF-1.4 truncated".getBytes());
    Files.write(docs.resolve("empty.md"), new byte[0]);
    StringWriter out = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));

    int exit = cl.execute("ingest", docs.toString(), "--index", tmp.resolve("ix").toString(),
        "--json");

    assertThat(exit).isEqualTo(OpenBookCommand.EXIT_SKIPPED);
    var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
    // the corrupt PDF is an error; the empty file is reported as skipped but is no error
    assertThat(json.get("errors")).hasSize(1);
    assertThat(json.get("errors").get(0).asText()).startsWith("bad.pdf (corrupt: ");
    assertThat(json.get("skipped")).hasSize(2);
  }

  @Test
  void should_name_the_missing_index_path() {
    Path none = tmp.resolve("no-index-here");
    Run r = run("search", "q", "--index", none.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("error:").contains(none.toString());
  }

  @Test
  void should_name_an_unknown_config_key_by_its_dotted_path() throws Exception {
    Path cfg = Files.writeString(tmp.resolve("c.yaml"), "retrieval:\n  topk: 3\n");
    Run r = run("search", "q", "--index", tmp.toString(), "--config", cfg.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("unknown key 'retrieval.topk'").contains("topK");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "embedding:\\n  queryInstruction: model-card\\n | embedding.queryInstruction | expected a mapping (key: value lines), got 'model-card'",
      "retrieval:\\n  fetchK: many\\n | retrieval.fetchK | expected a number, got 'many'",
      "retrieval: [1, 2]\\n | retrieval | expected a mapping (key: value lines), got a list"})
  void should_say_what_a_mistyped_config_value_should_be_in_yaml_terms(String yaml, String path,
      String message) throws Exception {
    Path cfg = Files.writeString(tmp.resolve("c.yaml"), yaml.replace("\\n", "\n"));
    Run r = run("search", "q", "--index", tmp.toString(), "--config", cfg.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("at '" + path + "': " + message)
        .doesNotContain("java.").doesNotContain("LinkedHashMap");
  }

  @Test
  void should_treat_an_empty_or_comment_only_config_as_defaults() throws Exception {
    Path cfg = Files.writeString(tmp.resolve("c.yaml"), "# nothing set yet\n");
    assertThat(ConfigLoader.read(cfg)).isEqualTo(OpenBookConfig.defaults());
  }

  @Test
  void should_refuse_an_incremental_ingest_with_other_chunk_settings() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(docs.resolve("a.md"), "# A\n\n年假申请需提前三天提交。\n");
    Path index = tmp.resolve("index");
    try (OpenBook e = OpenBook.builder().index(index).config(OpenBookConfig.defaults())
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build()) {
      e.ingest(docs, IngestListener.NONE);
    }
    Path cfg = Files.writeString(tmp.resolve("small.yaml"), "chunking:\n  maxChars: 200\n");
    OpenBookConfig small = ConfigLoader.read(cfg);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> OpenBook.builder().index(index).config(small).embedder(new HashEmbedder())
                .mode(OpenBook.Mode.WRITE).build())
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("max=200")
        .hasMessageContaining("--reset");
    // --reset rebuilds with the new settings
    try (OpenBook e = OpenBook.builder().index(index).config(small).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.ingest(docs, IngestListener.NONE).added()).isEqualTo(1);
    }
  }

  @Test
  void should_refuse_an_index_inside_the_documents_folder() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(docs.resolve("a.md"), "# A\n\n年假申请需提前三天提交。\n");
    try (OpenBook e = OpenBook.builder().index(docs.resolve("index")).config(OpenBookConfig.defaults())
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.ingest(docs, IngestListener.NONE))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is inside the documents folder");
    }
  }
}
