package org.openbook.document;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.SourceSpan;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

/**
 * Loads Markdown ({@code .md}, {@code .markdown}) with commonmark-java and GFM tables.
 *
 * <p>{@link Document#text()} is the UTF-8 file content without a BOM; YAML front matter stays in
 * the text but belongs to no section. Every top-level block becomes one {@link Section} whose
 * span comes from commonmark's source spans ({@link SourceSpan#getInputIndex()}, which counts
 * {@code \r\n} correctly):
 *
 * <ul>
 *   <li>paragraphs, block quotes, HTML blocks and VuePress {@code :::} containers → PARAGRAPH
 *       (container marker lines are trimmed off; pure HTML comments are skipped);
 *   <li>a whole top-level bullet or ordered list → one LIST section (the chunker cuts between
 *       items; one section per list keeps an item's context, such as the lead-in items, together
 *       when the list is short);
 *   <li>fenced and indented code → CODE, spanning the fence lines and their indentation so the
 *       code is byte-for-byte the file's;
 *   <li>GFM tables → TABLE.
 * </ul>
 *
 * <p>ATX and setext headings form the heading path. A {@code #} line inside a code fence is code,
 * not a heading, because commonmark parses fences before headings (bug case R07). A trailing
 * {@code {#anchor}} (VuePress/VitePress custom id) is removed from heading text.
 *
 * <p>Title: front-matter {@code title}, else the first level-1 heading, else the file name
 * without extension. Front-matter keys are lower-cased and {@code dept} is trimmed and
 * lower-cased ({@code Dept: Finance} → {@code dept=finance}); without front matter {@code dept}
 * is {@value Document#PUBLIC}. Front matter that opens but cannot be read is a
 * {@link LoadException.Reason#BAD_METADATA} error, never a public document (see
 * {@link FrontMatter}).
 */
public final class MarkdownLoader implements DocumentLoader {

  private static final Pattern ANCHOR_SUFFIX = Pattern.compile("\\s*\\{#[^}]*}\\s*$");
  private static final Pattern CONTAINER_MARKER = Pattern.compile("[ \\t]*:::.*");
  private static final Pattern HTML_COMMENT = Pattern.compile("(?s)\\s*<!--.*?-->\\s*");

  private final Parser parser =
      Parser.builder()
          .extensions(List.of(TablesExtension.create()))
          .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES)
          .build();

  @Override
  public Set<String> extensions() {
    return Set.of("md", "markdown");
  }

  /** The front matter's {@code dept} only, decoded as {@link #load} decodes. */
  @Override
  public String declaredDepartment(Path file, String source) throws IOException, LoadException {
    Charsets.Decoded decoded = Charsets.decode(RawFile.read(file).bytes(), source);
    return FrontMatter.parse(Charsets.stripBom(decoded.text()), source).meta()
        .getOrDefault(Document.DEPT, Document.PUBLIC);
  }

  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    // Same detection as .txt: a GBK Markdown file is read correctly, a binary one is refused.
    Charsets.Decoded decoded = Charsets.decode(raw.bytes(), source);
    LoadResult result = parse(Charsets.stripBom(decoded.text()), source, RawFile.baseName(file),
        raw.sha256());
    if (decoded.warning().isEmpty()) {
      return result;
    }
    List<String> warnings = new ArrayList<>(result.warnings());
    warnings.add(decoded.warning());
    return new LoadResult(result.document(), warnings);
  }

  /**
   * Parses Markdown already decoded to {@code text}.
   *
   * @param fallbackTitle title used when neither front matter nor a level-1 heading gives one
   * @throws LoadException EMPTY when no block has indexable text; BAD_METADATA when the text
   *     opens with a {@code ---} line but its front matter cannot be read (see
   *     {@link FrontMatter})
   */
  public LoadResult parse(String text, String source, String fallbackTitle, String contentHash)
      throws LoadException {
    FrontMatter fm = FrontMatter.parse(text, source);
    // Blank the front matter out (same length, newlines kept) so commonmark neither sees a
    // thematic break / setext heading there nor shifts any offset.
    String body = blankOut(text, fm.end());
    Node root = parser.parse(body);

    List<Section> sections = new ArrayList<>();
    List<Heading> headingStack = new ArrayList<>();
    List<String> path = new ArrayList<>();
    String firstH1 = null;
    for (Node n = root.getFirstChild(); n != null; n = n.getNext()) {
      if (n instanceof Heading h) {
        String title = headingText(h);
        if (firstH1 == null && h.getLevel() == 1 && !title.isEmpty()) {
          firstH1 = title;
        }
        while (!headingStack.isEmpty()
            && headingStack.get(headingStack.size() - 1).getLevel() >= h.getLevel()) {
          headingStack.remove(headingStack.size() - 1);
          path.remove(path.size() - 1);
        }
        if (!title.isEmpty()) {
          headingStack.add(h);
          path.add(title);
        }
        continue;
      }
      Section.Kind kind = kindOf(n);
      int[] span = kind == null ? null : span(text, n, kind);
      if (span != null) {
        sections.add(new Section(kind, path, span[0], span[1]));
      }
    }
    if (sections.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text outside front matter");
    }
    Map<String, String> meta = new LinkedHashMap<>(fm.meta());
    meta.putIfAbsent(Document.DEPT, Document.PUBLIC);
    String title = nonBlank(meta.get("title"), nonBlank(firstH1, fallbackTitle));
    Document doc = new Document(source, source, title, text, sections, List.of(), meta, contentHash);
    return new LoadResult(doc, List.of());
  }

  private static Section.Kind kindOf(Node n) {
    if (n instanceof Paragraph || n instanceof BlockQuote || n instanceof HtmlBlock) {
      return Section.Kind.PARAGRAPH;
    }
    if (n instanceof BulletList || n instanceof OrderedList) {
      return Section.Kind.LIST;
    }
    if (n instanceof FencedCodeBlock || n instanceof IndentedCodeBlock) {
      return Section.Kind.CODE;
    }
    if (n instanceof TableBlock) {
      return Section.Kind.TABLE;
    }
    return null; // thematic breaks, link reference definitions
  }

  /** The block's {@code [start, end)} in {@code text}, or null when it has nothing to index. */
  private static int[] span(String text, Node n, Section.Kind kind) {
    List<SourceSpan> spans = n.getSourceSpans();
    if (spans.isEmpty()) {
      return null;
    }
    SourceSpan last = spans.get(spans.size() - 1);
    int start = spans.get(0).getInputIndex();
    int end = last.getInputIndex() + last.getLength();
    if (kind == Section.Kind.CODE) {
      // keep the code exact: include indentation before the fence, drop only trailing blanks
      while (start > 0 && (text.charAt(start - 1) == ' ' || text.charAt(start - 1) == '\t')) {
        start--;
      }
      while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
        end--;
      }
      return end > start && !text.substring(start, end).isBlank() ? new int[] {start, end} : null;
    }
    if (n instanceof HtmlBlock && HTML_COMMENT.matcher(text.substring(start, end)).matches()) {
      return null;
    }
    if (n instanceof Paragraph) {
      int[] inner = stripContainerMarkers(text, start, end);
      if (inner == null) {
        return null;
      }
      start = inner[0];
      end = inner[1];
    }
    return TextBlocks.trim(text, start, end);
  }

  /** Drops leading/trailing {@code :::} marker lines (VuePress/VitePress custom containers). */
  private static int[] stripContainerMarkers(String text, int start, int end) {
    while (start < end) {
      int nl = text.indexOf('\n', start);
      int lineEnd = nl < 0 || nl >= end ? end : nl;
      if (!CONTAINER_MARKER.matcher(text.substring(start, lineEnd).stripTrailing()).matches()) {
        break;
      }
      start = Math.min(end, lineEnd + 1);
    }
    while (end > start) {
      int lineStart = text.lastIndexOf('\n', end - 1) + 1;
      if (lineStart < start
          || !CONTAINER_MARKER.matcher(text.substring(lineStart, end).stripTrailing()).matches()) {
        break;
      }
      end = lineStart;
    }
    return TextBlocks.trim(text, start, end);
  }

  /** Plain text of a heading (text and code spans), without a {@code {#anchor}} suffix. */
  static String headingText(Heading h) {
    StringBuilder sb = new StringBuilder();
    appendPlain(h, sb);
    return ANCHOR_SUFFIX.matcher(sb.toString().strip()).replaceAll("").strip();
  }

  private static void appendPlain(Node node, StringBuilder sb) {
    for (Node c = node.getFirstChild(); c != null; c = c.getNext()) {
      if (c instanceof Text t) {
        sb.append(t.getLiteral());
      } else if (c instanceof Code code) {
        sb.append(code.getLiteral());
      } else if (c instanceof SoftLineBreak || c instanceof HardLineBreak) {
        sb.append(' ');
      } else {
        appendPlain(c, sb);
      }
    }
  }

  private static String blankOut(String text, int end) {
    if (end == 0) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text);
    for (int i = 0; i < end; i++) {
      char c = sb.charAt(i);
      if (c != '\n' && c != '\r') {
        sb.setCharAt(i, ' ');
      }
    }
    return sb.toString();
  }

  private static String nonBlank(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value.strip();
  }
}
