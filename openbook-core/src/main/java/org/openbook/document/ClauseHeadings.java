package org.openbook.document;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recovers the heading path of text that arrives without styles (a PDF text layer, OCR of a
 * scan) from the numbered headings that Chinese regulations, contracts and policies use:
 * {@code 第一章 总则}, {@code 第二节 …}, {@code 第三条 保修期限}. Without it, a scanned policy
 * is one flat run of text per page, chunked by length only, so one chunk mixes several articles
 * and neither BM25 nor the embedding can single out the article a question is about.
 *
 * <p>A line is a heading when it starts with {@code 第 N 章|节|条} (N in Chinese or Arabic
 * numerals, at most 5 of them), is at most {@value #MAX_HEADING_CHARS} chars long, and does not
 * end like a sentence ({@code 。；，,;}), so an article whose body follows on the same line
 * ({@code 第二条 本制度适用于……。}) or a sentence citing an article ({@code 第5条规定的…}) is not
 * taken for one. Levels: 章 1, 节 2, 条 3; a heading closes those of its own and deeper levels.
 * Not thread-safe; one per document.
 */
final class ClauseHeadings {

  /** Longest line taken as a heading, in UTF-16 chars. */
  static final int MAX_HEADING_CHARS = 40;

  private static final Pattern HEADING = Pattern.compile(
      "^\\s*第\\s*[一二三四五六七八九十百零〇两0-9]{1,5}\\s*([章节条])(?![0-9])");
  private static final String SENTENCE_ENDS = "。；，,;";

  private final List<String> path = new ArrayList<>();
  private final List<Integer> levels = new ArrayList<>();

  /** The current heading path, outermost first. */
  List<String> path() {
    return List.copyOf(path);
  }

  /** Level of {@code line} as a heading (1 章, 2 节, 3 条), or 0 when it is not one. */
  static int level(String line) {
    String s = line.strip();
    if (s.isEmpty() || s.length() > MAX_HEADING_CHARS
        || SENTENCE_ENDS.indexOf(s.charAt(s.length() - 1)) >= 0) {
      return 0;
    }
    Matcher m = HEADING.matcher(s);
    if (!m.find()) {
      return 0;
    }
    return switch (m.group(1)) {
      case "章" -> 1;
      case "节" -> 2;
      default -> 3;
    };
  }

  /**
   * Cuts the paragraph {@code text[start, end)} before every heading line, updating the path.
   *
   * @param base added to every offset of the result (where {@code text} starts in the document)
   * @return the pieces in order, each with the heading path it lies under; the heading line is
   *     kept as the first line of its piece (nothing of the text is dropped)
   */
  List<Section> split(String text, int start, int end, int base, Section.Kind kind) {
    List<Section> out = new ArrayList<>();
    int pieceStart = start;
    int lineStart = start;
    while (lineStart < end) {
      int nl = text.indexOf('\n', lineStart);
      int lineEnd = nl < 0 || nl >= end ? end : nl;
      int level = level(text.substring(lineStart, lineEnd));
      if (level > 0) {
        add(out, text, pieceStart, lineStart, base, kind);
        enter(level, text.substring(lineStart, lineEnd));
        pieceStart = lineStart;
      }
      lineStart = lineEnd + 1;
    }
    add(out, text, pieceStart, end, base, kind);
    return out;
  }

  private void enter(int level, String heading) {
    while (!levels.isEmpty() && levels.get(levels.size() - 1) >= level) {
      levels.remove(levels.size() - 1);
      path.remove(path.size() - 1);
    }
    levels.add(level);
    path.add(heading.strip().replaceAll("\\s+", " "));
  }

  private void add(List<Section> out, String text, int from, int to, int base,
      Section.Kind kind) {
    int[] span = TextBlocks.trim(text, from, to);
    if (span != null) {
      out.add(new Section(kind, path(), base + span[0], base + span[1]));
    }
  }
}
