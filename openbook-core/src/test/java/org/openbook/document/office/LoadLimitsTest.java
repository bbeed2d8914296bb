package org.openbook.document.office;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;

/**
 * Issue 30 item 5: zip-based files whose parts inflate past {@link LoadLimits#maxInflatedBytes()}
 * or hold more XML nodes than {@link LoadLimits#maxXmlNodes()} are TOO_LARGE naming the limit,
 * refused in one streaming pass before any DOM is built. The bombs are built here, small on
 * disk and highly compressible, yet above the 1 % ratio check.
 */
class LoadLimitsTest {
  @TempDir Path tmp;

  /** 4 MiB inflated, 20 k XML nodes at most: small caps so the bombs stay small. */
  static final LoadLimits SMALL = new LoadLimits(4L * 1024 * 1024, 20_000, 1_000_000, 10_000_000,
      Duration.ofSeconds(60));

  static final String ODF_HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
      + "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\""
      + " xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body><office:text>";
  static final String ODF_TAIL = "</office:text></office:body></office:document-content>";

  /**
   * A zip of {@code entry} whose body is {@code head}, then {@code unit} until {@code bytes} are
   * written, then {@code tail}; stored with DEFLATE, so a repeated unit compresses well. The
   * units vary a little so the ratio stays above 1 % (as the attack's 2.8 % did).
   */
  static void zip(Path out, String mimetype, String entry, String head, String unit, long bytes,
      String tail) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      if (mimetype != null) {
        zip.putNextEntry(new ZipEntry("mimetype"));
        zip.write(mimetype.getBytes(StandardCharsets.US_ASCII));
        zip.closeEntry();
      }
      zip.putNextEntry(new ZipEntry(entry));
      OutputStream o = zip;
      o.write(head.getBytes(StandardCharsets.UTF_8));
      java.util.Random r = new java.util.Random(30);
      long written = 0;
      StringBuilder sb = new StringBuilder();
      while (written < bytes) {
        sb.setLength(0);
        for (int i = 0; i < 200; i++) {
          String[] parts = unit.split("#", -1);
          for (int k = 0; k < parts.length; k++) {
            sb.append(parts[k]);
            if (k < parts.length - 1) {
              sb.append((char) ('a' + r.nextInt(4)));
            }
          }
        }
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        o.write(b);
        written += b.length;
      }
      o.write(tail.getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
  }

  @Test
  void i30_5_should_skip_an_odt_whose_content_inflates_past_the_cap_as_too_large()
      throws Exception {
    Path odt = tmp.resolve("bomb.odt");
    // few, long elements: the byte cap binds before the node cap
    zip(odt, "application/vnd.oasis.opendocument.text", "content.xml", ODF_HEAD,
        "<text:p>" + "工资 # ".repeat(200) + "</text:p>", 8L * 1024 * 1024, ODF_TAIL);
    // highly compressible, yet above the 1 % ratio check (the attack's file had 2.8 %)
    assertThat(Files.size(odt)).isBetween(8L * 1024 * 1024 / 100, 8L * 1024 * 1024 / 10);

    assertThatThrownBy(() -> new OpenDocumentLoader(false, SMALL).load(odt, "hr/bomb.odt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("hr/bomb.odt")
        .hasMessageContaining("ingest.maxInflatedBytes")
        .hasMessageContaining(Long.toString(SMALL.maxInflatedBytes()));
  }

  @Test
  void i30_5_should_skip_an_odt_of_many_small_elements_past_the_node_cap_as_too_large()
      throws Exception {
    Path odt = tmp.resolve("nodes.odt");
    // 1 MiB of empty spans: under the byte cap, ~60 k elements over the 20 k node cap
    zip(odt, "application/vnd.oasis.opendocument.text", "content.xml", ODF_HEAD + "<text:p>",
        "<text:s text:c=\"#\"/>", 1024 * 1024, "</text:p>" + ODF_TAIL);
    assertThat(Files.size(odt)).isGreaterThan(1024 * 1024 / 100);

    assertThatThrownBy(() -> new OpenDocumentLoader(false, SMALL).load(odt, "nodes.odt"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("nodes.odt")
        .hasMessageContaining("ingest.maxXmlNodes");
  }

  @Test
  void i30_5_should_skip_a_docx_and_an_xlsx_over_the_caps_before_poi_parses_them()
      throws Exception {
    // the same kind in OOXML: a document.xml of many runs, a sheet of many cells
    Path docx = tmp.resolve("bomb.docx");
    zip(docx, null, "word/document.xml", "<?xml version=\"1.0\"?><w:document xmlns:w=\""
            + "http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>",
        "<w:p><w:r><w:t>#</w:t></w:r></w:p>", 1024 * 1024, "</w:body></w:document>");
    Path xlsx = tmp.resolve("bomb.xlsx");
    zip(xlsx, null, "xl/worksheets/sheet1.xml", "<?xml version=\"1.0\"?><worksheet xmlns=\""
            + "http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>",
        "<c r=\"A1\" t=\"inlineStr\"><is><t>#</t></is></c>", 6L * 1024 * 1024,
        "</sheetData></worksheet>");

    assertThatThrownBy(() -> new WordLoader(SMALL).load(docx, "bomb.docx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("bomb.docx").hasMessageContaining("ingest.maxXmlNodes");
    assertThatThrownBy(() -> new SpreadsheetLoader(false, SMALL).load(xlsx, "bomb.xlsx"))
        .isInstanceOfSatisfying(LoadException.class,
            e -> assertThat(e.reason()).isEqualTo(LoadException.Reason.TOO_LARGE))
        .hasMessageContaining("bomb.xlsx").hasMessageMatching(
            "(?s).*(ingest.maxInflatedBytes|ingest.maxXmlNodes).*");
  }

  @Test
  void should_still_load_an_ordinary_odt_and_docx_under_the_default_caps() throws Exception {
    Path odt = tmp.resolve("ok.odt");
    OpenDocumentSamples.odt(odt, 20);
    Path docx = tmp.resolve("ok.docx");
    OfficeSamples.docxWithTable(docx, 20);

    assertThat(new OpenDocumentLoader(false, LoadLimits.DEFAULTS).load(odt, "ok.odt")
        .document().text()).isNotBlank();
    assertThat(new WordLoader(LoadLimits.DEFAULTS).load(docx, "ok.docx").document().text())
        .isNotBlank();
    // and under the small caps too: they are far above ordinary files
    assertThat(new OpenDocumentLoader(false, SMALL).load(odt, "ok.odt").document().text())
        .isNotBlank();
  }
}
