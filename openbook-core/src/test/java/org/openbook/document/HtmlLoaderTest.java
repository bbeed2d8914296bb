package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlLoaderTest {

  private final HtmlLoader loader = new HtmlLoader();

  @TempDir Path tmp;

  private LoadResult load(String html) throws Exception {
    Path f = tmp.resolve("page.html");
    Files.writeString(f, html);
    return loader.load(f, "site/page.html");
  }

  @Test
  void should_extract_main_content_with_heading_path_and_block_kinds() throws Exception {
    Document doc = load("""
        <html><head><title>部署手册</title><style>p{}</style></head><body>
        <header>站点页眉</header><nav><a href="/">首页</a></nav>
        <main>
          <h1>部署指南</h1>
          <p>编辑<b>配置</b>文件：<br>然后重启。</p>
          <h2>步骤</h2>
          <ol><li>下载</li><li>安装 <code>ob</code></li></ol>
          <pre>export PORT=8080
          # 注释</pre>
          <table><tr><th>参数</th><th>默认</th></tr><tr><td>port</td><td>8080</td></tr></table>
          <script>var x = 1;</script>
          <div>松散 文本</div>
        </main>
        <footer>版权所有</footer>
        </body></html>
        """).document();

    assertThat(doc.title()).isEqualTo("部署手册");
    assertThat(TestData.sectionTexts(doc)).containsExactly(
        "编辑配置文件：\n然后重启。",
        "1. 下载\n2. 安装 ob",
        "export PORT=8080\n  # 注释",
        "参数 | 默认\nport | 8080",
        "松散 文本");
    assertThat(doc.sections()).extracting(Section::kind).containsExactly(
        Section.Kind.PARAGRAPH, Section.Kind.LIST, Section.Kind.CODE, Section.Kind.TABLE,
        Section.Kind.PARAGRAPH);
    assertThat(doc.sections()).extracting(Section::headingPath).containsExactly(
        List.of("部署指南"), List.of("部署指南", "步骤"), List.of("部署指南", "步骤"),
        List.of("部署指南", "步骤"), List.of("部署指南", "步骤"));
    assertThat(doc.text()).doesNotContain("站点页眉", "首页", "版权所有", "var x", "p{}");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_fall_back_to_body_and_first_h1_title() throws Exception {
    Document doc = load("<body><nav>菜单</nav><h1>标题</h1><h3>深层</h3><p>正文。</p>"
        + "<h2>同级</h2><ul><li>一</li><li>二</li></ul></body>").document();

    assertThat(doc.title()).isEqualTo("标题");
    assertThat(doc.sections()).extracting(Section::headingPath)
        .containsExactly(List.of("标题", "深层"), List.of("标题", "同级"));
    assertThat(TestData.sectionTexts(doc)).containsExactly("正文。", "- 一\n- 二");
  }

  @Test
  void should_reject_page_without_text_as_empty() {
    assertThatThrownBy(() -> load("<html><body><nav>菜单</nav><script>x()</script></body></html>"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.EMPTY))
        .hasMessageContaining("site/page.html");
  }
}
