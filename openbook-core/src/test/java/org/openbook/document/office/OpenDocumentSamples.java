package org.openbook.document.office;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * OpenDocument and RTF files built in code for tests and the generated bad-input corpus: a text
 * document with headings, lists, a footnote and a long table; a spreadsheet with a title row,
 * repeated (blank) rows, a hidden row and a hidden sheet; a presentation with titles, a table and
 * speaker notes; and hostile ones (truncated, password-protected, zip bomb, not RTF at all).
 * Written as the zip of XML parts ODF 1.3 defines (mimetype first, stored), with the JDK's DOM.
 */
public final class OpenDocumentSamples {

  private static final Map<String, String> NS = Map.of(
      "text", OdfXml.TEXT, "table", OdfXml.TABLE, "style", OdfXml.STYLE, "draw", OdfXml.DRAW,
      "office", OdfXml.OFFICE, "presentation", OdfXml.PRESENTATION, "dc", OdfXml.DC,
      "svg", "urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0");

  private OpenDocumentSamples() {}

  /**
   * An .odt: Title "员工手册"; Heading 1 "门店管理" › Heading 2 "门店目录" with the store table
   * ({@link OfficeSamples#storeRows}, header in {@code table:table-header-rows}); Heading 2
   * "开店流程" with a numbered list (a bulleted sub-list) and a paragraph with footnote 1.
   */
  public static void odt(Path out, int n) throws Exception {
    Odf odf = new Odf("text");
    {
      Element root = odf.body;
      Element styles = odf.styles;
      Element ls = el(styles, "text:list-style", "style:name", "L1");
      el(ls, "text:list-level-style-number", "text:level", "1", "style:num-format", "1");
      el(ls, "text:list-level-style-bullet", "text:level", "2", "text:bullet-char", "•");
      text(el(root, "text:p", "text:style-name", "Title"), "员工手册");
      text(el(root, "text:h", "text:outline-level", "1"), "门店管理");
      text(el(root, "text:p"), "本手册说明门店的日常管理。");
      text(el(root, "text:h", "text:outline-level", "2"), "门店目录");
      table(el(root, "table:table", "table:name", "门店"), OfficeSamples.storeRows(n));
      text(el(root, "text:h", "text:outline-level", "2"), "开店流程");
      Element list = el(root, "text:list", "text:style-name", "L1");
      text(el(el(list, "text:list-item"), "text:p"), "检查消防通道");
      Element second = el(list, "text:list-item");
      text(el(second, "text:p"), "打开收银系统");
      Element sub = el(second, "text:list");
      text(el(el(sub, "text:list-item"), "text:p"), "登录工号");
      text(el(el(sub, "text:list-item"), "text:p"), "核对备用金");
      text(el(el(list, "text:list-item"), "text:p"), "开门迎客");
      Element p = el(root, "text:p");
      text(p, "营业时间以当地规定为准");
      Element note = el(p, "text:note", "text:id", "ftn1", "text:note-class", "footnote");
      text(el(note, "text:note-citation"), "1");
      text(el(el(note, "text:note-body"), "text:p"), "节假日另行通知。");
      text(p, "。");
      // a page header and footer, printed on every page, stored once per master page
      Element page = el(odf.masterStyles, "style:master-page", "style:name", "Standard");
      text(el(el(page, "style:header"), "text:p"), "澜岳智联 内部资料");
      text(el(el(page, "style:footer"), "text:p"), "员工手册 2025 版");
    }
    Files.write(out, odf.zip("text"));
  }

  /**
   * An .ods with sheet "门店" — row 1 a title merged over 4 columns, row 2 the header (in
   * {@code table:table-header-rows}), rows 3.. the stores, three blank rows repeated after the
   * fifth store (so later stores sit 3 rows lower), store 2 on a hidden row, a price column of
   * currency cells shown as {@code ¥2,599.00} — and a hidden sheet "内部成本".
   */
  public static void ods(Path out, int n) throws Exception {
    Odf odf = new Odf("spreadsheet");
    {
      Element root = odf.body;
      Element styles = odf.styles;
      Element hiddenStyle = el(styles, "style:style", "style:name", "taHidden",
          "style:family", "table");
      el(hiddenStyle, "style:table-properties", "table:display", "false");
      Element sheet = el(root, "table:table", "table:name", "门店");
      el(sheet, "table:table-column", "table:number-columns-repeated", "5");
      Element titleRow = el(sheet, "table:table-row");
      text(el(el(titleRow, "table:table-cell", "table:number-columns-spanned", "4",
          "office:value-type", "string"), "text:p"), "2025 门店名录");
      el(titleRow, "table:covered-table-cell", "table:number-columns-repeated", "3");
      Element headerRows = el(sheet, "table:table-header-rows");
      List<List<String>> rows = OfficeSamples.storeRows(n);
      row(el(headerRows, "table:table-row"), rows.get(0), "加盟费");
      for (int i = 1; i < rows.size(); i++) {
        Element r = el(sheet, "table:table-row");
        if (i == 2) {
          r.setAttributeNS(OdfXml.TABLE, "table:visibility", "collapse");
        }
        row(r, rows.get(i), null);
        Element price = el(r, "table:table-cell", "office:value-type", "currency",
            "office:currency", "CNY", "office:value", String.valueOf(2599 + i));
        text(el(price, "text:p"), String.format("¥%,d.00", 2599 + i));
        if (i == 5) {
          el(el(sheet, "table:table-row", "table:number-rows-repeated", "3"), "table:table-cell",
              "table:number-columns-repeated", "5");
        }
      }
      // as LibreOffice saves it: the rest of the sheet as one repeated blank row
      el(el(sheet, "table:table-row", "table:number-rows-repeated", "1048000"),
          "table:table-cell", "table:number-columns-repeated", "1024");
      Element hidden = el(root, "table:table", "table:name", "内部成本",
          "table:style-name", "taHidden");
      row(el(hidden, "table:table-row"), List.of("型号", "成本价"), null);
      row(el(hidden, "table:table-row"), List.of("ZQ-7781", "1,234.00"), null);
    }
    Files.write(out, odf.zip("spreadsheet"));
  }

  /**
   * An .odp of 3 slides: "公司介绍" (a text box), "入职安排" (a table and speaker notes holding
   * "80 分及格"), and an untitled slide with a bulleted list.
   */
  public static void odp(Path out) throws Exception {
    Odf odf = new Odf("presentation");
    {
      Element root = odf.body;
      Element s1 = el(root, "draw:page", "draw:name", "page1");
      titleFrame(s1, "公司介绍");
      text(el(el(el(s1, "draw:frame", "presentation:class", "outline"), "draw:text-box"),
          "text:p"), "公司成立于 2003 年，总部位于常州。");
      el(s1, "draw:frame", "presentation:class", "page-number");
      Element s2 = el(root, "draw:page", "draw:name", "page2");
      titleFrame(s2, "入职安排");
      table(el(el(s2, "draw:frame"), "table:table"),
          List.of(List.of("时间", "上午", "下午"), List.of("周一", "报到", "参观常州武进工厂")));
      Element notes = el(s2, "presentation:notes");
      el(notes, "draw:page-thumbnail", "presentation:class", "page");
      // LibreOffice's notes page carries a page-number placeholder
      text(el(el(el(notes, "draw:frame", "presentation:class", "page-number"), "draw:text-box"),
          "text:p"), "<number>");
      text(el(el(el(notes, "draw:frame", "presentation:class", "notes"), "draw:text-box"),
          "text:p"), "安全考试 80 分及格。");
      Element s3 = el(root, "draw:page", "draw:name", "page3");
      Element list = el(el(el(s3, "draw:frame", "presentation:class", "outline"),
          "draw:text-box"), "text:list");
      text(el(el(list, "text:list-item"), "text:p"), "带好工牌");
      text(el(el(list, "text:list-item"), "text:p"), "准时打卡");
    }
    Files.write(out, odf.zip("presentation"));
  }

  /** {@link #odt} cut to {@code keep} (0..1) of its bytes, as an interrupted copy leaves it. */
  public static void truncatedOdt(Path out, double keep) throws Exception {
    Path whole = Files.createTempFile("whole", ".odt");
    try {
      odt(whole, 20);
      byte[] b = Files.readAllBytes(whole);
      Files.write(out, Arrays.copyOf(b, (int) (b.length * keep)));
    } finally {
      Files.deleteIfExists(whole);
    }
  }

  /**
   * A package as LibreOffice writes a password-protected file: the manifest gives
   * {@code content.xml} encryption data, and its bytes are not XML.
   */
  public static void encryptedOdt(Path out) throws IOException {
    String manifest = """
        <?xml version="1.0" encoding="UTF-8"?>
        <manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" \
        manifest:version="1.3">
         <manifest:file-entry manifest:full-path="/" \
        manifest:media-type="application/vnd.oasis.opendocument.text"/>
         <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" \
        manifest:size="2048">
          <manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="AAAA">
           <manifest:algorithm manifest:algorithm-name="Blowfish CFB" \
        manifest:initialisation-vector="AAAAAAAAAAA="/>
           <manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="16" \
        manifest:iteration-count="1024" manifest:salt="AAAAAAAAAAAAAAAAAAAAAA=="/>
          </manifest:encryption-data>
         </manifest:file-entry>
        </manifest:manifest>
        """;
    byte[] secret = new byte[2048];
    new java.util.Random(7781).nextBytes(secret);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      stored(zip, "mimetype",
          "application/vnd.oasis.opendocument.text".getBytes(StandardCharsets.US_ASCII));
      zip.putNextEntry(new ZipEntry("META-INF/manifest.xml"));
      zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      zip.putNextEntry(new ZipEntry("content.xml"));
      zip.write(secret);
    }
    Files.write(out, bytes.toByteArray());
  }

  /** An .ods whose content.xml inflates {@code mb} MiB of blanks from a few KiB (a zip bomb). */
  public static void zipBombOds(Path out, int mb) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      stored(zip, "mimetype", "application/vnd.oasis.opendocument.spreadsheet"
          .getBytes(StandardCharsets.US_ASCII));
      zip.putNextEntry(new ZipEntry("content.xml"));
      byte[] blank = new byte[1024 * 1024];
      Arrays.fill(blank, (byte) ' ');
      for (int i = 0; i < mb; i++) {
        zip.write(blank);
      }
    }
    Files.write(out, bytes.toByteArray());
  }

  /** A small RTF in GBK (code page 936) with a title, paragraphs and a bulleted list. */
  public static String rtf() {
    return "{\\rtf1\\ansi\\ansicpg936\\deff0{\\fonttbl{\\f0\\fnil\\fcharset134 SimSun;}}\n"
        + "{\\*\\listtable{\\list\\listtemplateid1{\\listlevel\\levelnfc23\\leveltext\\'01\\u8226 ?;}"
        + "\\listid1}}\n{\\*\\listoverridetable{\\listoverride\\listid1\\ls1}}\n"
        + "{\\info{\\title \\'d4\\'b1\\'b9\\'a4\\'ca\\'d6\\'b2\\'e1}}\n"
        + "\\pard \\'d5\\'fe\\'b2\\'df ZQ-7781 \\u21512?\\u21516?\\par\n"
        + "\\pard\\ls1\\ilvl0 {\\listtext \\'95\\tab}\\'bc\\'ec\\'b2\\'e9\\'cf\\'fb\\'b7\\'c0\\par\n"
        + "\\pard\\ls1\\ilvl0 {\\listtext \\'95\\tab}\\'bf\\'aa\\'c3\\'c5\\par\n"
        + "\\pard \\'bd\\'e1\\'ca\\'f8\\par\n}";
  }

  /** A file named .rtf that is not RTF (a PNG header and random bytes): "corrupt". */
  public static void corruptRtf(Path out) throws IOException {
    byte[] b = new byte[512];
    new java.util.Random(11).nextBytes(b);
    System.arraycopy(new byte[] {(byte) 0x89, 'P', 'N', 'G'}, 0, b, 0, 4);
    Files.write(out, b);
  }

  // ---- DOM helpers ----

  private static void stored(ZipOutputStream zip, String name, byte[] data) throws IOException {
    ZipEntry e = new ZipEntry(name);
    e.setMethod(ZipEntry.STORED);
    e.setSize(data.length);
    CRC32 crc = new CRC32();
    crc.update(data);
    e.setCrc(crc.getValue());
    zip.putNextEntry(e);
    zip.write(data);
  }

  private static void titleFrame(Element page, String title) {
    text(el(el(el(page, "draw:frame", "presentation:class", "title"), "draw:text-box"),
        "text:p"), title);
  }

  private static void table(Element table, List<List<String>> rows) {
    int width = rows.get(0).size();
    el(table, "table:table-column", "table:number-columns-repeated", String.valueOf(width));
    row(el(el(table, "table:table-header-rows"), "table:table-row"), rows.get(0), null);
    for (List<String> r : rows.subList(1, rows.size())) {
      row(el(table, "table:table-row"), r, null);
    }
  }

  private static void row(Element row, List<String> cells, String extra) {
    for (String c : cells) {
      text(el(el(row, "table:table-cell", "office:value-type", "string"), "text:p"), c);
    }
    if (extra != null) {
      text(el(el(row, "table:table-cell", "office:value-type", "string"), "text:p"), extra);
    }
  }

  /** One content.xml under construction: its automatic styles and its office body. */
  private static final class Odf {
    final org.w3c.dom.Document dom;
    final Element styles;
    final Element body;
    /** styles.xml: its {@code office:master-styles}, where page headers and footers live. */
    final org.w3c.dom.Document stylesDom;
    final Element masterStyles;

    Odf(String kind) throws Exception {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(true);
      dom = f.newDocumentBuilder().newDocument();
      Element root = dom.createElementNS(OdfXml.OFFICE, "office:document-content");
      for (var ns : NS.entrySet()) {
        root.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:" + ns.getKey(), ns.getValue());
      }
      root.setAttributeNS(OdfXml.OFFICE, "office:version", "1.3");
      dom.appendChild(root);
      styles = el(root, "office:automatic-styles");
      body = el(el(root, "office:body"), "office:" + kind);
      stylesDom = f.newDocumentBuilder().newDocument();
      Element sroot = stylesDom.createElementNS(OdfXml.OFFICE, "office:document-styles");
      for (var ns : NS.entrySet()) {
        sroot.setAttributeNS("http://www.w3.org/2000/xmlns/", "xmlns:" + ns.getKey(),
            ns.getValue());
      }
      stylesDom.appendChild(sroot);
      masterStyles = el(sroot, "office:master-styles");
    }

    private static byte[] serialize(org.w3c.dom.Document d) throws Exception {
      ByteArrayOutputStream xml = new ByteArrayOutputStream();
      var t = TransformerFactory.newInstance().newTransformer();
      t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
      t.transform(new DOMSource(d), new StreamResult(xml));
      return xml.toByteArray();
    }

    byte[] zip(String kind) throws Exception {
      String mime = "application/vnd.oasis.opendocument." + kind;
      String manifest = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\""
          + " manifest:version=\"1.3\"><manifest:file-entry manifest:full-path=\"/\""
          + " manifest:media-type=\"" + mime + "\"/><manifest:file-entry"
          + " manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
          + "</manifest:manifest>";
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
        stored(zip, "mimetype", mime.getBytes(StandardCharsets.US_ASCII));
        zip.putNextEntry(new ZipEntry("content.xml"));
        zip.write(serialize(dom));
        zip.putNextEntry(new ZipEntry("styles.xml"));
        zip.write(serialize(stylesDom));
        zip.putNextEntry(new ZipEntry("META-INF/manifest.xml"));
        zip.write(manifest.getBytes(StandardCharsets.UTF_8));
      }
      return bytes.toByteArray();
    }
  }

  private static Element el(Node parent, String qname, String... attrs) {
    String prefix = qname.substring(0, qname.indexOf(':'));
    Element e = parent.getOwnerDocument().createElementNS(NS.get(prefix), qname);
    for (int i = 0; i < attrs.length; i += 2) {
      String ap = attrs[i].substring(0, attrs[i].indexOf(':'));
      e.setAttributeNS(NS.get(ap), attrs[i], attrs[i + 1]);
    }
    parent.appendChild(e);
    return e;
  }

  private static Element text(Element e, String s) {
    e.appendChild(e.getOwnerDocument().createTextNode(s));
    return e;
  }
}
