package org.openbook.engine.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.text.Normalizer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 30 item 1: one normal form for every source a request names. */
class SourcePathTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "./finance/预算.txt      | finance/预算.txt",
      "finance/./预算.txt      | finance/预算.txt",
      "finance//预算.txt       | finance/预算.txt",
      "hr/../finance/预算.txt  | finance/预算.txt",
      "finance/预算.txt/       | finance/预算.txt",
      "a/b/../../c.md          | c.md",
      "hr/leave.md             | hr/leave.md"})
  void i30_1_should_normalise_dot_empty_and_dotdot_segments(String raw, String normal) {
    assertThat(SourcePath.parse(raw, "source").value()).isEqualTo(normal);
  }

  @Test
  void i30_1_should_compose_nfd_names_to_nfc() {
    String nfd = Normalizer.normalize("finance/Prämie 한글.md", Normalizer.Form.NFD);
    assertThat(nfd).isNotEqualTo("finance/Prämie 한글.md");

    assertThat(SourcePath.parse(nfd, "source").value()).isEqualTo("finance/Prämie 한글.md");
  }

  @ParameterizedTest
  @ValueSource(strings = {"../x.md", "hr/../../x.md", "/etc/passwd", "C:/x.md", "c:x.md",
      "finance\\预算.txt", "a/\u0000b.md", "a/b\u0007.md", "a/\u202eb.md", "a/\u200bb.md",
      "a/b\u2028.md", "a/\u2029b.md", ".openbook-upload/journal.json", "hr/.hidden.md", "...", "", ".", "a/..", "\ud800x.md"})
  void i30_1_should_refuse_a_path_without_a_normal_form_naming_the_field(String raw) {
    assertThatThrownBy(() -> SourcePath.parse(raw, "source"))
        .isInstanceOfSatisfying(InvalidUploadException.class, e -> {
          assertThat(e.field()).isEqualTo("source");
          assertThat(e.reason()).isEqualTo(InvalidUploadException.Reason.BAD_NAME);
        });
  }

  @Test
  void i30_1_should_take_a_folder_that_names_the_root_as_none() {
    assertThat(SourcePath.parseFolder(null, "folder")).isEmpty();
    assertThat(SourcePath.parseFolder(" ", "folder")).isEmpty();
    assertThat(SourcePath.parseFolder("./", "folder")).isEmpty();
    assertThat(SourcePath.parseFolder("hr/..", "folder")).isEmpty();
    assertThat(SourcePath.parseFolder("./finance", "folder")).map(SourcePath::value)
        .contains("finance");
    assertThatThrownBy(() -> SourcePath.parseFolder("../finance", "folder"))
        .isInstanceOfSatisfying(InvalidUploadException.class,
            e -> assertThat(e.field()).isEqualTo("folder"));
  }

  @Test
  void should_refuse_to_construct_a_path_that_is_not_normal() {
    assertThatThrownBy(() -> new SourcePath("./a.md")).isInstanceOf(IllegalArgumentException.class);
    assertThat(new SourcePath("a/b.md").child("c.md").value()).isEqualTo("a/b.md/c.md");
  }
}
