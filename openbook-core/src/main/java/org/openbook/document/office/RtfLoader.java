package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.tika.exception.TikaException;
import org.apache.tika.extractor.EmbeddedDocumentExtractor;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.microsoft.rtf.RTFParser;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.openbook.document.Section.Kind;
import org.xml.sax.Attributes;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Loads Rich Text Format ({@code .rtf}) with Apache Tika's RTF parser, which decodes the code
 * page the file declares ({@code \ansicpg936} GBK, Big5, Shift-JIS …), {@code \}{@code uN}
 * escapes and Word's list tables, and reports the result as XHTML SAX events.
 *
 * <p>The XHTML is assembled like the other word-processor formats: {@code h1}–{@code h6} set the
 * heading path, {@code p} are paragraphs, {@code ul}/{@code ol} become one LIST section
 * ({@code "• "} / {@code "1. "}, nested items indented), tables become Markdown tables with the
 * first row as header. The title is the file's {@code \info\title}, else the file name.
 * Limitation of Tika's RTF parser (3.2): it emits neither headings nor tables — heading styles
 * ({@code \s1} "heading 1", {@code \outlinelevel}) come out as paragraphs and each table cell as a
 * paragraph of its own — so an RTF file is indexed as paragraphs and lists under its title;
 * when a later Tika version emits them, they are kept without change here. Footnotes that
 * LibreOffice writes as {@code \*\footnote} destinations are not in Tika's output. Embedded objects
 * (OLE, pictures) are not parsed. A file cut short (no final {@code }}) is indexed up to the cut
 * with a warning, as Tika reads it without error.
 */
public final class RtfLoader implements DocumentLoader {

  @Override
  public Set<String> extensions() {
    return Set.of("rtf");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException CORRUPT when the file does not start with {@code {\rtf} or Tika cannot
   *     parse it (e.g. truncated: unbalanced groups), EMPTY when it holds no text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    String head = new String(raw.bytes(), 0, Math.min(16, raw.bytes().length),
        StandardCharsets.ISO_8859_1).stripLeading();
    if (head.startsWith("\u00EF\u00BB\u00BF")) { // UTF-8 BOM read as Latin-1
      head = head.substring(3);
    }
    if (!head.startsWith("{\\rtf")) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": not an RTF file (does not start with {\\rtf)");
    }
    DocumentAssembler out = new DocumentAssembler();
    Metadata metadata = new Metadata();
    ParseContext context = new ParseContext();
    context.set(EmbeddedDocumentExtractor.class, NO_EMBEDDED);
    try {
      new RTFParser().parse(new ByteArrayInputStream(raw.bytes()), new XhtmlBlocks(out),
          metadata, context);
    } catch (TikaException | SAXException | RuntimeException e) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": cannot parse RTF file (" + e.getMessage() + ")", e);
    }
    if (out.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text in the RTF file");
    }
    String title = DocumentAssembler.oneLine(metadata.get(TikaCoreProperties.TITLE));
    Document doc = out.build(source, title.isEmpty() ? RawFile.baseName(file) : title,
        Map.of("format", "rtf"), raw.sha256());
    // Tika reads a cut-off file up to the cut without complaint; the outermost group of a whole
    // file is closed by its last '}'
    List<String> warnings = endsWithClosingBrace(raw.bytes()) ? List.of()
        : List.of("does not end with '}': the file looks truncated; its text up to the cut is"
            + " indexed");
    return new LoadResult(doc, warnings);
  }

  private static boolean endsWithClosingBrace(byte[] b) {
    int i = b.length - 1;
    while (i >= 0 && (b[i] == 0 || Character.isWhitespace(b[i]))) {
      i--;
    }
    return i >= 0 && b[i] == '}';
  }

  /** Embedded OLE objects and pictures are skipped, not parsed. */
  private static final EmbeddedDocumentExtractor NO_EMBEDDED = new EmbeddedDocumentExtractor() {
    @Override
    public boolean shouldParseEmbedded(Metadata metadata) {
      return false;
    }

    @Override
    public void parseEmbedded(java.io.InputStream stream, ContentHandler handler,
        Metadata metadata, boolean outputHtml) {
      // never called: shouldParseEmbedded is false
    }
  };

  /**
   * Turns Tika's XHTML body events into assembler blocks: headings, paragraphs, lists (with
   * nesting and numbering) and tables. Text outside {@code body} (the head's title) is ignored.
   */
  static final class XhtmlBlocks extends DefaultHandler {
    private final DocumentAssembler out;
    private final StringBuilder text = new StringBuilder();
    private final StringBuilder items = new StringBuilder();
    /** Per open list: whether numbered, and the count of its items so far. */
    private final List<int[]> lists = new ArrayList<>();
    private List<List<String>> table;
    private List<String> row;
    private boolean inBody;
    private int headingLevel;

    XhtmlBlocks(DocumentAssembler out) {
      this.out = out;
    }

    @Override
    public void startElement(String uri, String local, String qName, Attributes atts) {
      String n = local.isEmpty() ? qName : local;
      switch (n) {
        case "body" -> inBody = true;
        case "h1", "h2", "h3", "h4", "h5", "h6" -> {
          flushText();
          headingLevel = n.charAt(1) - '0';
        }
        case "p", "div" -> {
          if (lists.isEmpty() && table == null) {
            flushText();
          } else if (!text.isEmpty()) {
            text.append(' ');
          }
        }
        case "br" -> text.append('\n');
        case "ul", "ol" -> {
          if (lists.isEmpty()) {
            flushText();
          } else {
            flushItem();
          }
          lists.add(new int[] {n.equals("ol") ? 1 : 0, 0});
        }
        case "li" -> {
          flushItem();
          if (!lists.isEmpty()) {
            lists.get(lists.size() - 1)[1]++;
          }
        }
        case "table" -> {
          flushText();
          table = new ArrayList<>();
        }
        case "tr" -> row = new ArrayList<>();
        case "td", "th" -> text.setLength(0);
        default -> { }
      }
    }

    @Override
    public void endElement(String uri, String local, String qName) {
      String n = local.isEmpty() ? qName : local;
      switch (n) {
        case "h1", "h2", "h3", "h4", "h5", "h6" -> {
          out.heading(headingLevel, text.toString());
          text.setLength(0);
          headingLevel = 0;
        }
        case "p", "div" -> {
          if (lists.isEmpty() && table == null) {
            flushText();
          }
        }
        case "li" -> flushItem();
        case "ul", "ol" -> {
          flushItem();
          if (!lists.isEmpty()) {
            lists.remove(lists.size() - 1);
          }
          if (lists.isEmpty() && !items.isEmpty()) {
            out.block(Kind.LIST, items.toString());
            items.setLength(0);
          }
        }
        case "td", "th" -> {
          if (row != null) {
            row.add(text.toString());
          }
          text.setLength(0);
        }
        case "tr" -> {
          if (table != null && row != null) {
            table.add(row);
          }
          row = null;
        }
        case "table" -> {
          if (table != null) {
            out.table(table, 1);
          }
          table = null;
        }
        case "body" -> {
          flushText();
          inBody = false;
        }
        default -> { }
      }
    }

    @Override
    public void characters(char[] ch, int start, int length) {
      if (inBody) {
        text.append(ch, start, length);
      }
    }

    private void flushItem() {
      String line = DocumentAssembler.oneLine(text.toString());
      text.setLength(0);
      if (line.isEmpty() || lists.isEmpty()) {
        return;
      }
      int[] list = lists.get(lists.size() - 1);
      items.append(items.isEmpty() ? "" : "\n").append("  ".repeat(lists.size() - 1))
          .append(list[0] == 1 ? list[1] + ". " : "• ").append(line);
    }

    private void flushText() {
      if (headingLevel == 0 && table == null) {
        out.block(Kind.PARAGRAPH, text.toString());
        text.setLength(0);
      }
    }
  }
}
