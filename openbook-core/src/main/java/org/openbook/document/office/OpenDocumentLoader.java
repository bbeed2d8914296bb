package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.poi.util.XMLHelper;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * Loads OpenDocument files (LibreOffice, WPS, OpenOffice): text {@code .odt}, spreadsheets
 * {@code .ods} and presentations {@code .odp}.
 *
 * <p>An OpenDocument file is a zip of XML parts (OASIS ODF 1.3). The zip is read with POI's
 * guarded reader ({@link OfficeFiles#readZip}: zip-bomb ratio and size limits) and
 * {@code content.xml}/{@code styles.xml} with POI's hardened DOM parser ({@link XMLHelper}: no
 * DTDs, no external entities). Not the ODF Toolkit (odfdom 0.12): it cannot open a file without
 * Apache Jena and java-rdfa on the class path (it parses RDFa metadata on load) and it replaces
 * the JVM-wide XML parser with Xerces 2.12; nor Tika's ODF parser, whose XHTML drops what
 * citations need (sheet names, repeated-row numbers, hidden flags, slide boundaries).
 *
 * <p>The same structure as the Office loaders, so citations read alike across formats:
 * <ul>
 *   <li>{@code .odt} ({@link OdfBodyReader}): {@code text:h} (outline level) and paragraphs
 *       styled "Heading n" form the heading path, the first "Title" paragraph is the title; lists
 *       are LIST sections ({@code "1. "} numbered, {@code "• "} bulleted, by the list style);
 *       tables are Markdown tables whose {@code table:table-header-rows} (at least the first row)
 *       the chunker repeats; footnotes and comments follow the paragraph that holds them
 *       ({@code [注1] …}, {@code [批注 author] …}); page headers and footers (master pages in
 *       styles.xml) are indexed once, under {@code [页眉页脚]}.</li>
 *   <li>{@code .odp} ({@link OdfBodyReader}): one page per slide (1-based), the title frame as
 *       heading, speaker notes under {@code [title, }{@value SlidesLoader#NOTES}{@code ]}.</li>
 *   <li>{@code .ods} ({@link OdfSheetReader}): one part per visible sheet, cells as displayed,
 *       {@code sheet!A12:D30} locations; hidden sheets/rows/columns left out unless
 *       {@code includeHidden}, and reported as warnings.</li>
 * </ul>
 *
 * <p>Hostile input: a zip bomb, or a package over {@link LoadLimits#maxInflatedBytes()} or
 * {@link LoadLimits#maxXmlNodes()}, is TOO_LARGE (checked in one streaming pass before any DOM is
 * built); a password-protected file (the manifest gives
 * {@code content.xml} encryption data) is ENCRYPTED; a truncated zip or malformed XML is CORRUPT.
 */
public final class OpenDocumentLoader implements DocumentLoader {

  private static final String CONTENT = "content.xml";
  private static final String STYLES = "styles.xml";
  private static final String MANIFEST = "META-INF/manifest.xml";
  private static final String MANIFEST_NS = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0";

  private final boolean includeHidden;
  private final LoadLimits limits;

  /**
   * @param includeHidden whether hidden sheets, rows and columns of {@code .ods} files are indexed
   * @param limits        inflated bytes and XML nodes one file may have
   */
  public OpenDocumentLoader(boolean includeHidden, LoadLimits limits) {
    this.includeHidden = includeHidden;
    this.limits = limits;
  }

  /**
   * @param includeHidden whether hidden sheets, rows and columns of {@code .ods} files are indexed
   */
  public OpenDocumentLoader(boolean includeHidden) {
    this(includeHidden, LoadLimits.DEFAULTS);
  }

  /** Hidden sheets, rows and columns left out. */
  public OpenDocumentLoader() {
    this(false);
  }

  @Override
  public Set<String> extensions() {
    return Set.of("odt", "ods", "odp");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException ENCRYPTED for a password-protected file, TOO_LARGE for a zip bomb,
   *     CORRUPT when it is not a whole OpenDocument package, EMPTY when it holds no text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    String ext = OfficeFiles.extension(file);
    Map<String, byte[]> parts = OfficeFiles.readZip(raw.bytes(), source, "OpenDocument",
        Set.of(CONTENT, STYLES, MANIFEST), limits);
    if (!parts.containsKey(CONTENT)) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": OpenDocument package without content.xml");
    }
    DocumentAssembler out = new DocumentAssembler();
    List<String> warnings = new ArrayList<>();
    String[] title = {null};
    try {
      if (parts.containsKey(MANIFEST) && encrypted(parse(parts.get(MANIFEST)))) {
        throw OfficeFiles.encrypted(source, "OpenDocument");
      }
      Element content = parse(parts.get(CONTENT)).getDocumentElement();
      OdfXml xml = new OdfXml(content,
          parts.containsKey(STYLES) ? parse(parts.get(STYLES)).getDocumentElement() : null);
      Element body = OdfXml.children(content).stream()
          .filter(e -> OdfXml.is(e, OdfXml.OFFICE, "body")).findFirst()
          .flatMap(b -> OdfXml.children(b).stream().findFirst())
          .orElseThrow(() -> new LoadException(LoadException.Reason.CORRUPT,
              source + ": content.xml has no office:body"));
      switch (body.getLocalName()) {
        case "spreadsheet" -> new OdfSheetReader(xml, includeHidden, out, warnings).read(body);
        case "presentation", "drawing" -> new OdfBodyReader(xml, true, out, title).read(body);
        default -> new OdfBodyReader(xml, false, out, title).read(body);
      }
    } catch (LoadException e) {
      throw e;
    } catch (SAXException | RuntimeException e) {
      throw OfficeFiles.failure(source, "OpenDocument", e);
    }
    if (out.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text in the "
          + (ext.equals("ods") && !includeHidden ? "visible sheets of the " : "")
          + "OpenDocument file");
    }
    Document doc = out.build(source, title[0] != null ? title[0] : RawFile.baseName(file),
        Map.of("format", ext), raw.sha256());
    return new LoadResult(doc, warnings);
  }

  /** A namespace-aware DOM with POI's hardening (no DTDs, no external entities). */
  private static org.w3c.dom.Document parse(byte[] xml) throws SAXException, IOException {
    return XMLHelper.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
  }

  /** Whether the manifest gives content.xml encryption data (a password-protected file). */
  private static boolean encrypted(org.w3c.dom.Document manifest) {
    NodeList entries = manifest.getElementsByTagNameNS(MANIFEST_NS, "file-entry");
    for (int i = 0; i < entries.getLength(); i++) {
      Element e = (Element) entries.item(i);
      if (e.getAttributeNS(MANIFEST_NS, "full-path").equals(CONTENT)
          && e.getElementsByTagNameNS(MANIFEST_NS, "encryption-data").getLength() > 0) {
        return true;
      }
    }
    return false;
  }
}
