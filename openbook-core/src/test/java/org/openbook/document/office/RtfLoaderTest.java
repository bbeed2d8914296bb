package org.openbook.document.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.LoadException;
import org.openbook.document.Section;
import org.xml.sax.helpers.AttributesImpl;

class RtfLoaderTest {

  @TempDir Path tmp;

  @Test
  void should_decode_the_declared_code_page_and_keep_lists_as_lists() throws Exception {
    Path f = tmp.resolve("手册.rtf");
    Files.writeString(f, OpenDocumentSamples.rtf(), StandardCharsets.US_ASCII);
    Document doc = new RtfLoader().load(f, "hr/手册.rtf").document();

    assertThat(doc.title()).isEqualTo("员工手册");
    assertThat(doc.text()).contains("政策 ZQ-7781 合同");
    Section list = doc.sections().stream().filter(s -> s.kind() == Section.Kind.LIST)
        .findFirst().orElseThrow();
    assertThat(doc.text().substring(list.start(), list.end())).isEqualTo("• 检查消防\n• 开门");
    assertThat(doc.text()).endsWith("结束");
  }

  @Test
  void should_assemble_headings_and_tables_from_xhtml_events() throws Exception {
    // what a parser that emits them (Tika's XHTML for h1..h6 and tables) gives the assembler
    DocumentAssembler out = new DocumentAssembler();
    RtfLoader.XhtmlBlocks h = new RtfLoader.XhtmlBlocks(out);
    AttributesImpl none = new AttributesImpl();
    h.startElement("", "body", "body", none);
    element(h, "h1", "制度");
    element(h, "h2", "报销");
    element(h, "p", "发票需在 30 天内提交。");
    h.startElement("", "table", "table", none);
    for (String[] row : new String[][] {{"类别", "上限"}, {"餐费", "¥200"}}) {
      h.startElement("", "tr", "tr", none);
      for (String c : row) {
        element(h, "td", c);
      }
      h.endElement("", "tr", "tr");
    }
    h.endElement("", "table", "table");
    h.endElement("", "body", "body");
    Document doc = out.build("x.rtf", "x", java.util.Map.of(), "0");

    assertThat(doc.sections()).extracting(Section::kind)
        .containsExactly(Section.Kind.PARAGRAPH, Section.Kind.TABLE);
    assertThat(doc.sections()).allSatisfy(
        s -> assertThat(s.headingPath()).containsExactly("制度", "报销"));
    Section t = doc.sections().get(1);
    assertThat(doc.text().substring(t.start(), t.end()))
        .isEqualTo("| 类别 | 上限 |\n|---|---|\n| 餐费 | ¥200 |");
  }

  @Test
  void should_report_a_file_that_is_not_rtf_as_corrupt_naming_it() throws Exception {
    Path f = tmp.resolve("bad.rtf");
    OpenDocumentSamples.corruptRtf(f);

    assertThatThrownBy(() -> new RtfLoader().load(f, "docs/bad.rtf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessage("docs/bad.rtf: not an RTF file (does not start with {\\rtf)");
  }

  @Test
  void should_index_a_cut_off_rtf_up_to_the_cut_with_a_warning() throws Exception {
    String whole = OpenDocumentSamples.rtf();
    Path whole1 = tmp.resolve("whole.rtf");
    Files.writeString(whole1, whole + "\r\n", StandardCharsets.US_ASCII);
    Path cut = tmp.resolve("cut.rtf");
    Files.writeString(cut, whole.substring(0, whole.indexOf("\\pard \\'bd")),
        StandardCharsets.US_ASCII);

    assertThat(new RtfLoader().load(whole1, "whole.rtf").warnings()).isEmpty();
    var r = new RtfLoader().load(cut, "cut.rtf");
    assertThat(r.warnings()).singleElement().asString().contains("truncated");
    assertThat(r.document().text()).contains("政策 ZQ-7781").doesNotContain("结束");
  }

  @Test
  void should_report_an_rtf_without_text_as_empty() throws Exception {
    Path f = tmp.resolve("blank.rtf");
    Files.writeString(f, "{\\rtf1\\ansi{\\fonttbl{\\f0 Arial;}}\\par\\par}");

    assertThatThrownBy(() -> new RtfLoader().load(f, "blank.rtf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.EMPTY));
  }

  private static void element(RtfLoader.XhtmlBlocks h, String name, String text) {
    h.startElement("", name, name, new AttributesImpl());
    h.characters(text.toCharArray(), 0, text.length());
    h.endElement("", name, name);
  }
}
