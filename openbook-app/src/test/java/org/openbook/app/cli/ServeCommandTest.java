package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServeCommandTest {

  @Test
  void should_put_the_docs_folder_beside_the_index_by_default() {
    assertThat(ServeCommand.defaultDocsDir(Path.of("/data/kb/index")))
        .isEqualTo(Path.of("/data/kb/index-docs"));
  }

  @Test
  void should_fail_with_exit_code_one_when_the_index_does_not_exist(@TempDir Path dir) {
    int code = OpenBookCommand.execute("serve", "--index", dir.resolve("missing").toString(),
        "--port", "0");

    assertThat(code).isEqualTo(OpenBookCommand.EXIT_ERROR);
  }
}
