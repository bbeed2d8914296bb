package org.openbook.document.ocr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import javax.imageio.ImageIO;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.PdfLoader;
import org.openbook.document.office.OfficeSamples;

class TesseractTest {

  private static final OcrSettings ENG =
      new OcrSettings(OcrSettings.Mode.AUTO, "eng", 150, 10, Duration.ofSeconds(60), "tesseract");

  @TempDir Path tmp;

  @Test
  void should_remove_spaces_between_chinese_characters_only() {
    assertThat(Tesseract.clean("自 安装 验收 单\fWS-2025-02 first page \n"))
        .isEqualTo("自安装验收单\nWS-2025-02 first page");
    assertThat(Tesseract.clean("保修 3 年，核心 部件")).isEqualTo("保修 3 年，核心部件");
  }

  @Test
  void should_skip_images_with_a_reason_when_ocr_is_off() throws Exception {
    Path png = tmp.resolve("scan.png");
    ImageIO.write(OfficeSamples.textImage("WARRANTY", 300, 80), "png", png.toFile());

    assertThatThrownBy(() -> new ImageLoader(OcrSettings.OFF).load(png, "scan.png"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.IMAGE_NO_OCR))
        .hasMessageContaining("scan.png").hasMessageContaining("ingest.ocr: off");
  }

  @Test
  void should_read_an_image_by_ocr_as_page_1_marked_ocr() throws Exception {
    assumeTesseract();
    Path png = tmp.resolve("notice.png");
    ImageIO.write(OfficeSamples.textImage("Warranty WS-2025-02\nService hotline 400-826-5173",
        900, 160), "png", png.toFile());

    LoadResult r = new ImageLoader(ENG.withMode(OcrSettings.Mode.AUTO)).load(png, "notice.png");

    assertThat(r.document().text()).contains("WS-2025-02").contains("400-826-5173");
    assertThat(r.document().pages()).singleElement()
        .satisfies(p -> assertThat(p.page()).isEqualTo(1))
        .satisfies(p -> assertThat(p.ocr()).isTrue());
    assertThat(r.ocrPages()).isEqualTo(1);
  }

  @Test
  void should_ocr_only_the_pdf_page_without_a_text_layer_and_flag_its_chunks() throws Exception {
    assumeTesseract();
    Path pdf = tmp.resolve("mixed.pdf");
    try (PDDocument doc = new PDDocument()) {
      PDPage text = new PDPage();
      doc.addPage(text);
      try (PDPageContentStream cs = new PDPageContentStream(doc, text)) {
        cs.beginText();
        cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 14);
        cs.newLineAtOffset(72, 700);
        cs.showText("Typed page: invoices are paid on Thursdays.");
        cs.endText();
      }
      PDPage scan = new PDPage();
      doc.addPage(scan);
      var image = LosslessFactory.createFromImage(doc,
          OfficeSamples.textImage("Scanned notice WS-2025-02\nHotline 400-826-5173", 900, 160));
      try (PDPageContentStream cs = new PDPageContentStream(doc, scan)) {
        cs.drawImage(image, 36, 500, 540, 96);
      }
      doc.save(pdf.toFile());
    }

    LoadResult r = new PdfLoader(ENG).load(pdf, "mixed.pdf");

    assertThat(r.ocrPages()).isEqualTo(1);
    var chunks = new StructuredChunker(ChunkerSettings.DEFAULT).chunk(r.document());
    Chunk typed = chunks.stream().filter(c -> c.raw().contains("Thursdays")).findFirst()
        .orElseThrow();
    Chunk scanned = chunks.stream().filter(c -> c.raw().contains("400-826-5173")).findFirst()
        .orElseThrow();
    assertThat(typed.page()).isEqualTo(1);
    assertThat(typed.meta()).doesNotContainKey(StructuredChunker.OCR);
    assertThat(scanned.page()).isEqualTo(2);
    assertThat(scanned.meta()).containsEntry(StructuredChunker.OCR, "true");
  }

  @Test
  void should_report_a_corrupt_tiff_as_corrupt() throws Exception {
    assumeTesseract();
    Path tif = tmp.resolve("broken.tif");
    OfficeSamples.corruptTiff(tif, 200);

    assertThatThrownBy(() -> new ImageLoader(ENG).load(tif, "broken.tif"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.CORRUPT))
        .hasMessageContaining("broken.tif");
  }

  private static void assumeTesseract() {
    Assumptions.assumeTrue(Tesseract.find(ENG).isPresent(), "tesseract not installed");
  }
}
