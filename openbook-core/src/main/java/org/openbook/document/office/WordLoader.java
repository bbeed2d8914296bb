package org.openbook.document.office;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.poi.hwpf.HWPFDocument;
import org.apache.poi.hwpf.model.StyleDescription;
import org.apache.poi.hwpf.usermodel.Paragraph;
import org.apache.poi.hwpf.usermodel.Range;
import org.apache.poi.hwpf.usermodel.Table;
import org.apache.poi.hwpf.usermodel.TableCell;
import org.apache.poi.hwpf.usermodel.TableRow;
import org.apache.poi.xwpf.usermodel.IBodyElement;
import org.apache.poi.xwpf.usermodel.XWPFComment;
import org.apache.poi.xwpf.usermodel.XWPFDocument;
import org.apache.poi.xwpf.usermodel.XWPFFootnote;
import org.apache.poi.xwpf.usermodel.XWPFHeaderFooter;
import org.apache.poi.xwpf.usermodel.XWPFParagraph;
import org.apache.poi.xwpf.usermodel.XWPFRun;
import org.apache.poi.xwpf.usermodel.XWPFStyle;
import org.apache.poi.xwpf.usermodel.XWPFTable;
import org.apache.poi.xwpf.usermodel.XWPFTableRow;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.openbook.document.Section;
import org.openbook.document.Section.Kind;

/**
 * Loads Word documents with Apache POI: {@code .docx} (XWPF) and Word 97–2003 {@code .doc}
 * (HWPF).
 *
 * <p>Structure: paragraphs styled {@code Heading 1}…{@code Heading 9} (or with an outline level)
 * form the heading path; the first {@code Title} paragraph is the document title (not part of the
 * path). Consecutive list paragraphs form one LIST section, one item per line with {@code "1. "}
 * for numbered and {@code "• "} for bulleted items (numbers counted per list and level). Tables
 * become TABLE sections in Markdown form; rows marked "repeat as header row" (at least the first)
 * are the header rows the chunker repeats. A footnote or comment is written as its own paragraph
 * ({@code [注1] …}, {@code [批注 author] …}) right after the paragraph that refers to it, so it stays
 * in that paragraph's section. Page headers and footers, which Word stores once per document
 * section but prints on every page, are indexed once, under the path {@code [页眉页脚]}, each
 * distinct text once.
 */
public final class WordLoader implements DocumentLoader {

  /** Heading path of the page header/footer block. */
  static final String HEADER_FOOTER = "页眉页脚";

  private static final Pattern HEADING_STYLE =
      Pattern.compile("(?i)^\\s*(?:heading|标题)\\s*([1-9])\\s*$");
  /** POI's marker of a footnote reference inside run text. */
  private static final Pattern FOOTNOTE_REF = Pattern.compile("\\[footnoteRef:(\\d+)]");
  /** Word field codes in HWPF text: {@code \u0013 instruction \u0014 result \u0015}. */
  private static final Pattern FIELD = Pattern.compile("\\u0013[^\\u0013\\u0014\\u0015]*\\u0014");

  private final LoadLimits limits;

  /** @param limits inflated bytes and XML nodes one file may have */
  public WordLoader(LoadLimits limits) {
    this.limits = limits;
  }

  /** {@link LoadLimits#DEFAULTS}. */
  public WordLoader() {
    this(LoadLimits.DEFAULTS);
  }


  @Override
  public Set<String> extensions() {
    return Set.of("docx", "doc");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException ENCRYPTED for a password-protected file, CORRUPT when POI cannot parse
   *     it (truncated, not really Word), EMPTY when it holds no text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    DocumentAssembler out = new DocumentAssembler();
    String[] title = {null};
    try {
      OfficeFiles.check(raw.bytes(), source, "Word", limits);
      if (OfficeFiles.isOle2(raw.bytes())) {
        readDoc(raw.bytes(), out, title);
      } else {
        readDocx(raw.bytes(), out, title);
      }
    } catch (LoadException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw OfficeFiles.failure(source, "Word", e);
    }
    if (out.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text in the Word file");
    }
    String t = title[0] != null ? title[0] : RawFile.baseName(file);
    Document doc = out.build(source, t, Map.of("format", OfficeFiles.extension(file)),
        raw.sha256());
    return new LoadResult(doc, List.of());
  }

  // ---- .docx ----

  private static void readDocx(byte[] bytes, DocumentAssembler out, String[] title)
      throws IOException {
    try (XWPFDocument doc = new XWPFDocument(new ByteArrayInputStream(bytes))) {
      ListState lists = new ListState();
      for (IBodyElement el : doc.getBodyElements()) {
        if (el instanceof XWPFParagraph p) {
          docxParagraph(doc, p, out, title, lists);
        } else if (el instanceof XWPFTable t) {
          lists.flush(out);
          docxTable(t, out);
        }
      }
      lists.flush(out);
      Set<String> margins = new LinkedHashSet<>();
      for (XWPFHeaderFooter hf : doc.getHeaderList()) {
        margins.add(DocumentAssembler.oneLine(hf.getText()));
      }
      for (XWPFHeaderFooter hf : doc.getFooterList()) {
        margins.add(DocumentAssembler.oneLine(hf.getText()));
      }
      margins.removeIf(String::isEmpty);
      if (!margins.isEmpty()) {
        out.path(List.of(HEADER_FOOTER));
        out.block(Kind.PARAGRAPH, String.join("\n", margins));
      }
    }
  }

  private static void docxParagraph(XWPFDocument doc, XWPFParagraph p, DocumentAssembler out,
      String[] title, ListState lists) {
    // getText() would append the footnote's text in place; the note gets its own block below
    String text = FOOTNOTE_REF.matcher(p.getParagraphText()).replaceAll("[注$1]").strip();
    String style = styleName(doc, p.getStyleID());
    int level = headingLevel(style);
    if (level == 0 && title[0] == null && !text.isEmpty()) {
      lists.flush(out);
      title[0] = DocumentAssembler.oneLine(text);
      out.block(Kind.PARAGRAPH, text);
      return;
    }
    if (level > 0) {
      lists.flush(out);
      out.heading(level, text);
    } else if (p.getNumID() != null && !text.isEmpty()) {
      boolean bullet = "bullet".equalsIgnoreCase(p.getNumFmt());
      int ilvl = p.getNumIlvl() == null ? 0 : p.getNumIlvl().intValue();
      lists.item(p.getNumID(), ilvl, bullet, text);
    } else {
      lists.flush(out);
      out.block(Kind.PARAGRAPH, text);
    }
    List<String> notes = new ArrayList<>();
    for (XWPFRun run : p.getRuns()) {
      for (var ref : run.getCTR().getFootnoteReferenceList()) {
        XWPFFootnote fn = doc.getFootnoteByID(ref.getId().intValue());
        if (fn != null) {
          notes.add("[注" + ref.getId() + "] " + footnoteText(fn));
        }
      }
    }
    for (var start : p.getCTP().getCommentRangeStartList()) {
      XWPFComment c = doc.getCommentByID(start.getId().toString());
      if (c != null) {
        notes.add("[批注 " + (c.getAuthor() == null ? "" : c.getAuthor()) + "] " + c.getText());
      }
    }
    if (!notes.isEmpty()) {
      lists.flush(out);
      for (String n : notes) {
        out.block(Kind.PARAGRAPH, n);
      }
    }
  }

  private static String footnoteText(XWPFFootnote fn) {
    StringBuilder sb = new StringBuilder();
    for (XWPFParagraph fp : fn.getParagraphs()) {
      sb.append(fp.getText().strip()).append(' ');
    }
    return sb.toString().strip();
  }

  private static void docxTable(XWPFTable t, DocumentAssembler out) {
    List<List<String>> rows = new ArrayList<>();
    int headerRows = 0;
    boolean leading = true;
    for (XWPFTableRow row : t.getRows()) {
      List<String> cells = new ArrayList<>();
      row.getTableCells().forEach(c -> cells.add(c.getText()));
      rows.add(cells);
      if (leading && row.isRepeatHeader()) {
        headerRows++;
      } else {
        leading = false;
      }
    }
    out.table(rows, Math.max(1, headerRows));
  }

  private static String styleName(XWPFDocument doc, String styleId) {
    if (styleId == null || doc.getStyles() == null) {
      return "";
    }
    XWPFStyle s = doc.getStyles().getStyle(styleId);
    return s == null || s.getName() == null ? styleId : s.getName();
  }

  /** 1–9 for heading styles, 0 for Title, -1 otherwise. */
  static int headingLevel(String styleName) {
    if (styleName == null) {
      return -1;
    }
    Matcher m = HEADING_STYLE.matcher(styleName);
    if (m.matches()) {
      return Integer.parseInt(m.group(1));
    }
    String s = styleName.strip().toLowerCase(Locale.ROOT);
    return s.equals("title") || s.equals("标题") ? 0 : -1;
  }

  // ---- .doc ----

  private static void readDoc(byte[] bytes, DocumentAssembler out, String[] title)
      throws IOException {
    try (HWPFDocument doc = new HWPFDocument(new ByteArrayInputStream(bytes))) {
      Range range = doc.getRange();
      ListState lists = new ListState();
      int n = range.numParagraphs();
      for (int i = 0; i < n; i++) {
        Paragraph p = range.getParagraph(i);
        if (p.isInTable()) {
          lists.flush(out);
          Table table = range.getTable(p);
          List<List<String>> rows = new ArrayList<>();
          int headerRows = 0;
          boolean leading = true;
          for (int r = 0; r < table.numRows(); r++) {
            TableRow row = table.getRow(r);
            List<String> cells = new ArrayList<>();
            for (int c = 0; c < row.numCells(); c++) {
              TableCell cell = row.getCell(c);
              cells.add(clean(cell.text()));
            }
            rows.add(cells);
            if (leading && row.isTableHeader()) {
              headerRows++;
            } else {
              leading = false;
            }
          }
          out.table(rows, Math.max(1, headerRows));
          i += table.numParagraphs() - 1;
          continue;
        }
        String text = clean(p.text());
        StyleDescription sd = doc.getStyleSheet().getStyleDescription(p.getStyleIndex());
        int level = headingLevel(sd == null ? null : sd.getName());
        if (level < 0 && p.getLvl() >= 0 && p.getLvl() < 9 && !text.isEmpty()
            && text.length() < 80) {
          level = p.getLvl() + 1; // outline level set directly on the paragraph
        }
        if (level == 0 && title[0] == null && !text.isEmpty()) {
          lists.flush(out);
          title[0] = DocumentAssembler.oneLine(text);
          out.block(Kind.PARAGRAPH, text);
        } else if (level > 0) {
          lists.flush(out);
          out.heading(level, text);
        } else if (p.isInList() && !text.isEmpty()) {
          // HWPF does not say whether a list is numbered without reading its list tables; a
          // bullet never claims a wrong number
          lists.item(BigInteger.valueOf(p.getIlfo()), p.getIlvl(), true, text);
        } else {
          lists.flush(out);
          out.block(Kind.PARAGRAPH, text);
        }
      }
      lists.flush(out);
      String notes = clean(doc.getFootnoteRange().text());
      if (!notes.isEmpty()) {
        out.block(Kind.PARAGRAPH, "[注] " + notes);
      }
    }
  }

  /** HWPF text without field instructions, cell/paragraph marks and other control chars. */
  static String clean(String s) {
    String noFields = FIELD.matcher(s).replaceAll("");
    return noFields.replaceAll("[\\u0000-\\u0008\\u000B-\\u001F]", " ")
        .replaceAll("[ \\t]+", " ").strip();
  }

  /** Consecutive list items, written as one LIST section when a non-item block follows. */
  private static final class ListState {
    final StringBuilder items = new StringBuilder();
    final Map<String, Integer> counters = new HashMap<>();

    void item(BigInteger listId, int level, boolean bullet, String text) {
      String key = listId + "/" + level;
      int n = counters.merge(key, 1, Integer::sum);
      // a deeper level restarts when its parent advances
      counters.keySet().removeIf(k -> k.startsWith(listId + "/")
          && Integer.parseInt(k.substring(k.indexOf('/') + 1)) > level);
      String marker = bullet ? "• " : n + ". ";
      items.append(items.length() == 0 ? "" : "\n").append("  ".repeat(Math.max(0, level)))
          .append(marker).append(DocumentAssembler.oneLine(text));
    }

    void flush(DocumentAssembler out) {
      if (items.length() > 0) {
        out.block(Section.Kind.LIST, items.toString());
        items.setLength(0);
      }
    }
  }
}
