package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
    try (OpenBook e = OpenBook.open(index, OpenBookConfig.defaults(), new HashEmbedder(), true, false)) {
      e.ingest(docs, IngestListener.NONE);
    }
    Path cfg = Files.writeString(tmp.resolve("small.yaml"), "chunking:\n  maxChars: 200\n");
    OpenBookConfig small = ConfigLoader.read(cfg);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> OpenBook.open(index, small, new HashEmbedder(), true, false))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("max=200")
        .hasMessageContaining("--reset");
    // --reset rebuilds with the new settings
    try (OpenBook e = OpenBook.open(index, small, new HashEmbedder(), true, true)) {
      assertThat(e.ingest(docs, IngestListener.NONE).added()).isEqualTo(1);
    }
  }

  @Test
  void should_refuse_an_index_inside_the_documents_folder() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(docs.resolve("a.md"), "# A\n\n年假申请需提前三天提交。\n");
    try (OpenBook e = OpenBook.open(docs.resolve("index"), OpenBookConfig.defaults(),
        new HashEmbedder(), true, false)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.ingest(docs, IngestListener.NONE))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is inside the documents folder");
    }
  }
}
