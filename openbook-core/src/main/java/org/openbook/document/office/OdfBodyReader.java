package org.openbook.document.office;

import static org.openbook.document.office.OdfXml.DRAW;
import static org.openbook.document.office.OdfXml.PRESENTATION;
import static org.openbook.document.office.OdfXml.TABLE;
import static org.openbook.document.office.OdfXml.TEXT;
import static org.openbook.document.office.OdfXml.attr;
import static org.openbook.document.office.OdfXml.children;
import static org.openbook.document.office.OdfXml.count;
import static org.openbook.document.office.OdfXml.is;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.Section.Kind;
import org.w3c.dom.Element;

/**
 * Walks the body of an OpenDocument text ({@code office:text}) or presentation
 * ({@code office:presentation}) into a {@link DocumentAssembler}; see {@link OpenDocumentLoader}
 * for the structure it keeps. One instance per document.
 */
final class OdfBodyReader {

  /** Generated indexes repeat headings and entries already indexed where they stand. */
  private static final Set<String> INDEXES = Set.of("table-of-content", "alphabetical-index",
      "illustration-index", "table-index", "object-index", "user-index", "bibliography");
  /** Slide placeholders that repeat on every slide or carry no content. */
  private static final Set<String> SKIPPED_CLASSES =
      Set.of("page-number", "date-time", "footer", "header", "page");
  /** Cells repeated more often than this are written once (only blank filler repeats so much). */
  private static final int MAX_REPEAT = 64;

  private final OdfXml xml;
  private final boolean slides;
  private final DocumentAssembler out;
  private final String[] title;

  /**
   * @param slides whether the document is a presentation (one page per {@code draw:page})
   * @param title  receives the first "Title" paragraph of a text document
   */
  OdfBodyReader(OdfXml xml, boolean slides, DocumentAssembler out, String[] title) {
    this.xml = xml;
    this.slides = slides;
    this.out = out;
    this.title = title;
  }

  /** Reads {@code root}, the {@code office:text} or {@code office:presentation} element. */
  void read(Element root) {
    if (!slides) {
      blocks(root);
      // page headers and footers, printed on every page: indexed once, as the Word loader does
      java.util.Set<String> margins = new java.util.LinkedHashSet<>();
      for (Element m : xml.margins()) {
        margins.add(DocumentAssembler.oneLine(OdfXml.text(m, new ArrayList<>())));
      }
      margins.remove("");
      if (!margins.isEmpty()) {
        out.path(List.of(WordLoader.HEADER_FOOTER));
        out.block(Kind.PARAGRAPH, String.join("\n", margins));
      }
      return;
    }
    int number = 0;
    for (Element page : children(root)) {
      if (is(page, DRAW, "page")) {
        slide(page, ++number);
      }
    }
  }

  private void slide(Element page, int number) {
    out.startPage(number);
    Element titleFrame = firstWithClass(page, "title");
    String t = titleFrame == null ? ""
        : DocumentAssembler.oneLine(OdfXml.text(titleFrame, new ArrayList<>()));
    String heading = t.isEmpty() ? "第 " + number + " 张" : t;
    out.path(List.of(heading));
    out.block(Kind.PARAGRAPH, t);
    shapes(page, titleFrame);
    for (Element notes : children(page)) {
      if (is(notes, PRESENTATION, "notes")) {
        List<String> lines = new ArrayList<>();
        for (Element frame : children(notes)) {
          // the notes text, not the slide thumbnail or the "<number>" page-number placeholder
          if (is(frame, DRAW, "frame")
              && !SKIPPED_CLASSES.contains(attr(frame, PRESENTATION, "class"))) {
            String s = OdfXml.text(frame, new ArrayList<>()).strip();
            if (!s.isEmpty()) {
              lines.add(s);
            }
          }
        }
        if (!lines.isEmpty()) {
          out.path(List.of(heading, SlidesLoader.NOTES));
          out.block(Kind.PARAGRAPH, String.join("\n", lines));
        }
      }
    }
    out.endPage(false);
  }

  private void shapes(Element parent, Element skip) {
    for (Element shape : children(parent)) {
      if (shape == skip || is(shape, PRESENTATION, "notes")
          || SKIPPED_CLASSES.contains(attr(shape, PRESENTATION, "class"))) {
        continue;
      }
      if (is(shape, TABLE, "table")) {
        table(shape);
      } else if (is(shape, DRAW, "text-box")
          || children(shape).stream().anyMatch(c -> TEXT.equals(c.getNamespaceURI()))) {
        blocks(shape); // a text box, or a custom shape holding paragraphs directly
      } else {
        shapes(shape, skip); // frames and groups hold text boxes, tables and shapes
      }
    }
  }

  private static Element firstWithClass(Element e, String cls) {
    for (Element c : children(e)) {
      if (is(c, PRESENTATION, "notes")) {
        continue;
      }
      if (attr(c, PRESENTATION, "class").equals(cls)) {
        return c;
      }
      Element found = firstWithClass(c, cls);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  /** Paragraphs, headings, lists and tables directly under {@code container}. */
  private void blocks(Element container) {
    for (Element el : children(container)) {
      if (TEXT.equals(el.getNamespaceURI()) && INDEXES.contains(el.getLocalName())) {
        continue;
      }
      if (is(el, TEXT, "h") || is(el, TEXT, "p")) {
        List<String> notes = new ArrayList<>();
        String text = OdfXml.text(el, notes).strip();
        int level = is(el, TEXT, "h") ? count(el, TEXT, "outline-level", 1)
            : xml.headingLevel(attr(el, TEXT, "style-name"));
        if (slides || level < 0 || text.isEmpty()) {
          out.block(Kind.PARAGRAPH, text);
        } else if (level == 0) {
          if (title[0] == null) {
            title[0] = DocumentAssembler.oneLine(text);
          }
          out.block(Kind.PARAGRAPH, text);
        } else {
          out.heading(Math.min(level, 9), text);
        }
        notes.forEach(n -> out.block(Kind.PARAGRAPH, n));
      } else if (is(el, TEXT, "list")) {
        StringBuilder items = new StringBuilder();
        List<String> notes = new ArrayList<>();
        list(el, 0, "", items, notes);
        out.block(Kind.LIST, items.toString());
        notes.forEach(n -> out.block(Kind.PARAGRAPH, n));
      } else if (is(el, TABLE, "table")) {
        table(el);
      } else {
        blocks(el); // text:section, draw:frame/text-box in text, office:forms …
      }
    }
  }

  private void list(Element list, int depth, String inherited, StringBuilder items,
      List<String> notes) {
    String style = attr(list, TEXT, "style-name");
    String styleName = style.isEmpty() ? inherited : style;
    boolean numbered = xml.numbered(styleName, depth + 1);
    int n = 0;
    for (Element item : children(list)) {
      if (!is(item, TEXT, "list-item") && !is(item, TEXT, "list-header")) {
        continue;
      }
      n += is(item, TEXT, "list-item") ? 1 : 0;
      boolean first = true;
      for (Element part : children(item)) {
        if (is(part, TEXT, "list")) {
          list(part, depth + 1, styleName, items, notes);
        } else if (is(part, TEXT, "p") || is(part, TEXT, "h")) {
          String line = DocumentAssembler.oneLine(OdfXml.text(part, notes));
          if (line.isEmpty()) {
            continue;
          }
          String indent = "  ".repeat(depth);
          String marker = !first ? "  " : numbered ? n + ". " : "• ";
          items.append(items.length() == 0 ? "" : "\n").append(indent).append(marker).append(line);
          first = false;
        }
      }
    }
  }

  /** A table; its {@code table:table-header-rows} (at least the first row) form the header. */
  private void table(Element t) {
    List<List<String>> rows = new ArrayList<>();
    int[] headers = {0};
    rows(t, false, rows, headers);
    out.table(rows, Math.max(1, headers[0]));
  }

  private void rows(Element parent, boolean header, List<List<String>> rows, int[] headers) {
    for (Element el : children(parent)) {
      if (is(el, TABLE, "table-header-rows")) {
        rows(el, true, rows, headers);
      } else if (is(el, TABLE, "table-rows") || is(el, TABLE, "table-row-group")) {
        rows(el, header, rows, headers);
      } else if (is(el, TABLE, "table-row")) {
        List<String> cells = new ArrayList<>();
        for (Element cell : children(el)) {
          boolean covered = is(cell, TABLE, "covered-table-cell");
          if (covered || is(cell, TABLE, "table-cell")) {
            String text = covered ? "" : OdfXml.text(cell, new ArrayList<>());
            int repeat = count(cell, TABLE, "number-columns-repeated", 1);
            for (int i = 0; i < Math.min(repeat, MAX_REPEAT); i++) {
              cells.add(text);
            }
          }
        }
        int repeat = Math.min(count(el, TABLE, "number-rows-repeated", 1), MAX_REPEAT);
        for (int i = 0; i < repeat; i++) {
          rows.add(cells);
          headers[0] += header && rows.size() == headers[0] + 1 ? 1 : 0;
        }
      }
    }
  }
}
