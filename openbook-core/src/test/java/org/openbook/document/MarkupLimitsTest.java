package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 5, the same kind outside zip files: an HTML file of many tags is TOO_LARGE
 * before jsoup builds a DOM of it, and a parser overflowing its stack on deeply nested input
 * costs that one file (TOO_LARGE), never the run.
 */
class MarkupLimitsTest {
  @TempDir Path tmp;

  static final LoadLimits SMALL = new LoadLimits(LoadLimits.DEFAULT_MAX_INFLATED_BYTES, 10_000,
      LoadLimits.DEFAULT_MAX_OCR_PAGE_PIXELS, LoadLimits.DEFAULT_MAX_OCR_PIXELS,
      Duration.ofSeconds(60));

  @Test
  void i30_5_should_skip_html_with_more_tags_than_the_node_cap_as_too_large() throws Exception {
    Path html = tmp.resolve("tags.html");
    Files.writeString(html, "<html><body><p>" + "<b>x</b>".repeat(20_000) + "</p></body></html>",
        StandardCharsets.UTF_8);
    Path ok = tmp.resolve("ok.html");
    Files.writeString(ok, "<html><body><p>" + "<b>x</b>".repeat(100) + "</p></body></html>");
    DocumentReader reader = new DocumentReader(new Loaders(new HtmlLoader(SMALL)), 1 << 20);

    assertThatThrownBy(() -> reader.read(html, "web/tags.html"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("web/tags.html").hasMessageContaining("ingest.maxXmlNodes");
    assertThatThrownBy(() -> reader.declaredDepartment(html, "web/tags.html"))
        .hasMessageContaining("ingest.maxXmlNodes");
    assertThat(reader.read(ok, "ok.html").document().text()).contains("x");
  }

  /** A loader whose parser recurses without end, as a naive one does on deep nesting. */
  static final class DeepLoader implements DocumentLoader {
    @Override
    public Set<String> extensions() {
      return Set.of("deep");
    }

    @Override
    public LoadResult load(Path file, String source) {
      return descend(0);
    }

    private static LoadResult descend(int depth) {
      return descend(depth + 1);
    }
  }

  @Test
  void i30_5_should_skip_a_file_whose_parser_overflows_its_stack_and_go_on() throws Exception {
    Path deep = tmp.resolve("nested.deep");
    Files.writeString(deep, "(((((");
    DocumentReader reader = new DocumentReader(new Loaders(new DeepLoader()), 1 << 20);

    assertThatThrownBy(() -> reader.read(deep, "nested.deep"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("nested.deep").hasMessageContaining("nested too deeply");
  }
}
