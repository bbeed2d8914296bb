package org.openbook.document.office;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Reading helpers over the ODF Toolkit's DOM shared by {@link OdfBodyReader} and
 * {@link OdfSheetReader}: namespaces, child elements, paragraph text (with footnotes and comments
 * taken out) and the named styles of content.xml and styles.xml. Element and attribute names are
 * those of OASIS OpenDocument 1.3, part 3.
 */
final class OdfXml {

  static final String TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0";
  static final String TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0";
  static final String STYLE = "urn:oasis:names:tc:opendocument:xmlns:style:1.0";
  static final String DRAW = "urn:oasis:names:tc:opendocument:xmlns:drawing:1.0";
  static final String OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0";
  static final String PRESENTATION = "urn:oasis:names:tc:opendocument:xmlns:presentation:1.0";
  static final String DC = "http://purl.org/dc/elements/1.1/";

  /** {@code style:style} and {@code text:list-style} elements by family-qualified name. */
  private final Map<String, Element> styles = new HashMap<>();
  /** Page headers and footers of the master pages (styles.xml), in document order. */
  private final List<Element> margins = new ArrayList<>();

  /**
   * Indexes the named styles of content.xml (automatic styles) and styles.xml (common and
   * automatic styles); a content style wins over a styles.xml one of the same name.
   *
   * @param content    root element of content.xml
   * @param stylesRoot root element of styles.xml, or null when the package has none
   */
  OdfXml(Element content, Element stylesRoot) {
    for (Element root : java.util.Arrays.asList(stylesRoot, content)) {
      if (root != null) {
        index(root.getElementsByTagNameNS(STYLE, "style"), true);
        index(root.getElementsByTagNameNS(TEXT, "list-style"), false);
      }
    }
    if (stylesRoot != null) {
      NodeList pages = stylesRoot.getElementsByTagNameNS(STYLE, "master-page");
      for (int i = 0; i < pages.getLength(); i++) {
        for (Element part : children(pages.item(i))) {
          if (STYLE.equals(part.getNamespaceURI()) && (part.getLocalName().startsWith("header")
              || part.getLocalName().startsWith("footer"))) {
            margins.add(part);
          }
        }
      }
    }
  }

  /**
   * The {@code style:header}/{@code style:footer} elements (and their {@code -left}/{@code
   * -first} variants) of every master page: printed on every page, stored once.
   */
  List<Element> margins() {
    return margins;
  }

  private void index(NodeList list, boolean withFamily) {
    for (int i = 0; i < list.getLength(); i++) {
      Element e = (Element) list.item(i);
      String family = withFamily ? attr(e, STYLE, "family") : "list";
      styles.put(family + "/" + attr(e, STYLE, "name"), e);
    }
  }

  /** The style of {@code family} (e.g. {@code paragraph}, {@code table}) named {@code name}. */
  Element style(String family, String name) {
    return name.isEmpty() ? null : styles.get(family + "/" + name);
  }

  /**
   * Heading level of a paragraph style: 1–9 for "Heading n" (or a style derived from it), 0 for
   * "Title", -1 otherwise. ODF writes {@code Heading_20_1} for the display name "Heading 1".
   */
  int headingLevel(String paragraphStyle) {
    String name = paragraphStyle;
    for (int depth = 0; depth < 10 && !name.isEmpty(); depth++) {
      Element s = style("paragraph", name);
      String display = s == null ? "" : attr(s, STYLE, "display-name");
      int level = WordLoader.headingLevel((display.isEmpty() ? name : display)
          .replace("_20_", " "));
      if (level >= 0 || s == null) {
        return level;
      }
      name = attr(s, STYLE, "parent-style-name");
    }
    return -1;
  }

  /** Whether level {@code level} (1-based) of list style {@code name} is numbered. */
  boolean numbered(String name, int level) {
    Element s = style("list", name);
    if (s == null) {
      return false;
    }
    for (Element l : children(s)) {
      if (attr(l, TEXT, "level").equals(String.valueOf(level))) {
        return l.getLocalName().equals("list-level-style-number");
      }
    }
    return false;
  }

  /** Element children of {@code n} in document order. */
  static List<Element> children(Node n) {
    List<Element> out = new ArrayList<>();
    for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c instanceof Element e) {
        out.add(e);
      }
    }
    return out;
  }

  static boolean is(Node n, String ns, String local) {
    return n instanceof Element && ns.equals(n.getNamespaceURI()) && local.equals(n.getLocalName());
  }

  /** The attribute's value, or "" when absent. */
  static String attr(Element e, String ns, String local) {
    String v = e.getAttributeNS(ns, local);
    return v == null ? "" : v;
  }

  /** A positive integer attribute, or {@code dflt} when absent or not a positive number. */
  static int count(Element e, String ns, String local, int dflt) {
    try {
      int v = Integer.parseInt(attr(e, ns, local).strip());
      return v > 0 ? v : dflt;
    } catch (NumberFormatException ex) {
      return dflt;
    }
  }

  /**
   * The text of a paragraph-like element: {@code text:s} as spaces, {@code text:tab} as a tab,
   * {@code text:line-break} as a line break. A footnote leaves its mark {@code [注n]} in place and
   * its body goes to {@code notes} as {@code [注n] body}; a comment goes to {@code notes} as
   * {@code [批注 author] text} — the caller writes them right after the paragraph, so they stay in
   * its section (as the Word loader does).
   */
  static String text(Element e, List<String> notes) {
    StringBuilder sb = new StringBuilder();
    append(e, sb, notes);
    return sb.toString();
  }

  private static void append(Node n, StringBuilder sb, List<String> notes) {
    for (Node c = n.getFirstChild(); c != null; c = c.getNextSibling()) {
      if (c.getNodeType() == Node.TEXT_NODE || c.getNodeType() == Node.CDATA_SECTION_NODE) {
        sb.append(c.getNodeValue());
      } else if (!(c instanceof Element el)) {
        continue;
      } else if (is(el, TEXT, "s")) {
        sb.append(" ".repeat(Math.min(count(el, TEXT, "c", 1), 100)));
      } else if (is(el, TEXT, "tab")) {
        sb.append('\t');
      } else if (is(el, TEXT, "line-break")) {
        sb.append('\n');
      } else if (is(el, TEXT, "note")) {
        String mark = "";
        StringBuilder body = new StringBuilder();
        for (Element part : children(el)) {
          if (is(part, TEXT, "note-citation")) {
            mark = part.getTextContent().strip();
          } else if (is(part, TEXT, "note-body")) {
            append(part, body, notes);
            body.append(' ');
          }
        }
        sb.append("[注").append(mark).append(']');
        notes.add("[注" + mark + "] " + body.toString().strip());
      } else if (is(el, OFFICE, "annotation")) {
        String author = "";
        StringBuilder body = new StringBuilder();
        for (Element part : children(el)) {
          if (is(part, DC, "creator")) {
            author = part.getTextContent().strip();
          } else if (is(part, TEXT, "p") || is(part, TEXT, "list")) {
            append(part, body, notes);
            body.append(' ');
          }
        }
        notes.add("[批注 " + author + "] " + body.toString().strip());
      } else if (is(el, TEXT, "tracked-changes") || is(el, OFFICE, "annotation-end")) {
        continue; // deleted text of tracked changes is not the document's text
      } else if (is(el, TEXT, "p") || is(el, TEXT, "h")) {
        append(el, sb, notes); // paragraphs nested in a cell, frame or text box: one per line
        sb.append('\n');
      } else {
        append(el, sb, notes);
      }
    }
  }
}
