package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LoadersTest {

  private final Loaders loaders = Loaders.defaults();

  @Test
  void should_list_supported_extensions_sorted() {
    assertThat(loaders.supportedExtensions())
        .containsExactly("csv", "doc", "docx", "htm", "html", "jpeg", "jpg", "markdown", "md",
            "odp", "ods", "odt", "pdf", "png", "ppt", "pptx", "rtf", "tif", "tiff", "txt", "xls",
            "xlsx");
  }

  @Test
  void should_pick_loader_by_extension_ignoring_case() {
    assertThat(loaders.forPath(Path.of("docs/A.MD"))).containsInstanceOf(MarkdownLoader.class);
    assertThat(loaders.forPath(Path.of("x/报告.Pdf"))).containsInstanceOf(PdfLoader.class);
    assertThat(loaders.forPath(Path.of("notes.txt"))).containsInstanceOf(TextLoader.class);
    assertThat(loaders.forPath(Path.of("index.htm"))).containsInstanceOf(HtmlLoader.class);
  }

  @Test
  void should_find_no_loader_for_unknown_or_missing_extension() {
    assertThat(loaders.forPath(Path.of("archive.zip"))).isEmpty();
    assertThat(loaders.forPath(Path.of("Makefile"))).isEmpty();
    assertThat(loaders.forPath(Path.of("trailing."))).isEmpty();
  }

  @Test
  void should_refuse_two_loaders_for_one_extension() {
    assertThatThrownBy(() -> new Loaders(new TextLoader(), new TextLoader()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(".txt");
  }
}
