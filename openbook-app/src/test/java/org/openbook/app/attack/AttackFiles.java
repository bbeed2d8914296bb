package org.openbook.app.attack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/** Hand-made office files for the attacks: minimal .docx and .odt packages around given XML. */
final class AttackFiles {
  private AttackFiles() {}

  static final String W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

  /** A zip of {@code entries} (name → text, UTF-8), each deflated; {@code mimetype} stored. */
  static byte[] zip(Map<String, String> entries) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Map.Entry<String, String> e : entries.entrySet()) {
        byte[] data = e.getValue().getBytes(StandardCharsets.UTF_8);
        ZipEntry z = new ZipEntry(e.getKey());
        if (e.getKey().equals("mimetype")) {
          z.setMethod(ZipEntry.STORED);
          z.setSize(data.length);
          CRC32 crc = new CRC32();
          crc.update(data);
          z.setCrc(crc.getValue());
        }
        zip.putNextEntry(z);
        zip.write(data);
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }

  /**
   * A .docx whose {@code word/document.xml} is {@code prolog} (e.g. a DOCTYPE) followed by one
   * paragraph per {@code paragraphs} item (raw XML text content, entities allowed).
   */
  static byte[] docx(String prolog, String... paragraphs) throws IOException {
    StringBuilder body = new StringBuilder();
    for (String p : paragraphs) {
      body.append("<w:p><w:r><w:t>").append(p).append("</w:t></w:r></w:p>");
    }
    Map<String, String> e = new LinkedHashMap<>();
    e.put("[Content_Types].xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
        + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
        + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
        + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
        + "<Override PartName=\"/word/document.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/>"
        + "</Types>");
    e.put("_rels/.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
        + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/>"
        + "</Relationships>");
    e.put("word/document.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"
        + prolog + "<w:document xmlns:w=\"" + W + "\"><w:body>" + body
        + "</w:body></w:document>");
    return zip(e);
  }

  /** An .odt whose {@code content.xml} is {@code prolog} followed by the paragraphs. */
  static byte[] odt(String prolog, String... paragraphs) throws IOException {
    return zip(odtEntries(prolog, odtBody(paragraphs)));
  }

  static String odtBody(String... paragraphs) {
    StringBuilder body = new StringBuilder();
    for (String p : paragraphs) {
      body.append("<text:p>").append(p).append("</text:p>");
    }
    return body.toString();
  }

  static Map<String, String> odtEntries(String prolog, String body) {
    Map<String, String> e = new LinkedHashMap<>();
    e.put("mimetype", "application/vnd.oasis.opendocument.text");
    e.put("META-INF/manifest.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
        + "<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\""
        + " manifest:version=\"1.3\"><manifest:file-entry manifest:full-path=\"/\""
        + " manifest:media-type=\"application/vnd.oasis.opendocument.text\"/>"
        + "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
        + "</manifest:manifest>");
    e.put("content.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + prolog
        + "<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\""
        + " xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.3\">"
        + "<office:body><office:text>" + body + "</office:text></office:body>"
        + "</office:document-content>");
    return e;
  }

  /** A DOCTYPE for root {@code root} with the billion-laughs entities {@code lol1..lol9}. */
  static String billionLaughs(String root) {
    StringBuilder d = new StringBuilder("<!DOCTYPE " + root + " [<!ENTITY lol \"lol\">");
    d.append("<!ENTITY lol1 \"").append("&lol;".repeat(10)).append("\">");
    for (int i = 2; i <= 9; i++) {
      d.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i - 1) + ";").repeat(10))
          .append("\">");
    }
    return d.append("]>").toString();
  }
}
