package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MarkdownLoaderTest {

  private final MarkdownLoader loader = new MarkdownLoader();

  @TempDir Path tmp;

  private Document parse(String markdown) throws LoadException {
    return loader.parse(markdown, "t.md", "t", "hash").document();
  }

  /** R07: the bug case's input with a given fence (open, close) and indentation. */
  private static String r07(String indent, String open, String close) {
    return "# 部署指南\n## 配置\n编辑配置文件：\n"
        + indent + open + "\n"
        + indent + "# 设置端口\n"
        + indent + "export PORT=8080\n"
        + indent + close + "\n"
        + "## 回滚\n执行回滚脚本。\n";
  }

  static Stream<Arguments> r07Variants() {
    return Stream.of(
        Arguments.of("", "```bash", "```"),
        Arguments.of("", "~~~bash", "~~~"),
        Arguments.of(" ", "```bash", "```"),
        Arguments.of("  ", "~~~", "~~~"),
        Arguments.of("   ", "```bash", "```"),
        Arguments.of("   ", "~~~bash", "~~~"));
  }

  @ParameterizedTest
  @MethodSource("r07Variants")
  void should_not_take_hash_comment_in_code_fence_as_heading(String indent, String open,
      String close) throws LoadException {
    String md = r07(indent, open, close);
    Document doc = parse(md);

    assertThat(doc.sections()).extracting(Section::headingPath).containsExactly(
        List.of("部署指南", "配置"), List.of("部署指南", "配置"), List.of("部署指南", "回滚"));
    assertThat(doc.sections()).extracting(Section::kind).containsExactly(
        Section.Kind.PARAGRAPH, Section.Kind.CODE, Section.Kind.PARAGRAPH);
    assertThat(doc.sections()).flatExtracting(Section::headingPath).doesNotContain("设置端口");
    String fence = indent + open + "\n" + indent + "# 设置端口\n" + indent + "export PORT=8080\n"
        + indent + close;
    assertThat(TestData.sectionTexts(doc))
        .containsExactly("编辑配置文件：", fence, "执行回滚脚本。");
    // the 配置 heading's two blocks together cover the paragraph and the whole fence
    Section first = doc.sections().get(0);
    Section code = doc.sections().get(1);
    assertThat(doc.text().substring(first.start(), code.end()))
        .isEqualTo("编辑配置文件：\n" + fence);
  }

  @Test
  void should_map_offsets_exactly_with_crlf_line_ends() throws LoadException {
    String md = r07("", "```bash", "```").replace("\n", "\r\n");
    Document doc = parse(md);

    assertThat(TestData.sectionTexts(doc)).containsExactly("编辑配置文件：",
        "```bash\r\n# 设置端口\r\nexport PORT=8080\r\n```", "执行回滚脚本。");
  }

  @Test
  void should_classify_lists_tables_quotes_and_html() throws LoadException {
    String md = """
        # T

        - a
        - b

        1. one
        2. two

        | h1 | h2 |
        |----|----|
        | x  | y  |

        > quoted
        > text

        <div>html block</div>

        <!-- a comment only -->

        ---

            indented code
        """;
    Document doc = parse(md);

    assertThat(doc.sections()).extracting(Section::kind).containsExactly(
        Section.Kind.LIST, Section.Kind.LIST, Section.Kind.TABLE, Section.Kind.PARAGRAPH,
        Section.Kind.PARAGRAPH, Section.Kind.CODE);
    assertThat(TestData.sectionTexts(doc)).containsExactly("- a\n- b", "1. one\n2. two",
        "| h1 | h2 |\n|----|----|\n| x  | y  |", "> quoted\n> text", "<div>html block</div>",
        "    indented code");
  }

  @Test
  void should_trim_vuepress_container_markers() throws LoadException {
    Document doc = parse("## 提示\n\n::: tip 注意\n请先备份数据。\n:::\n\n::: warning\n\n危险操作。\n\n:::\n");

    assertThat(TestData.sectionTexts(doc)).containsExactly("请先备份数据。", "危险操作。");
    assertThat(doc.sections()).allSatisfy(s -> assertThat(s.headingPath()).containsExactly("提示"));
  }

  @Test
  void should_build_heading_path_from_plain_text_without_anchor() throws LoadException {
    Document doc = parse("""
        # 接口 `app.mount()` {#app-mount}
        正文一。
        ### 三级 {#deep}
        正文二。
        ## 二级
        正文三。

        Setext 标题
        ----------
        正文四。
        """);

    assertThat(doc.sections()).extracting(Section::headingPath).containsExactly(
        List.of("接口 app.mount()"),
        List.of("接口 app.mount()", "三级"),
        List.of("接口 app.mount()", "二级"),
        List.of("接口 app.mount()", "Setext 标题"));
    assertThat(doc.title()).isEqualTo("接口 app.mount()");
  }

  @Test
  void should_parse_front_matter_into_meta_and_keep_it_out_of_sections() throws LoadException {
    String md = "---\ntitle: 员工手册\ndept: hr\ntags: [考勤, 年假]\nupdated: 2024-07-01\n"
        + "version: 3\n---\n\n# 另一个标题\n\n正文。\n";
    Document doc = parse(md);

    assertThat(doc.meta()).containsEntry("title", "员工手册").containsEntry("dept", "hr")
        .containsEntry("tags", "考勤,年假").containsEntry("updated", "2024-07-01")
        .containsEntry("version", "3");
    assertThat(doc.title()).isEqualTo("员工手册");
    assertThat(doc.text()).isEqualTo(md);
    assertThat(TestData.sectionTexts(doc)).containsExactly("正文。");
    assertThat(doc.sections().get(0).headingPath()).containsExactly("另一个标题");
  }

  @Test
  void should_default_dept_to_public_and_title_to_first_h1() throws LoadException {
    Document doc = parse("## 小节\n文字。\n# 大标题\n文字二。\n");

    assertThat(doc.dept()).isEqualTo("public");
    assertThat(doc.meta()).containsEntry("dept", "public");
    assertThat(doc.title()).isEqualTo("大标题");
  }

  @Test
  void should_use_file_name_as_title_without_front_matter_or_h1() throws Exception {
    Path f = tmp.resolve("使用说明.md");
    Files.writeString(f, "## 小节\n文字。\n");

    assertThat(loader.load(f, "a/使用说明.md").document().title()).isEqualTo("使用说明");
  }

  @Test
  void should_refuse_malformed_front_matter_instead_of_loading_it_as_public() {
    assertThatThrownBy(() -> loader.parse("---\ntitle: [unclosed\ndept: hr\n---\n正文。\n",
        "bad.md", "bad", "h"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.BAD_METADATA))
        .hasMessageStartingWith("bad.md: front matter: malformed YAML");
  }

  @Test
  void should_strip_utf8_bom_and_hash_raw_bytes() throws Exception {
    byte[] body = "# 标题\n内容。\n".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[body.length + 3];
    bytes[0] = (byte) 0xEF;
    bytes[1] = (byte) 0xBB;
    bytes[2] = (byte) 0xBF;
    System.arraycopy(body, 0, bytes, 3, body.length);
    Path f = tmp.resolve("bom.md");
    Files.write(f, bytes);

    Document doc = loader.load(f, "bom.md").document();

    assertThat(doc.text()).isEqualTo("# 标题\n内容。\n");
    assertThat(doc.contentHash()).isEqualTo(RawFile.sha256Hex(bytes)).hasSize(64);
    assertThat(doc.id()).isEqualTo("bom.md");
  }

  @Test
  void should_reject_markdown_with_only_front_matter_as_empty() {
    assertThatThrownBy(() -> parse("---\ntitle: x\n---\n\n"))
        .isInstanceOf(LoadException.class)
        .extracting(e -> ((LoadException) e).reason()).isEqualTo(LoadException.Reason.EMPTY);
  }

  @Test
  void should_read_dept_hr_from_kb_demo_handbook() throws Exception {
    Path f = TestData.shared("fixtures/kb-demo/docs/hr/员工手册.md");
    Document doc = loader.load(f, "hr/员工手册.md").document();

    assertThat(doc.dept()).isEqualTo("hr");
    assertThat(doc.title()).isEqualTo("员工手册（考勤与休假篇）");
    assertThat(doc.meta()).containsEntry("tags", "考勤,弹性工作制,年假,请假审批");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_keep_shell_comments_of_kb_demo_build_notes_inside_code() throws Exception {
    Path f = TestData.shared("fixtures/kb-demo/docs/dev/编译排错笔记.md");
    Document doc = loader.load(f, "dev/编译排错笔记.md").document();

    assertThat(doc.sections()).flatExtracting(Section::headingPath)
        .noneMatch(h -> h.contains("安装依赖") || h.contains("编译并安装"));
    Section code = doc.sections().stream().filter(s -> s.kind() == Section.Kind.CODE)
        .findFirst().orElseThrow();
    assertThat(code.headingPath()).containsExactly("边缘代理 SDK（ly-edge-agent）编译排错笔记", "做法");
    String codeText = doc.text().substring(code.start(), code.end());
    assertThat(codeText).startsWith("```bash\n# 1. 安装依赖").endsWith("sudo cmake --install build\n```")
        .contains("# cmake -S . -B build -DZLIB_ROOT=/opt/zlib-1.3");
    assertThat(doc.dept()).isEqualTo("public");
  }

  @Test
  void should_strip_vitepress_anchors_from_vue_api_headings() throws Exception {
    Path f = TestData.shared("datasets/docs-zh/vuejs/api/application.md");
    assertThat(Files.readString(f)).contains("{#");

    Document doc = loader.load(f, "vuejs/api/application.md").document();

    assertThat(doc.sections()).flatExtracting(Section::headingPath)
        .isNotEmpty().noneMatch(h -> h.contains("{#"));
    assertThat(doc.title()).doesNotContain("{#");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_keep_offset_contract_for_every_arthas_doc() throws IOException, LoadException {
    Path root = TestData.shared("datasets/docs-zh/arthas");
    List<CorpusFile> files = new CorpusWalker().walk(root);
    assertThat(files).hasSizeGreaterThan(50);
    for (CorpusFile f : files) {
      Document doc = loader.load(f.path(), f.source()).document();
      TestData.assertOffsetContract(doc);
      assertThat(doc.sections()).flatExtracting(Section::headingPath)
          .as(f.source()).noneMatch(h -> h.contains("{#"));
    }
  }
}
