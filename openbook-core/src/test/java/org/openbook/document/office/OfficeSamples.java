package org.openbook.document.office;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.ImageIO;
import org.apache.poi.hssf.usermodel.HSSFWorkbook;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.sl.usermodel.PictureData;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xslf.usermodel.XMLSlideShow;
import org.apache.poi.xslf.usermodel.XSLFPictureData;
import org.apache.poi.xslf.usermodel.XSLFSlide;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFTable;

/**
 * Office files built in code for tests and the generated bad-input corpus: constructed inputs of
 * the same kind as the fixtures (long tables, hidden sheets) and hostile ones (truncated,
 * password-protected, zip bomb, pictures only, 65,536 rows, corrupt TIFF).
 */
public final class OfficeSamples {

  /** Password of {@link #encryptedXlsx}. */
  public static final String PASSWORD = "secret-7781";

  private OfficeSamples() {}

  /** Rows of the constructed store table: {@code MD-3001 … MD-30nn}, 4 columns. */
  public static List<List<String>> storeRows(int n) {
    List<List<String>> rows = new java.util.ArrayList<>();
    rows.add(List.of("门店编号", "城市", "营业时间", "联系电话"));
    for (int i = 1; i <= n; i++) {
      rows.add(List.of(String.format("MD-%d", 3000 + i), String.format("城市%02d", i),
          "09:00-21:00", String.format("0571-8800-%d", 3000 + i)));
    }
    return rows;
  }

  /** A .docx: Heading 1 "门店目录", Heading 2 "营业时间", then the store table (header repeats). */
  public static void docxWithTable(Path out, int n) throws IOException {
    try (XWPFDocument doc = new XWPFDocument()) {
      addHeadingStyles(doc);
      XWPFParagraph h1 = doc.createParagraph();
      h1.setStyle("Heading1");
      h1.createRun().setText("门店目录");
      XWPFParagraph h2 = doc.createParagraph();
      h2.setStyle("Heading2");
      h2.createRun().setText("营业时间");
      List<List<String>> rows = storeRows(n);
      XWPFTable t = doc.createTable(rows.size(), 4);
      for (int r = 0; r < rows.size(); r++) {
        for (int c = 0; c < 4; c++) {
          t.getRow(r).getCell(c).setText(rows.get(r).get(c));
        }
      }
      t.getRow(0).setRepeatHeader(true);
      try (OutputStream os = Files.newOutputStream(out)) {
        doc.write(os);
      }
    }
  }

  private static void addHeadingStyles(XWPFDocument doc) {
    var styles = doc.createStyles();
    for (int level = 1; level <= 2; level++) {
      var ct = org.openxmlformats.schemas.wordprocessingml.x2006.main.CTStyle.Factory.newInstance();
      ct.setStyleId("Heading" + level);
      ct.addNewName().setVal("heading " + level);
      ct.setType(org.openxmlformats.schemas.wordprocessingml.x2006.main.STStyleType.PARAGRAPH);
      styles.addStyle(new org.apache.poi.xwpf.usermodel.XWPFStyle(ct, styles));
    }
  }

  /**
   * A workbook (xlsx or xls by {@code xlsx}): sheet "门店" with the store table from row 1, a
   * hidden sheet "内部" and, on "门店", hidden row 3 and hidden column D.
   */
  public static void workbook(Path out, int n, boolean xlsx, boolean hideSomething)
      throws IOException {
    try (Workbook wb = xlsx ? new XSSFWorkbook() : new HSSFWorkbook()) {
      Sheet s = wb.createSheet("门店");
      List<List<String>> rows = storeRows(n);
      for (int r = 0; r < rows.size(); r++) {
        Row row = s.createRow(r);
        for (int c = 0; c < 4; c++) {
          row.createCell(c).setCellValue(rows.get(r).get(c));
        }
      }
      if (hideSomething) {
        s.getRow(2).setZeroHeight(true);
        s.setColumnHidden(3, true);
        Sheet hidden = wb.createSheet("内部");
        hidden.createRow(0).createCell(0).setCellValue("采购成本 646");
        wb.setSheetHidden(1, true);
      }
      try (OutputStream os = Files.newOutputStream(out)) {
        wb.write(os);
      }
    }
  }

  /** An .xlsx encrypted with {@link #PASSWORD} (ECMA-376 agile encryption, as Excel does). */
  public static void encryptedXlsx(Path out) throws Exception {
    Path plain = Files.createTempFile("plain", ".xlsx");
    try {
      workbook(plain, 3, true, false);
      try (POIFSFileSystem fs = new POIFSFileSystem()) {
        EncryptionInfo info = new EncryptionInfo(EncryptionMode.agile);
        Encryptor enc = info.getEncryptor();
        enc.confirmPassword(PASSWORD);
        try (OutputStream os = enc.getDataStream(fs)) {
          Files.copy(plain, os);
        }
        try (OutputStream fos = Files.newOutputStream(out)) {
          fs.writeFilesystem(fos);
        }
      }
    } finally {
      Files.deleteIfExists(plain);
    }
  }

  /**
   * A zip bomb named .xlsx: a valid-looking package whose sheet entry inflates {@code mb} MiB of
   * zeros from a few KiB (ratio far below POI's 1 % floor).
   */
  public static void zipBombXlsx(Path out, int mb) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
      zip.putNextEntry(new ZipEntry("[Content_Types].xml"));
      zip.write(("<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/"
          + "package/2006/content-types\"><Default Extension=\"xml\" ContentType="
          + "\"application/xml\"/></Types>").getBytes(java.nio.charset.StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.putNextEntry(new ZipEntry("xl/worksheets/sheet1.xml"));
      byte[] zeros = new byte[1 << 20];
      for (int i = 0; i < mb; i++) {
        zip.write(zeros);
      }
      zip.closeEntry();
    }
  }

  /** The first {@code keep} share of a valid .docx: a file cut off mid-download. */
  public static void truncatedDocx(Path out, double keep) throws IOException {
    Path whole = Files.createTempFile("whole", ".docx");
    try {
      docxWithTable(whole, 30);
      byte[] b = Files.readAllBytes(whole);
      Files.write(out, Arrays.copyOf(b, (int) (b.length * keep)));
    } finally {
      Files.deleteIfExists(whole);
    }
  }

  /** A .pptx of two slides holding only a picture each (no text at all). */
  public static void picturesOnlyPptx(Path out) throws IOException {
    try (XMLSlideShow show = new XMLSlideShow()) {
      BufferedImage img = new BufferedImage(40, 30, BufferedImage.TYPE_INT_RGB);
      ByteArrayOutputStream png = new ByteArrayOutputStream();
      ImageIO.write(img, "png", png);
      XSLFPictureData data = show.addPicture(png.toByteArray(), PictureData.PictureType.PNG);
      for (int i = 0; i < 2; i++) {
        XSLFSlide slide = show.createSlide();
        slide.createPicture(data);
      }
      try (OutputStream os = Files.newOutputStream(out)) {
        show.write(os);
      }
    }
  }

  /** An .xls whose one sheet fills all 65,536 rows Excel 97–2003 allows, 2 columns. */
  public static void fullXls(Path out) throws IOException {
    try (HSSFWorkbook wb = new HSSFWorkbook()) {
      Sheet s = wb.createSheet("data");
      for (int r = 0; r < 65_536; r++) {
        Row row = s.createRow(r);
        row.createCell(0).setCellValue(r == 0 ? "id" : "R" + r);
        row.createCell(1).setCellValue(r == 0 ? "value" : Integer.toString(r * 7));
      }
      try (OutputStream os = Files.newOutputStream(out)) {
        wb.write(os);
      }
    }
  }

  /** A TIFF whose header is valid but whose image data is cut off after {@code keep} bytes. */
  public static void corruptTiff(Path out, int keep) throws IOException {
    BufferedImage img = textImage("CORRUPT TIFF", 400, 100);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    ImageIO.write(img, "tiff", b);
    Files.write(out, Arrays.copyOf(b.toByteArray(), Math.min(keep, b.size())));
  }

  /** A white image with black text lines, large enough for OCR (about 40 px per line). */
  public static BufferedImage textImage(String text, int width, int height) {
    BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_BYTE_GRAY);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, width, height);
    g.setColor(Color.BLACK);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 32));
    int y = 50;
    for (String line : text.split("\n")) {
      g.drawString(line, 20, y);
      y += 48;
    }
    g.dispose();
    return img;
  }
}
