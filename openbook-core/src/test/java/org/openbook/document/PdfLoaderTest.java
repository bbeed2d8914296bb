package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDFont;
import org.apache.pdfbox.pdmodel.font.PDType0Font;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;
import org.openbook.document.ocr.OcrSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PdfLoaderTest {

  /** Subset of WenQuanYi Micro Hei (Apache-2.0), see NOTICE-fonts.md beside it. */
  private static final String CJK_FONT = "/document/wqy-microhei-subset.ttf";
  private static final Pattern BAD_CONTROLS = Pattern.compile("[\\x00-\\x08\\x0B-\\x1F]");

  private final PdfLoader loader = new PdfLoader(OcrSettings.OFF);

  @TempDir Path tmp;

  /** Writes one page per entry; a null entry is an image-only page without a text layer. */
  private Path writePdf(String name, PdfFont font, String... pages) throws IOException {
    Path f = tmp.resolve(name);
    try (PDDocument pdf = new PDDocument()) {
      PDFont pdFont = font.create(pdf);
      for (String text : pages) {
        PDPage page = new PDPage();
        pdf.addPage(page);
        try (PDPageContentStream cs = new PDPageContentStream(pdf, page)) {
          if (text == null) {
            cs.drawImage(scannedImage(pdf), 72, 500, 300, 100);
            continue;
          }
          cs.beginText();
          cs.setFont(pdFont, 14);
          cs.newLineAtOffset(72, 700);
          cs.showText(text);
          cs.endText();
        }
      }
      pdf.save(f.toFile());
    }
    return f;
  }

  interface PdfFont {
    PDFont create(PDDocument pdf) throws IOException;
  }

  private static PDFont helvetica(PDDocument pdf) {
    return new PDType1Font(Standard14Fonts.FontName.HELVETICA);
  }

  private static PDImageXObject scannedImage(PDDocument pdf) throws IOException {
    BufferedImage img = new BufferedImage(300, 100, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, 300, 100);
    g.setColor(Color.BLACK);
    g.fillRect(20, 40, 260, 10);
    g.dispose();
    return LosslessFactory.createFromImage(pdf, img);
  }

  private static String pageText(Document doc, int page) {
    PageSpan span = doc.pages().get(page - 1);
    return doc.text().substring(span.start(), span.end());
  }

  @Test
  void should_give_each_section_the_page_it_comes_from() throws Exception {
    Path f = writePdf("handbook.pdf", PdfLoaderTest::helvetica,
        "Onboarding: badge pickup at the front desk.",
        "Attendance: core hours are 10:00-16:00.",
        "Expenses: submit receipts within 30 days.");

    LoadResult r = loader.load(f, "hr/handbook.pdf");
    Document doc = r.document();

    assertThat(r.warnings()).isEmpty();
    assertThat(doc.source()).isEqualTo("hr/handbook.pdf");
    assertThat(doc.pages()).extracting(PageSpan::page).containsExactly(1, 2, 3);
    assertThat(TestData.sectionTexts(doc)).containsExactly(
        "Onboarding: badge pickup at the front desk.",
        "Attendance: core hours are 10:00-16:00.",
        "Expenses: submit receipts within 30 days.");
    assertThat(doc.sections()).extracting(s -> doc.pageAt(s.start())).containsExactly(1, 2, 3);
    assertThat(doc.sections()).extracting(s -> doc.pageAt(s.end() - 1)).containsExactly(1, 2, 3);
    assertThat(doc.text()).isEqualTo("Onboarding: badge pickup at the front desk.\n\n"
        + "Attendance: core hours are 10:00-16:00.\n\n"
        + "Expenses: submit receipts within 30 days.");
    assertThat(doc.title()).isEqualTo("handbook");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_extract_cjk_text_and_report_image_only_page() throws Exception {
    Path f = writePdf("report.pdf", pdf -> {
      try (InputStream in = PdfLoaderTest.class.getResourceAsStream(CJK_FONT)) {
        Assumptions.assumeTrue(in != null, "CJK test font missing: " + CJK_FONT);
        return PDType0Font.load(pdf, in);
      }
    }, "第二季度营收增长百分之十二。", null, "ERR_4517 与 GB/T 22239 相关。");

    LoadResult r = loader.load(f, "finance/report.pdf");
    Document doc = r.document();

    assertThat(pageText(doc, 1)).contains("第二季度营收增长百分之十二");
    assertThat(pageText(doc, 2)).isEmpty();
    assertThat(pageText(doc, 3)).contains("ERR_4517").contains("GB/T 22239");
    assertThat(doc.text()).doesNotContain("\uFFFD").doesNotContain("(cid:");
    assertThat(BAD_CONTROLS.matcher(doc.text()).find()).isFalse();
    assertThat(r.warnings()).containsExactly("page 2: no extractable text (needs OCR)");
    assertThat(doc.sections()).extracting(s -> doc.pageAt(s.start())).containsExactly(1, 3);
  }

  @Test
  void should_not_index_page_with_suspect_extraction() throws LoadException {
    String garbage = "\uE001\uE002\uE003 营收 \uFFFD\uFFFD";
    LoadResult r = PdfLoader.build(List.of("正常的第一页。", garbage, "(cid:12)(cid:34) 第三页"),
        "x.pdf", "x", "h");

    assertThat(r.warnings()).hasSize(2);
    assertThat(r.warnings().get(0)).startsWith("page 2: suspect text extraction");
    assertThat(r.warnings().get(1)).startsWith("page 3: suspect text extraction");
    assertThat(TestData.sectionTexts(r.document())).containsExactly("正常的第一页。");
  }

  @Test
  void should_give_numbered_clauses_of_a_flat_page_their_own_heading_path() throws LoadException {
    String page1 = "设备租赁合同\n第一章 总则\n第一条 目的\n为规范设备租赁，制定本合同。\n"
        + "第二条 租期\n租期为 2 年，自交付之日起计算。\n第5条规定的押金不计利息。";
    String page2 = "续上页，押金在租期届满后 15 日内退还。\n第二章 费用\n第三条”租金\n"
        + "租金按季度支付。";
    Document doc = PdfLoader.build(List.of(page1, page2), java.util.Set.of(1), "lease.pdf",
        "lease", "h").document();

    List<String> paths = doc.sections().stream()
        .map(sec -> String.join(" > ", sec.headingPath()) + " | "
            + doc.text().substring(sec.start(), sec.end()).lines().findFirst().orElseThrow())
        .toList();
    assertThat(paths).containsExactly(
        " | 设备租赁合同",
        "第一章 总则 | 第一章 总则",
        "第一章 总则 > 第一条 目的 | 第一条 目的",
        // a sentence citing an article is not a heading; page 2 continues the open article
        "第一章 总则 > 第二条 租期 | 第二条 租期",
        "第一章 总则 > 第二条 租期 | 续上页，押金在租期届满后 15 日内退还。",
        "第二章 费用 | 第二章 费用",
        "第二章 费用 > 第三条”租金 | 第三条”租金");
    // nothing of the text is dropped: every clause line stays in a section
    assertThat(doc.sections().stream().mapToInt(sec -> sec.end() - sec.start()).sum())
        .isEqualTo(page1.length() + page2.length() - "\n".repeat(5).length());
    assertThat(doc.pageAt(doc.sections().get(4).start())).isEqualTo(2);
  }

  @Test
  void should_take_only_short_unpunctuated_clause_lines_for_headings() {
    assertThat(ClauseHeadings.level("第十二条 保密义务")).isEqualTo(3);
    assertThat(ClauseHeadings.level("第3章 附则")).isEqualTo(1);
    assertThat(ClauseHeadings.level("第二节 审批")).isEqualTo(2);
    assertThat(ClauseHeadings.level("第二条 本制度适用于公司全体员工。")).isZero();
    assertThat(ClauseHeadings.level("第5条规定的押金不计利息。")).isZero();
    assertThat(ClauseHeadings.level("第 1 天的安排")).isZero();
    assertThat(ClauseHeadings.level("第10条之外的情形：" + "很长".repeat(20))).isZero();
  }

  @Test
  void should_measure_suspect_share_over_non_whitespace_characters() {
    // 1 of 20 characters bad = 5 %, not above the limit; 2 of 20 = 10 %
    assertThat(PdfLoader.suspectShare("\uFFFD" + "一".repeat(19) + "   ")).isEqualTo(0.05);
    assertThat(PdfLoader.suspectShare("\uFFFD\uE000" + "一".repeat(18))).isEqualTo(0.10);
    assertThat(PdfLoader.suspectShare("(cid:7)abc")).isEqualTo(0.7);
  }

  @Test
  void should_strip_control_characters_and_normalize_to_nfc() {
    assertThat(PdfLoader.clean("a\u0000b\u0007c\r\nd\te\u000Cf e\u0301  \n"))
        .isEqualTo("abc\nd\tef \u00E9");
  }

  @Test
  void should_rejoin_lines_that_end_mid_sentence() {
    String extracted = "第一段开头，经历了多次大规模一线  \n\n实战的检验。\n\n反例：\n\n代码行\n\n\n第二段。\n";

    assertThat(PdfLoader.clean(extracted))
        .isEqualTo("第一段开头，经历了多次大规模一线\n实战的检验。\n\n反例：\n\n代码行\n第二段。");
  }

  @Test
  void should_report_scanned_pdf_as_needing_ocr_when_ocr_is_off() {
    Path f = TestData.shared("datasets/pdf/small_ocr.pdf");

    assertThatThrownBy(() -> new PdfLoader(OcrSettings.OFF).load(f, "small_ocr.pdf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.NEEDS_OCR))
        .hasMessageContaining("small_ocr.pdf")
        .hasMessageContaining("page 8: no extractable text (needs OCR)")
        .hasMessageContaining("ingest.ocr: off");
  }

  @Test
  void should_load_real_chinese_report_with_all_pages() throws Exception {
    Path f = TestData.shared("datasets/pdf/比亚迪财报.pdf");
    LoadResult r = loader.load(f, "pdf/比亚迪财报.pdf");
    Document doc = r.document();

    assertThat(doc.pages()).hasSize(9);
    assertThat(doc.text()).contains("营业收入").contains("比亚迪");
    assertThat(doc.sections().stream().map(s -> doc.pageAt(s.start())).distinct())
        .containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_repair_pdf_with_damaged_xref() throws Exception {
    Path f = TestData.shared("datasets/pdf/示例7-研究报告.pdf");
    Document doc = loader.load(f, "pdf/示例7-研究报告.pdf").document();

    assertThat(doc.pages()).hasSize(5);
    assertThat(doc.text()).contains("服装");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_report_garbage_bytes_as_corrupt() throws IOException {
    Path f = tmp.resolve("broken.pdf");
    Files.writeString(f, "%PDF-1.7\nthis is not really a pdf\n");

    assertThatThrownBy(() -> loader.load(f, "broken.pdf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageStartingWith("broken.pdf: ");
  }

  @Test
  void should_report_password_protected_pdf_as_corrupt() throws IOException {
    Path f = tmp.resolve("secret.pdf");
    try (PDDocument pdf = new PDDocument()) {
      pdf.addPage(new PDPage());
      StandardProtectionPolicy policy =
          new StandardProtectionPolicy("owner-pw", "user-pw", new AccessPermission());
      policy.setEncryptionKeyLength(128);
      pdf.protect(policy);
      pdf.save(f.toFile());
    }

    assertThatThrownBy(() -> loader.load(f, "secret.pdf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageContaining("password");
  }
}
