package org.openbook.app;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Random;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.graphics.image.LosslessFactory;
import org.apache.pdfbox.pdmodel.graphics.image.PDImageXObject;

/**
 * Writes the bad-input corpus of issue 6 into a folder: every kind of file an ingest meets in
 * the wild. Generated, never checked in. The "50 MB" file is {@link #BIG_FILE_BYTES} (6 MB) and
 * is tested against a lowered {@code ingest.maxFileBytes} of {@link #MAX_FILE_BYTES}, which
 * exercises the same limit at a fraction of the cost.
 */
final class BadInputCorpus {

  static final long BIG_FILE_BYTES = 6L * 1024 * 1024;
  static final long MAX_FILE_BYTES = 5L * 1024 * 1024;
  /** Chunk limit used with this corpus: above long-line.txt's 250 chunks, below many.md's 400. */
  static final int MAX_CHUNKS = 300;
  static final String PERMISSION_DENIED = "unreadable.md";

  private BadInputCorpus() {}

  /** The YAML config the corpus is meant to be ingested with. */
  static String config() {
    // OCR off: the outcome must not depend on whether Tesseract is installed
    return "ingest:\n  maxFileBytes: " + MAX_FILE_BYTES + "\n  maxChunksPerDocument: "
        + MAX_CHUNKS + "\n  ocr: off\n";
  }

  /**
   * Writes the corpus; {@code withUnreadable} adds a file without read permission (useless when
   * running as root, who reads it anyway).
   */
  static void write(Path root, boolean withUnreadable) throws IOException {
    Files.createDirectories(root);
    text(root, "good.md", "# 年假\n\n年假每年十天。\n", StandardCharsets.UTF_8);
    Files.write(root.resolve("empty.md"), new byte[0]);
    byte[] binary = new byte[4096];
    new Random(42).nextBytes(binary);
    binary[0] = 0;
    Files.write(root.resolve("binary.md"), binary);
    Files.write(root.resolve("binary.txt"), binary);
    byte[] pdf = textPdf();
    Files.write(root.resolve("truncated.pdf"), Arrays.copyOf(pdf, pdf.length / 2));
    Files.write(root.resolve("encrypted.pdf"), encryptedPdf());
    Files.write(root.resolve("image-only.pdf"), imageOnlyPdf());
    ByteArrayOutputStream bad = new ByteArrayOutputStream();
    bad.writeBytes("报销需附发票。".getBytes(StandardCharsets.UTF_8));
    bad.writeBytes(new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF, (byte) 0xFE});
    bad.writeBytes("加班需主管审批。\n".getBytes(StandardCharsets.UTF_8));
    Files.write(root.resolve("invalid-utf8.txt"), bad.toByteArray());
    text(root, "gbk.txt", "出差需提前申请，交通费按标准报销。\n", Charset.forName("GBK"));
    text(root, "utf16.txt", "病假需提供医院证明。\n", StandardCharsets.UTF_16);
    try (Writer w = Files.newBufferedWriter(root.resolve("big.txt"))) {
      String line = "this line repeats to make the file big\n";
      for (long n = 0; n < BIG_FILE_BYTES; n += line.length()) {
        w.write(line);
      }
    }
    text(root, "long-line.txt", "长".repeat(100_000), StandardCharsets.UTF_8);
    text(root, "nested.md", "> ".repeat(5_000) + "深层嵌套。\n\n" + nestedList(100),
        StandardCharsets.UTF_8);
    StringBuilder many = new StringBuilder("# 很多章节\n\n");
    for (int i = 0; i < 400; i++) {
      many.append("## 第").append(i).append("节\n\n内容").append(i).append("。\n\n");
    }
    text(root, "many.md", many.toString(), StandardCharsets.UTF_8);
    Files.createDirectories(root.resolve("loop"));
    Files.createSymbolicLink(root.resolve("loop/self"), Path.of(".."));
    text(root, "资料 目录/员工 手册.md", "# 员工手册\n\n试用期三个月。\n", StandardCharsets.UTF_8);
    Files.write(root.resolve("photo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G'});
    // issue 11: hostile office files and images
    Files.createDirectories(root.resolve("office"));
    try {
      org.openbook.document.office.OfficeSamples.truncatedDocx(
          root.resolve("office/truncated.docx"), 0.6);
      org.openbook.document.office.OfficeSamples.zipBombXlsx(root.resolve("office/bomb.xlsx"), 64);
      org.openbook.document.office.OfficeSamples.encryptedXlsx(root.resolve("office/locked.xlsx"));
      org.openbook.document.office.OfficeSamples.picturesOnlyPptx(
          root.resolve("office/pictures.pptx"));
      org.openbook.document.office.OfficeSamples.fullXls(root.resolve("office/full.xls"));
      org.openbook.document.office.OfficeSamples.corruptTiff(root.resolve("office/corrupt.tif"),
          200);
      org.openbook.document.office.OfficeSamples.workbook(root.resolve("office/stores.xlsx"), 20,
          true, true);
      javax.imageio.ImageIO.write(org.openbook.document.office.OfficeSamples.textImage(
          "SCAN", 200, 80), "png", root.resolve("office/scan.png").toFile());
      org.openbook.document.office.OpenDocumentSamples.truncatedOdt(
          root.resolve("office/truncated.odt"), 0.6);
      org.openbook.document.office.OpenDocumentSamples.corruptRtf(
          root.resolve("office/corrupt.rtf"));
    } catch (IOException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException(e);
    }
    if (withUnreadable) {
      Path p = text(root, PERMISSION_DENIED, "# 秘密\n\n看不到。\n", StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("---------"));
    }
  }

  private static String nestedList(int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      b.append("  ".repeat(i)).append("- 第").append(i).append("层\n");
    }
    return b.toString();
  }

  private static Path text(Path root, String name, String content, Charset cs)
      throws IOException {
    Path p = root.resolve(name);
    Files.createDirectories(p.getParent());
    Files.write(p, content.getBytes(cs));
    return p;
  }

  private static byte[] textPdf() throws IOException {
    try (PDDocument doc = new PDDocument()) {
      page(doc, "Travel must be approved in advance.");
      return save(doc);
    }
  }

  private static byte[] encryptedPdf() throws IOException {
    try (PDDocument doc = new PDDocument()) {
      page(doc, "Salary bands are confidential.");
      StandardProtectionPolicy policy =
          new StandardProtectionPolicy("owner-secret", "user-secret", new AccessPermission());
      policy.setEncryptionKeyLength(128);
      doc.protect(policy);
      return save(doc);
    }
  }

  private static byte[] imageOnlyPdf() throws IOException {
    try (PDDocument doc = new PDDocument()) {
      PDPage page = new PDPage();
      doc.addPage(page);
      BufferedImage img = new BufferedImage(200, 100, BufferedImage.TYPE_INT_RGB);
      img.getGraphics().drawString("scanned text", 10, 50);
      PDImageXObject x = LosslessFactory.createFromImage(doc, img);
      try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
        cs.drawImage(x, 72, 600);
      }
      return save(doc);
    }
  }

  private static void page(PDDocument doc, String text) throws IOException {
    PDPage page = new PDPage();
    doc.addPage(page);
    try (PDPageContentStream cs = new PDPageContentStream(doc, page)) {
      cs.beginText();
      cs.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
      cs.newLineAtOffset(72, 700);
      cs.showText(text);
      cs.endText();
    }
  }

  private static byte[] save(PDDocument doc) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    doc.save(out);
    return out.toByteArray();
  }
}
