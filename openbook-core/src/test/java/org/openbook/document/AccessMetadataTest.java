package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Access metadata ({@code dept}) fails closed in every loader: files go through
 * {@link DocumentReader}, as in ingest, and a file whose metadata is present but unreadable is a
 * BAD_METADATA error instead of a public document.
 */
class AccessMetadataTest {

  private final DocumentReader reader = new DocumentReader();

  @TempDir Path tmp;

  private Path write(String name, String content) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, content);
    return f;
  }

  private LoadResult read(String name, String content) throws Exception {
    return reader.read(write(name, content), "kb/" + name);
  }

  /** Front matter that opens but cannot be read, and the problem the error must name. */
  static Stream<Arguments> badFrontMatter() {
    String body = "# 奖金\n\n奖金五月发放。\n";
    return Stream.of(
        Arguments.of("malformed YAML", "---\ntitle: [unclosed\ndept: finance\n---\n" + body,
            "front matter: malformed YAML"),
        Arguments.of("no closing ---", "---\ndept: finance\n\n" + body,
            "front matter: opening --- has no closing --- within 200 lines"),
        Arguments.of("closing --- too far", "---\ndept: finance\n" + "# c\n".repeat(200)
            + "---\n" + body, "front matter: opening --- has no closing --- within 200 lines"),
        Arguments.of("list, not a mapping", "---\n- dept\n- finance\n---\n" + body,
            "front matter: expected key: value pairs, found ARRAY"),
        Arguments.of("scalar, not a mapping", "---\nfinance\n---\n" + body,
            "front matter: expected key: value pairs, found STRING"),
        Arguments.of("dept list", "---\ndept: [finance, hr]\n---\n" + body,
            "front matter: dept must be a department id such as 'hr', found ARRAY"),
        Arguments.of("dept map", "---\ndept:\n  name: finance\n---\n" + body,
            "front matter: dept must be a department id such as 'hr', found OBJECT"),
        Arguments.of("dept number", "---\ndept: 42\n---\n" + body,
            "front matter: dept must be a department id such as 'hr', found NUMBER 42"),
        Arguments.of("dept empty", "---\ndept:\n---\n" + body,
            "front matter: dept must be a department id such as 'hr', found nothing"),
        Arguments.of("dept blank string", "---\ndept: '  '\n---\n" + body,
            "front matter: dept must be a department id such as 'hr', found STRING"),
        Arguments.of("dept keys differing in case", "---\ndept: public\nDept: finance\n---\n"
            + body, "front matter: key 'dept' given more than once (keys ignore case)"),
        Arguments.of("dept key repeated", "---\ndept: finance\ndept: public\n---\n" + body,
            "front matter: malformed YAML (Duplicate field 'dept')"),
        Arguments.of("BOM then broken", "\uFEFF---\ndept: finance\n" + body,
            "front matter: opening --- has no closing --- within 200 lines"),
        Arguments.of("CRLF, no closing", "---\r\ndept: finance\r\n\r\n正文。\r\n",
            "front matter: opening --- has no closing --- within 200 lines"));
  }

  @ParameterizedTest(name = "{0} (.md)")
  @MethodSource("badFrontMatter")
  void should_refuse_markdown_with_unreadable_front_matter(String name, String content,
      String problem) throws Exception {
    Path f = write("bonus.md", content);

    assertThatThrownBy(() -> reader.read(f, "kb/bonus.md"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessageStartingWith("kb/bonus.md: " + problem);
  }

  @ParameterizedTest(name = "{0} (.txt)")
  @MethodSource("badFrontMatter")
  void should_refuse_text_with_unreadable_front_matter(String name, String content,
      String problem) throws Exception {
    Path f = write("bonus.txt", content);

    assertThatThrownBy(() -> reader.read(f, "kb/bonus.txt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessageStartingWith("kb/bonus.txt: " + problem);
  }

  @Test
  void should_label_bad_metadata_for_the_ingest_summary() {
    assertThat(LoadException.Reason.BAD_METADATA.label()).isEqualTo("bad front matter");
  }

  @ParameterizedTest
  @ValueSource(strings = {"dept: finance", "Dept: finance", "DEPT: finance", "dept: Finance ",
      "dEpT: '  FINANCE'"})
  void should_match_dept_key_ignoring_case_and_lower_case_the_value(String line)
      throws Exception {
    for (String name : new String[] {"bonus.md", "bonus.txt"}) {
      Document doc = read(name, "---\n" + line + "\n---\n奖金五月发放。\n").document();

      assertThat(doc.dept()).as(name).isEqualTo("finance");
      assertThat(doc.meta()).as(name).containsEntry("dept", "finance")
          .doesNotContainKeys("Dept", "DEPT", "dEpT");
    }
  }

  @Test
  void should_lower_case_other_front_matter_keys() throws Exception {
    Document doc = read("bonus.md", "---\nTitle: 奖金办法\nTAGS: [奖金, 薪酬]\n---\n正文。\n")
        .document();

    assertThat(doc.title()).isEqualTo("奖金办法");
    assertThat(doc.meta()).containsEntry("title", "奖金办法").containsEntry("tags", "奖金,薪酬")
        .containsEntry("dept", "public");
  }

  @Test
  void should_accept_empty_front_matter_as_public() throws Exception {
    Document doc = read("note.md", "---\n---\n正文。\n").document();

    assertThat(doc.dept()).isEqualTo("public");
    assertThat(TestData.sectionTexts(doc)).containsExactly("正文。");
  }

  @Test
  void should_close_front_matter_with_dots_and_on_the_last_allowed_line() throws Exception {
    String yaml = "dept: finance\n" + "# comment\n".repeat(FrontMatter.MAX_LINES - 2);
    Document doc = read("bonus.md", "---\n" + yaml + "...\n正文。\n").document();

    assertThat(doc.dept()).isEqualTo("finance");
    assertThat(TestData.sectionTexts(doc)).containsExactly("正文。");
  }

  @Test
  void should_keep_a_file_without_front_matter_public() throws Exception {
    assertThat(read("a.md", "正文\n---\ndept: finance\n").document().dept()).isEqualTo("public");
    assertThat(read("a.txt", "正文。\n\ndept: finance\n").document().dept()).isEqualTo("public");
    assertThat(read("a.html", "<p>正文</p>").document().dept()).isEqualTo("public");
  }

  @Test
  void should_read_text_front_matter_into_meta_and_keep_it_out_of_sections() throws Exception {
    String content = "---\ntitle: 奖金发放办法\ndept: finance\ntags: [奖金]\n---\n"
        + "奖金五月发放。\n\n按绩效计算。\n";
    Document doc = read("bonus.txt", content).document();

    assertThat(doc.text()).isEqualTo(content);
    assertThat(TestData.sectionTexts(doc)).containsExactly("奖金五月发放。", "按绩效计算。");
    assertThat(doc.sections().get(0).start()).isEqualTo(content.indexOf("奖金五月"));
    assertThat(doc.meta()).containsEntry("dept", "finance").containsEntry("title", "奖金发放办法")
        .containsEntry("tags", "奖金").containsEntry("charset", "UTF-8");
    assertThat(doc.title()).isEqualTo("奖金发放办法");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_read_front_matter_after_a_utf8_bom_in_text() throws Exception {
    byte[] body = "---\ndept: hr\n---\n年假十天。\n".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[body.length + 3];
    bytes[0] = (byte) 0xEF;
    bytes[1] = (byte) 0xBB;
    bytes[2] = (byte) 0xBF;
    System.arraycopy(body, 0, bytes, 3, body.length);
    Path f = tmp.resolve("leave.txt");
    Files.write(f, bytes);

    Document doc = reader.read(f, "leave.txt").document();

    assertThat(doc.dept()).isEqualTo("hr");
    assertThat(TestData.sectionTexts(doc)).containsExactly("年假十天。");
  }

  @Test
  void should_reject_text_with_only_front_matter_as_empty() throws Exception {
    Path f = write("only.txt", "---\ndept: hr\n---\n\n");

    assertThatThrownBy(() -> reader.read(f, "only.txt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.EMPTY))
        .hasMessage("only.txt: no text outside front matter");
  }

  @Test
  void should_read_dept_title_and_keywords_from_html_meta() throws Exception {
    Document doc = read("bonus.html", """
        <html><head><title>页面标题</title>
        <meta name="DEPT" content=" Finance ">
        <meta name="title" content="奖金发放办法">
        <meta name="Keywords" content="奖金， 薪酬 ,,绩效">
        </head><body><p>奖金五月发放。</p></body></html>
        """).document();

    assertThat(doc.dept()).isEqualTo("finance");
    assertThat(doc.meta()).containsEntry("dept", "finance").containsEntry("title", "奖金发放办法")
        .containsEntry("tags", "奖金,薪酬,绩效");
    assertThat(doc.title()).isEqualTo("奖金发放办法");
  }

  @Test
  void should_accept_a_repeated_identical_html_dept() throws Exception {
    Document doc = read("bonus.html", "<meta name=dept content=finance>"
        + "<meta name=dept content=FINANCE><p>奖金。</p>").document();

    assertThat(doc.dept()).isEqualTo("finance");
  }

  @Test
  void should_refuse_html_with_blank_dept_meta() throws Exception {
    Path f = write("bonus.html", "<meta name=\"dept\" content=\"  \"><p>奖金。</p>");

    assertThatThrownBy(() -> reader.read(f, "kb/bonus.html"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessage("kb/bonus.html: <meta name=\"dept\"> has no content");
  }

  @Test
  void should_refuse_html_with_conflicting_dept_metas() throws Exception {
    Path f = write("bonus.html",
        "<meta name=\"dept\" content=\"public\"><meta name=\"Dept\" content=\"finance\">"
            + "<p>奖金。</p>");

    assertThatThrownBy(() -> reader.read(f, "kb/bonus.html"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessage("kb/bonus.html: <meta name=\"dept\"> given twice: 'public' and 'finance'");
  }
}
