package org.openbook.chunk;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;
import java.util.regex.Pattern;
import org.openbook.document.CellRange;
import org.openbook.document.Document;
import org.openbook.document.PageSpan;
import org.openbook.document.Section;

/**
 * Chunks a {@link Document} by its structure first, then by sentences, and hard-splits only text
 * without any boundary (DESIGN rule 1).
 *
 * <p>The sections are walked in order and grouped into runs of consecutive sections with the same
 * heading path that start on the same page; a chunk never crosses a run, so its heading path and
 * page are right. Inside a run, whole sections are packed greedily; a section over budget is cut
 * on its own: paragraphs by sentences (with whole-sentence overlap, {@link Segmenter}), lists by
 * items and then sentences, code by lines, tables by rows.
 *
 * <p>Tables (bug case T11): a table piece is never cut inside a row, and every piece that holds
 * rows starts with the table's header rows. The first piece holds them in place; every later piece
 * starts with a copy of them (condensed: runs of blanks and dashes shortened) in front of its
 * rows, so a reader and the generator see the column names next to each value. The header rows
 * are the first line, or every line down to a GFM delimiter row ({@code |---|}) among the first
 * {@value #MAX_HEADER_ROWS} lines. The copy counts toward the budget; it is left out only when it
 * alone would take more than half of it, so rows always keep room. A piece holds at most
 * {@link ChunkerSettings#tableRowsPerChunk()} data rows (0 = no limit), see there for why.
 *
 * <p>Each chunk's {@code raw} is {@code text.substring(startOffset, endOffset)}, trimmed of
 * surrounding blank lines and trailing whitespace (first-line indentation is kept for code),
 * preceded only for a table continuation by the header copy, whose length is in chunk meta
 * {@value #TABLE_HEADER_CHARS}; whitespace-only chunks are never produced. {@code embedText} is the
 * contextual prefix ({@code title > heading > …}, duplicates skipped, at most
 * {@code maxPrefixChars}), a line break and {@code raw}.
 *
 * <p>Locations: a chunk over spreadsheet rows ({@link Document#cells()}) gets meta
 * {@value #CELL_RANGE} = the bounding range of the rows it holds at offsets, e.g.
 * {@code 商用设备!A41:G46} (the header copy is not counted); a chunk on a page whose text came
 * from OCR ({@link PageSpan#ocr()}) gets meta {@value #OCR} = {@code true}.
 *
 * <p>Budget: {@code raw} is at most {@code maxChars}; with a token counter, {@code embedText} is
 * also at most {@code maxTokens} by that counter (DESIGN rule 10: the embedding model's input
 * limit), and chunks are cut smaller until it fits. Thread-safe and immutable.
 */
public final class StructuredChunker implements Chunker {

  /** Metadata key of the last page a chunk covers, set only when it differs from the start. */
  public static final String PAGE_END = "page_end";

  /**
   * Metadata key: number of leading chars of {@code raw} that are a copy of the table header
   * rather than document text at the chunk's offsets; absent when there is no copy.
   */
  public static final String TABLE_HEADER_CHARS = "table_header_chars";

  /** Metadata key of the spreadsheet range a chunk holds, e.g. {@code 商用设备!A41:G46}. */
  public static final String CELL_RANGE = "cell_range";

  /** Metadata key set to {@code true} when the chunk's page text came from OCR. */
  public static final String OCR = "ocr";

  /** Most lines above a delimiter row that are taken as the table's header rows. */
  static final int MAX_HEADER_ROWS = 4;

  private static final String SEP = " > ";

  /** GFM table delimiter row, e.g. {@code |---|:--:|}. */
  private static final Pattern TABLE_DELIMITER =
      Pattern.compile("^\\s*\\|?\\s*:?-+:?\\s*(\\|\\s*:?-+:?\\s*)*\\|?\\s*$");

  private final ChunkerSettings settings;
  /** Whether a text fits a token limit in the embedding model; null = characters only. */
  private final TokenFit tokenFit;
  private final int maxTokens;
  private final Segmenter prose;
  private final Segmenter blocks;

  /**
   * Whether {@code text} takes at most {@code limit} tokens in the embedding model, i.e. {@code
   * tokens(text) <= limit}; an implementation may answer from a cheap bound without tokenizing
   * (e.g. {@code DenseRoutes::fitsTokens}). The chunker asks this for every candidate chunk.
   */
  @FunctionalInterface
  public interface TokenFit {
    boolean fits(String text, int limit);
  }

  /** A chunker bounded by characters only. */
  public StructuredChunker(ChunkerSettings settings) {
    this(settings, (TokenFit) null, Integer.MAX_VALUE, false);
  }

  /**
   * A chunker that also keeps every {@code embedText} within {@code maxTokens}.
   *
   * @param settings     character budget, overlap and prefix length
   * @param tokenCounter tokens of a text as the embedding model counts them (e.g. its tokenizer)
   * @param maxTokens    the model's input limit, e.g. 512 for bge-small-zh-v1.5; {@code >= 1}
   * @throws IllegalArgumentException if {@code maxTokens < 1}
   * @throws NullPointerException if an argument is null
   */
  public StructuredChunker(
      ChunkerSettings settings, ToIntFunction<String> tokenCounter, int maxTokens) {
    this(settings, counted(Objects.requireNonNull(tokenCounter, "tokenCounter")), maxTokens,
        true);
  }

  /**
   * A chunker that keeps every {@code embedText} within {@code maxTokens}, asking {@code
   * tokenFit} instead of counting (same chunks as with the counter it stands for).
   *
   * @param tokenFit  whether a text fits a token limit in the embedding model
   * @param maxTokens the model's input limit; {@code >= 1}
   * @throws IllegalArgumentException if {@code maxTokens < 1}
   * @throws NullPointerException if an argument is null
   */
  public StructuredChunker(ChunkerSettings settings, TokenFit tokenFit, int maxTokens) {
    this(settings, Objects.requireNonNull(tokenFit, "tokenFit"), maxTokens, true);
  }

  private static TokenFit counted(ToIntFunction<String> counter) {
    return (text, limit) -> counter.applyAsInt(text) <= limit;
  }

  private StructuredChunker(
      ChunkerSettings settings, TokenFit tokenFit, int maxTokens, boolean check) {
    this.settings = Objects.requireNonNull(settings, "settings");
    if (check && maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
    }
    this.tokenFit = tokenFit;
    this.maxTokens = maxTokens;
    this.prose = new Segmenter(settings.maxChars(), settings.overlapChars());
    this.blocks = new Segmenter(settings.maxChars(), 0);
  }

  @Override
  public ChunkerSettings settings() {
    return settings;
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException naming the document source if a section lies outside the
   *     text or overlaps the previous one, or if the token limit leaves no room for text after the
   *     contextual prefix
   */
  @Override
  public List<Chunk> chunk(Document document) {
    validate(document);
    List<Piece> pieces = new ArrayList<>();
    List<Section> sections = document.sections();
    int i = 0;
    while (i < sections.size()) {
      int j = i + 1;
      while (j < sections.size() && sameRun(document, sections.get(i), sections.get(j))) {
        j++;
      }
      try {
        chunkRun(document, sections.subList(i, j), pieces);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "document " + document.source() + ": " + e.getMessage(), e);
      }
      i = j;
    }
    return toChunks(document, pieces);
  }

  private static boolean sameRun(Document doc, Section first, Section next) {
    return first.headingPath().equals(next.headingPath())
        && doc.pageAt(first.start()) == doc.pageAt(next.start());
  }

  /** Packs one run of sections that share a heading path and a start page. */
  private void chunkRun(Document doc, List<Section> run, List<Piece> out) {
    String text = doc.text();
    List<String> path = run.get(0).headingPath();
    String prefix = prefix(doc.title(), path, settings.maxPrefixChars());
    Segmenter.Fit fit = (s, e) -> tokensFit(text, prefix, "", s, e);
    int groupStart = -1;
    int groupEnd = -1;
    for (Section section : run) {
      Span span = trim(text, section.start(), section.end());
      if (span.length() == 0) {
        continue;
      }
      boolean whole = fits(span.start(), span.end(), fit);
      if (whole && groupStart >= 0 && fits(groupStart, span.end(), fit)) {
        groupEnd = span.end();
        continue;
      }
      if (groupStart >= 0) {
        out.add(new Piece(groupStart, groupEnd, path, prefix, ""));
        groupStart = -1;
      }
      if (whole) {
        groupStart = span.start();
        groupEnd = span.end();
      } else {
        splitSection(text, section.kind(), span, path, prefix, out);
      }
    }
    if (groupStart >= 0) {
      out.add(new Piece(groupStart, groupEnd, path, prefix, ""));
    }
  }

  /** Cuts one over-budget section according to its kind. */
  private void splitSection(
      String text, Section.Kind kind, Span span, List<String> path, String prefix,
      List<Piece> out) {
    Segmenter.Fit fit = (s, e) -> tokensFit(text, prefix, "", s, e);
    List<Span> segments;
    switch (kind) {
      case PARAGRAPH -> segments = prose.pack(text, SentenceSplitter.split(
          text, span.start(), span.end()), fit);
      case LIST -> {
        List<Span> units = new ArrayList<>();
        for (Span line : lines(text, span.start(), span.end())) {
          units.addAll(SentenceSplitter.split(text, line.start(), line.end()));
        }
        segments = prose.pack(text, units, fit);
      }
      case CODE -> segments = blocks.pack(text, lines(text, span.start(), span.end()), fit);
      case TABLE -> {
        splitTable(text, span, path, prefix, out);
        return;
      }
      default -> throw new IllegalStateException("unknown section kind " + kind);
    }
    for (Span seg : segments) {
      out.add(new Piece(seg.start(), seg.end(), path, prefix, ""));
    }
  }

  /**
   * Cuts a table between rows; the header rows form the first unit, and every later piece starts
   * with their condensed copy, which counts toward both the char and the token budget.
   */
  private void splitTable(
      String text, Span span, List<String> path, String prefix, List<Piece> out) {
    List<Span> rows = lines(text, span.start(), span.end());
    int headerRows = headerRows(text, rows);
    int headerEnd = rows.get(headerRows - 1).end();
    StringBuilder copy = new StringBuilder();
    for (Span row : rows.subList(0, headerRows)) {
      copy.append(condenseRow(row.of(text)));
    }
    String header = copy.toString();
    if (header.length() > settings.maxChars() / 2 || (tokenFit != null
        && !tokenFit.fits(embedText(prefix, header), maxTokens / 2))) {
      header = "";
    }
    String insert = header;
    int rowLimit = settings.tableRowsPerChunk();
    Segmenter.Fit fit = (s, e) -> {
      String copyHere = s < headerEnd ? "" : insert;
      return trim(text, s, e).length() + copyHere.length() <= settings.maxChars()
          && (rowLimit == 0 || rowCount(text, Math.max(s, headerEnd), e) <= rowLimit)
          && tokensFit(text, prefix, copyHere, s, e);
    };
    Span headerUnit = new Span(span.start(), headerEnd);
    List<Span> body = rows.subList(headerRows, rows.size());
    List<Span> segments = new ArrayList<>();
    if (fits(headerUnit.start(), headerUnit.end(), fit)) {
      List<Span> units = new ArrayList<>();
      units.add(headerUnit);
      units.addAll(body);
      segments.addAll(blocks.pack(text, units, fit));
    } else {
      // An over-long header is cut on its own, so that no row lands in a piece without it.
      segments.addAll(blocks.pack(text, List.of(headerUnit), fit));
      segments.addAll(blocks.pack(text, body, fit));
    }
    for (Span seg : segments) {
      out.add(new Piece(seg.start(), seg.end(), path, prefix,
          seg.start() < headerEnd ? "" : insert));
    }
  }

  /**
   * Number of header rows: every line down to a GFM delimiter row among the first {@value
   * #MAX_HEADER_ROWS} + 1 lines, else 1 (the first line).
   */
  private static int headerRows(String text, List<Span> rows) {
    for (int i = 1; i < Math.min(rows.size(), MAX_HEADER_ROWS + 1); i++) {
      if (TABLE_DELIMITER.matcher(rows.get(i).of(text)).matches()) {
        return i + 1;
      }
    }
    return 1;
  }

  /** Number of non-blank lines (table rows) in {@code text[from, to)}. */
  private static int rowCount(String text, int from, int to) {
    int n = 0;
    boolean content = false;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        n += content ? 1 : 0;
        content = false;
      } else if (!Character.isWhitespace(c)) {
        content = true;
      }
    }
    return n + (content ? 1 : 0);
  }

  /** A table row with padding collapsed, ending in one line break. */
  private static String condenseRow(String row) {
    return row.strip().replaceAll("[ \\t]+", " ").replaceAll("-{4,}", "---") + "\n";
  }

  private boolean fits(int start, int end, Segmenter.Fit fit) {
    return end - start <= settings.maxChars() && fit.fits(start, end);
  }

  /** Whether the chunk made of {@code text[s, e)} (trimmed as emitted) fits the token limit. */
  private boolean tokensFit(String text, String prefix, String insert, int s, int e) {
    if (tokenFit == null) {
      return true;
    }
    Span t = trim(text, s, e);
    return t.length() == 0 || tokenFit.fits(embedText(prefix, insert + t.of(text)), maxTokens);
  }

  private List<Chunk> toChunks(Document doc, List<Piece> pieces) {
    List<Chunk> chunks = new ArrayList<>();
    for (Piece p : pieces) {
      Span t = trim(doc.text(), p.start(), p.end());
      if (t.length() == 0) {
        continue;
      }
      String raw = p.insert() + t.of(doc.text());
      int page = doc.pageAt(t.start());
      Map<String, String> meta = new HashMap<>(doc.meta());
      meta.put("source", doc.source());
      meta.put("title", doc.title());
      if (!p.insert().isEmpty()) {
        meta.put(TABLE_HEADER_CHARS, Integer.toString(p.insert().length()));
      }
      String range = CellRange.union(doc.cells(), t.start(), t.end());
      if (range != null) {
        meta.put(CELL_RANGE, range);
      }
      if (doc.ocrAt(t.start())) {
        meta.put(OCR, "true");
      }
      int pageEnd = doc.pageAt(t.end() - 1);
      if (pageEnd != page) {
        meta.put(PAGE_END, Integer.toString(pageEnd));
      }
      int ordinal = chunks.size();
      chunks.add(new Chunk(ChunkIds.of(doc.id(), ordinal), doc.id(), ordinal, raw,
          embedText(p.prefix(), raw), p.headingPath(), page, t.start(), t.end(),
          meta));
    }
    return chunks;
  }

  private static String embedText(String prefix, String raw) {
    return prefix.isEmpty() ? raw : prefix + "\n" + raw;
  }

  /**
   * The contextual prefix: title and heading path joined by {@code " > "}, skipping blanks and
   * an entry equal to the one before it (the title is often the first heading). When longer than
   * {@code max}, middle headings are replaced by {@code …} (the title and the innermost heading say
   * most about a passage); if that is still too long, the title alone is used, cut to {@code max}
   * with a trailing {@code …} on a code point boundary.
   */
  static String prefix(String title, List<String> headingPath, int max) {
    List<String> parts = new ArrayList<>();
    for (String p : concat(title, headingPath)) {
      String s = p == null ? "" : p.strip();
      if (!s.isEmpty() && (parts.isEmpty() || !parts.get(parts.size() - 1).equals(s))) {
        parts.add(s);
      }
    }
    String joined = String.join(SEP, parts);
    for (int drop = 1; joined.length() > max && drop <= parts.size() - 2; drop++) {
      List<String> kept = new ArrayList<>();
      kept.add(parts.get(0));
      kept.add("…");
      kept.addAll(parts.subList(1 + drop, parts.size()));
      joined = String.join(SEP, kept);
    }
    if (joined.length() <= max) {
      return joined;
    }
    String titleOnly = parts.get(0);
    if (titleOnly.length() <= max) {
      return titleOnly;
    }
    if (max == 0) {
      return "";
    }
    int cut = max - 1;
    if (cut > 0 && Character.isHighSurrogate(titleOnly.charAt(cut - 1))) {
      cut--;
    }
    return titleOnly.substring(0, cut) + "…";
  }

  private static List<String> concat(String first, List<String> rest) {
    List<String> all = new ArrayList<>();
    all.add(first);
    all.addAll(rest);
    return all;
  }

  /** Lines of {@code text[from, to)}, each including its line break; contiguous. */
  private static List<Span> lines(String text, int from, int to) {
    List<Span> lines = new ArrayList<>();
    int s = from;
    while (s < to) {
      int nl = text.indexOf('\n', s);
      int e = nl < 0 || nl >= to ? to : nl + 1;
      lines.add(new Span(s, e));
      s = e;
    }
    return lines;
  }

  /**
   * {@code [from, to)} without trailing whitespace and without leading whitespace-only lines; the
   * indentation of the first visible line is kept (it matters in code).
   */
  static Span trim(String text, int from, int to) {
    int e = to;
    while (e > from && Character.isWhitespace(text.charAt(e - 1))) {
      e--;
    }
    int s = from;
    for (int i = from; i < e && Character.isWhitespace(text.charAt(i)); i++) {
      if (text.charAt(i) == '\n') {
        s = i + 1;
      }
    }
    return new Span(Math.min(s, e), e);
  }

  private static void validate(Document doc) {
    int previousEnd = 0;
    List<Section> sections = doc.sections();
    for (int i = 0; i < sections.size(); i++) {
      Section s = sections.get(i);
      if (s.end() > doc.text().length()) {
        throw new IllegalArgumentException("document " + doc.source() + ": sections[" + i
            + "] [" + s.start() + ", " + s.end() + ") ends after the text (length "
            + doc.text().length() + ")");
      }
      if (s.start() < previousEnd) {
        throw new IllegalArgumentException("document " + doc.source() + ": sections[" + i
            + "] starts at " + s.start() + ", before the end of the previous section ("
            + previousEnd + "); sections must be in order and not overlap");
      }
      previousEnd = s.end();
    }
  }

  /**
   * A chunk before trimming and numbering.
   *
   * @param insert the table header copy put in front of the text at the offsets, or empty
   */
  private record Piece(int start, int end, List<String> headingPath, String prefix,
      String insert) {}
}
