package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SolrCommandTest {

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return new Run(cl.execute(args), out.toString(), err.toString());
  }

  @Test
  void should_ask_for_an_address_when_init_has_neither_url_nor_zookeeper() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"), "principals: {}\n");
    Run r = run("solr", "init", "--collection", "kb", "--config", config.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("give --url or --zk");
  }

  @Test
  void should_name_the_missing_classpath_file_and_how_to_build_it() {
    Path missing = tmp.resolve("nothing.classpath");
    Run r = run("solr", "local", "--classpath-file", missing.toString(), "--dir",
        tmp.resolve("solr").toString());
    assertThat(r.exit()).isEqualTo(OpenBookCommand.EXIT_ERROR);
    assertThat(r.err()).contains("class-path file " + missing + " not found")
        .contains("-pl openbook-solr-local -am");
  }

  @Test
  void should_look_for_the_classpath_file_beside_this_build() throws Exception {
    Path expected = SolrCommand.Local.defaultClasspathFile();
    assertThat(expected.getFileName()).hasToString("solr-local.classpath");
    assertThat(expected.getParent().getParent().getFileName()).hasToString("openbook-solr-local");
  }
}
