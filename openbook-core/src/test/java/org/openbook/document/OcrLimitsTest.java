package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.zip.CRC32;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.ocr.ImageLoader;
import org.openbook.document.ocr.OcrSettings;

/**
 * Issue 30 item 5: pages and images too large to render for OCR are never rendered, and OCR
 * stops at the per-file pixel and time budgets; a file left without text by them is TOO_LARGE
 * naming the limit. OCR runs a fake {@code tesseract} script (prints one line), so the tests do
 * not depend on Tesseract being installed and the only slow thing would be rendering.
 */
class OcrLimitsTest {
  @TempDir Path tmp;

  /** A fake Tesseract: answers {@code --version}, else sleeps {@code sleep} s and prints text. */
  private OcrSettings fakeOcr(int dpi, double sleep) throws Exception {
    Path bin = tmp.resolve("tesseract-" + dpi + "-" + (int) (sleep * 10));
    Files.writeString(bin, "#!/bin/sh\nif [ \"$1\" = \"--version\" ]; then echo tesseract 5.3.0;"
        + " exit 0; fi\nsleep " + sleep + "\necho \"scanned page text\"\n");
    Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new OcrSettings(OcrSettings.Mode.AUTO, "eng", dpi, 200, Duration.ofSeconds(30),
        bin.toString());
  }

  /** A PDF of {@code pages} blank pages of {@code w} × {@code h} pt (a few KB on disk). */
  private Path blankPdf(String name, int pages, float w, float h) throws Exception {
    Path f = tmp.resolve(name);
    try (PDDocument d = new PDDocument()) {
      for (int i = 0; i < pages; i++) {
        d.addPage(new PDPage(new PDRectangle(w, h)));
      }
      d.save(f.toFile());
    }
    return f;
  }

  @Test
  void i30_5_should_skip_a_pdf_of_eight_huge_blank_pages_as_too_large_without_rendering()
      throws Exception {
    Path pdf = blankPdf("huge.pdf", 8, 3000, 3000);
    assertThat(Files.size(pdf)).isLessThan(10_000);
    long t0 = System.nanoTime();

    assertThatThrownBy(() -> new PdfLoader(fakeOcr(300, 0), LoadLimits.DEFAULTS)
        .load(pdf, "scans/huge.pdf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("scans/huge.pdf")
        .hasMessageContaining("ingest.maxOcrPagePixels")
        .hasMessageContaining("156250000 pixels");
    // rendering one such page alone takes seconds and 156 MB; none was rendered
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10.0);
  }

  @Test
  void i30_5_should_read_pages_up_to_the_file_pixel_budget_and_name_it_for_the_rest()
      throws Exception {
    // A4 at 72 dpi is 595 × 841 pixels: the budget of 1.2 M pixels covers two of five pages
    Path pdf = blankPdf("scan.pdf", 5, PDRectangle.A4.getWidth(), PDRectangle.A4.getHeight());
    LoadLimits budget = new LoadLimits(LoadLimits.DEFAULT_MAX_INFLATED_BYTES,
        LoadLimits.DEFAULT_MAX_XML_NODES, LoadLimits.DEFAULT_MAX_OCR_PAGE_PIXELS, 1_200_000,
        Duration.ofSeconds(60));

    LoadResult r = new PdfLoader(fakeOcr(72, 0), budget).load(pdf, "scan.pdf");

    assertThat(r.ocrPages()).isEqualTo(2);
    assertThat(r.warnings()).filteredOn(w -> w.contains("ingest.maxOcrPixels")).hasSize(3);
    assertThat(r.document().text()).contains("scanned page text");
  }

  @Test
  void i30_5_should_stop_ocr_at_the_file_time_budget_and_skip_a_file_left_without_text()
      throws Exception {
    // each page would take 5 s; the file may take 1 s
    Path pdf = blankPdf("slow.pdf", 4, PDRectangle.A4.getWidth(), PDRectangle.A4.getHeight());
    LoadLimits oneSecond = new LoadLimits(LoadLimits.DEFAULT_MAX_INFLATED_BYTES,
        LoadLimits.DEFAULT_MAX_XML_NODES, LoadLimits.DEFAULT_MAX_OCR_PAGE_PIXELS,
        LoadLimits.DEFAULT_MAX_OCR_PIXELS, Duration.ofSeconds(1));
    long t0 = System.nanoTime();

    assertThatThrownBy(() -> new PdfLoader(fakeOcr(72, 5), oneSecond).load(pdf, "slow.pdf"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("slow.pdf")
        .hasMessageContaining("ingest.ocrTimeoutSeconds");
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10.0);
  }

  @Test
  void i30_5_should_skip_a_tiny_png_declaring_a_huge_image_before_decoding_it() throws Exception {
    // the same kind for images: 30000 × 30000 pixels declared in a 60-byte file
    Path png = tmp.resolve("bomb.png");
    Files.write(png, pngHeader(30_000, 30_000));

    assertThatThrownBy(() -> new ImageLoader(fakeOcr(300, 0), LoadLimits.DEFAULTS)
        .load(png, "bomb.png"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("bomb.png")
        .hasMessageContaining("ingest.maxOcrPagePixels");
  }

  /** A PNG signature, an IHDR chunk (8-bit grey) and IEND: enough for the reader's size. */
  private static byte[] pngHeader(int width, int height) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
    ByteArrayOutputStream ihdr = new ByteArrayOutputStream();
    DataOutputStream h = new DataOutputStream(ihdr);
    h.writeInt(width);
    h.writeInt(height);
    h.write(new byte[] {8, 0, 0, 0, 0});
    chunk(out, "IHDR", ihdr.toByteArray());
    chunk(out, "IEND", new byte[0]);
    return bytes.toByteArray();
  }

  private static void chunk(DataOutputStream out, String type, byte[] data) throws Exception {
    out.writeInt(data.length);
    byte[] t = type.getBytes(StandardCharsets.US_ASCII);
    out.write(t);
    out.write(data);
    CRC32 crc = new CRC32();
    crc.update(t);
    crc.update(data);
    out.writeInt((int) crc.getValue());
  }
}
