package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.testing.SharedData;

/** Identifier protection on the kb-demo corpus (read from the shared folder, never copied). */
class OpenBookAnalysisFixtureTest {

  private final OpenBookAnalysis analysis = OpenBookAnalysis.defaultAnalysis();

  @Test
  void should_keep_the_codes_of_the_error_manual_whole() throws IOException {
    List<String> tokens = analysis.tokenize(read("support/错误代码手册.md"));

    assertThat(tokens).contains("err_4517", "err_4518", "err_4571", "zq-7781", "zq-7718",
        "gb/t22239", "gb/t22240", "8.1.4.1", "8.1.4.2", "8.1.4.3");
    assertThat(tokens).doesNotContain("err", "zq", "gb", "t", "_", "-", "/");
  }

  @Test
  void should_keep_file_names_and_package_names_of_the_build_notes_whole() throws IOException {
    List<String> tokens = analysis.tokenize(read("dev/编译排错笔记.md"));

    assertThat(tokens).contains("zlib.h", "zlib1g-dev", "zlib-devel", "opt/zlib-1.3",
        "dzlib_root", "zlib_root");
    assertThat(tokens).doesNotContain("h", "1g");
    // A name built from two words is indexed whole and, stacked on it, by its words.
    assertThat(tokens).containsSubsequence("zlib-devel", "zlib", "devel");
  }

  private static String read(String doc) throws IOException {
    Path file = SharedData.require("fixtures/kb-demo/docs/" + doc);
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
