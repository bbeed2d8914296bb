package org.openbook.document;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;

/**
 * Loads HTML ({@code .html}, {@code .htm}) with jsoup.
 *
 * <p>The main content is {@code <main>}, else {@code <article>}, else {@code <body>}; scripts,
 * styles, navigation, headers and footers are dropped. {@link Document#text()} is text built from
 * that content, one block per paragraph separated by blank lines, and all section offsets point
 * into it. {@code h1}–{@code h6} form the heading path (their text is in {@code text} but in no
 * section); {@code p}, {@code blockquote} and loose text → PARAGRAPH; top-level {@code ul},
 * {@code ol}, {@code dl} → LIST (one line per item); {@code pre} → CODE (whitespace kept);
 * {@code table} → TABLE (one line per row, cells joined with {@code " | "}).
 *
 * <p>Charset: a BOM or {@code <meta charset>} decides, else UTF-8 (jsoup's rules).
 *
 * <p>Metadata comes from {@code <meta name="..." content="...">} anywhere in the page, names
 * ignoring case: {@code dept} (trimmed and lower-cased, like front matter; {@value
 * Document#PUBLIC} when absent), {@code title}, and {@code keywords} (stored as {@code tags},
 * comma-separated and trimmed, as front-matter lists are). A {@code dept} meta that is blank or
 * given twice with different values is a {@link LoadException.Reason#BAD_METADATA} error, never a
 * public page. Title: meta {@code title}, else the {@code <title>}, else the first {@code h1},
 * else the file name without extension.
 */
public final class HtmlLoader implements DocumentLoader {

  private final LoadLimits limits;

  /**
   * @param limits a file with more tags than {@link LoadLimits#maxXmlNodes()} is TOO_LARGE,
   *               counted on the bytes before jsoup builds its DOM
   */
  public HtmlLoader(LoadLimits limits) {
    this.limits = limits;
  }

  /** {@link LoadLimits#DEFAULTS}. */
  public HtmlLoader() {
    this(LoadLimits.DEFAULTS);
  }

  private static final Set<String> DROPPED =
      Set.of("script", "style", "nav", "header", "footer", "noscript", "template", "iframe",
          "svg", "form", "button");

  @Override
  public Set<String> extensions() {
    return Set.of("html", "htm");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException EMPTY when the main content has no text; BAD_METADATA for a blank or
   *     conflicting {@code <meta name="dept">}
   */
  /** The {@code <meta name="dept">} only (the body is not walked). */
  @Override
  public String declaredDepartment(Path file, String source) throws IOException, LoadException {
    byte[] bytes = RawFile.read(file).bytes();
    requireFewTags(bytes, source);
    org.jsoup.nodes.Document html = Jsoup.parse(new ByteArrayInputStream(bytes), null, "");
    return meta(html, source).get(Document.DEPT);
  }

  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    requireFewTags(raw.bytes(), source);
    org.jsoup.nodes.Document html =
        Jsoup.parse(new ByteArrayInputStream(raw.bytes()), null, "");
    Element root = html.selectFirst("main");
    if (root == null) {
      root = html.selectFirst("article");
    }
    if (root == null) {
      root = html.body();
    }
    Builder b = new Builder();
    b.visitChildren(root);
    b.flushInline();
    if (b.sections.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": no text in the HTML body");
    }
    Map<String, String> meta = meta(html, source);
    String title = meta.containsKey("title") ? meta.get("title")
        : !html.title().isBlank() ? html.title().strip()
        : b.firstH1 != null ? b.firstH1 : RawFile.baseName(file);
    Document doc = new Document(source, source, title, b.text.toString(), b.sections, List.of(),
        meta, raw.sha256());
    return new LoadResult(doc, List.of());
  }

  /**
   * Refuses markup with more tags than {@link LoadLimits#maxXmlNodes()}: {@code <} followed by
   * a letter, an upper bound of the elements jsoup would build (50 MB of {@code <b>} is 12 M).
   */
  private void requireFewTags(byte[] bytes, String source) throws LoadException {
    long tags = 0;
    for (int i = 0; i + 1 < bytes.length; i++) {
      if (bytes[i] == '<' && Character.isLetter(bytes[i + 1] & 0xff)
          && ++tags > limits.maxXmlNodes()) {
        throw LoadLimits.tooLarge(source, "HTML tags", limits.maxXmlNodes(), "tags",
            "ingest.maxXmlNodes");
      }
    }
  }

  /**
   * {@code dept}, {@code title} and {@code tags} from {@code <meta name content>} elements.
   *
   * @throws LoadException BAD_METADATA for a blank {@code dept} or two different ones
   */
  private static Map<String, String> meta(org.jsoup.nodes.Document html, String source)
      throws LoadException {
    Map<String, String> meta = new LinkedHashMap<>();
    for (Element m : html.select("meta[name]")) {
      String name = m.attr("name").strip().toLowerCase(Locale.ROOT);
      String content = m.attr("content").strip();
      if (name.equals(Document.DEPT)) {
        String dept = content.toLowerCase(Locale.ROOT);
        if (dept.isEmpty()) {
          throw new LoadException(LoadException.Reason.BAD_METADATA,
              source + ": <meta name=\"dept\"> has no content");
        }
        String previous = meta.putIfAbsent(Document.DEPT, dept);
        if (previous != null && !previous.equals(dept)) {
          throw new LoadException(LoadException.Reason.BAD_METADATA, source
              + ": <meta name=\"dept\"> given twice: '" + previous + "' and '" + dept + "'");
        }
      } else if (name.equals("title") && !content.isEmpty()) {
        meta.putIfAbsent("title", content);
      } else if (name.equals("keywords") && !content.isEmpty()) {
        meta.putIfAbsent("tags", Arrays.stream(content.split("[,，]")).map(String::strip)
            .filter(t -> !t.isEmpty()).collect(Collectors.joining(",")));
      }
    }
    meta.putIfAbsent(Document.DEPT, Document.PUBLIC);
    return meta;
  }

  /** Walks the DOM once, appending blocks to {@code text} and recording their sections. */
  private static final class Builder {
    final StringBuilder text = new StringBuilder();
    final List<Section> sections = new ArrayList<>();
    final List<String> path = new ArrayList<>();
    final List<Integer> levels = new ArrayList<>();
    final StringBuilder inline = new StringBuilder();
    String firstH1;

    void visitChildren(Element el) {
      for (Node child : el.childNodes()) {
        if (child instanceof TextNode t) {
          inline.append(t.text());
        } else if (child instanceof Element e) {
          visit(e);
        }
      }
    }

    void visit(Element e) {
      String tag = e.normalName();
      if (DROPPED.contains(tag)) {
        return;
      }
      switch (tag) {
        case "h1", "h2", "h3", "h4", "h5", "h6" -> heading(e, tag.charAt(1) - '0');
        case "p", "blockquote", "figcaption" -> block(Section.Kind.PARAGRAPH, inlineText(e));
        case "ul", "ol", "dl" -> block(Section.Kind.LIST, listText(e));
        case "pre" -> block(Section.Kind.CODE, e.wholeText().strip());
        case "table" -> block(Section.Kind.TABLE, tableText(e));
        case "br" -> inline.append('\n');
        default -> {
          if (e.isBlock()) {
            flushInline();
            visitChildren(e);
            flushInline();
          } else {
            inline.append(inlineText(e));
          }
        }
      }
    }

    void heading(Element e, int level) {
      flushInline();
      String title = collapse(e.text());
      if (title.isEmpty()) {
        return;
      }
      if (level == 1 && firstH1 == null) {
        firstH1 = title;
      }
      while (!levels.isEmpty() && levels.get(levels.size() - 1) >= level) {
        levels.remove(levels.size() - 1);
        path.remove(path.size() - 1);
      }
      levels.add(level);
      path.add(title);
      appendBlock(title);
    }

    void block(Section.Kind kind, String content) {
      flushInline();
      int[] span = appendBlock(content);
      if (span != null) {
        sections.add(new Section(kind, path, span[0], span[1]));
      }
    }

    void flushInline() {
      String s = collapse(inline.toString());
      inline.setLength(0);
      if (!s.isEmpty()) {
        block(Section.Kind.PARAGRAPH, s);
      }
    }

    /** Appends a block followed by a blank line; returns its span or null when blank. */
    int[] appendBlock(String content) {
      if (content == null || content.isBlank()) {
        return null;
      }
      if (text.length() > 0) {
        text.append("\n\n");
      }
      int start = text.length();
      text.append(content);
      return new int[] {start, text.length()};
    }

    /** Text of an inline run, keeping {@code <br>} as a line break. */
    static String inlineText(Element e) {
      StringBuilder sb = new StringBuilder();
      appendInline(e, sb);
      return collapse(sb.toString());
    }

    static void appendInline(Node n, StringBuilder sb) {
      for (Node c : n.childNodes()) {
        if (c instanceof TextNode t) {
          sb.append(t.text());
        } else if (c instanceof Element e) {
          if (DROPPED.contains(e.normalName())) {
            continue;
          }
          if (e.normalName().equals("br")) {
            sb.append('\n');
          } else {
            if (e.isBlock()) {
              sb.append(' ');
            }
            appendInline(e, sb);
          }
        }
      }
    }

    static String listText(Element list) {
      StringBuilder sb = new StringBuilder();
      int n = 1;
      boolean ordered = list.normalName().equals("ol");
      for (Element item : list.children()) {
        String line = inlineText(item).replace('\n', ' ');
        if (line.isEmpty()) {
          continue;
        }
        String marker = switch (item.normalName()) {
          case "dt" -> "";
          case "dd" -> "  ";
          default -> ordered ? (n++) + ". " : "- ";
        };
        sb.append(sb.length() == 0 ? "" : "\n").append(marker).append(line);
      }
      return sb.toString();
    }

    static String tableText(Element table) {
      StringBuilder sb = new StringBuilder();
      for (Element row : table.select("tr")) {
        List<String> cells = new ArrayList<>();
        for (Element cell : row.children()) {
          cells.add(inlineText(cell).replace('\n', ' '));
        }
        if (cells.stream().anyMatch(c -> !c.isEmpty())) {
          sb.append(sb.length() == 0 ? "" : "\n").append(String.join(" | ", cells));
        }
      }
      return sb.toString();
    }

    /** Collapses runs of spaces/tabs, trims each line, drops empty lines. */
    static String collapse(String s) {
      StringBuilder out = new StringBuilder();
      for (String line : s.split("\n")) {
        String l = line.replaceAll("[ \\t\\u00A0]+", " ").strip();
        if (!l.isEmpty()) {
          out.append(out.length() == 0 ? "" : "\n").append(l);
        }
      }
      return out.toString();
    }
  }
}
