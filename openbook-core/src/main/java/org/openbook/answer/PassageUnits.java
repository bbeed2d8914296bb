package org.openbook.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.openbook.chunk.SentenceSplitter;
import org.openbook.chunk.Span;

/**
 * A passage cut into the units an extractive answer quotes, with the structure that decides what
 * must be quoted together.
 *
 * <ul>
 *   <li>A paragraph gives one {@link Kind#SENTENCE} per sentence ({@link SentenceSplitter}: a
 *       wrapped line is not a sentence end). A last sentence ending in a colon is a lead-in: it
 *       becomes the {@link Unit#prefix} of the list after it, and is dropped when a code block
 *       or nothing follows (alone it says nothing).
 *   <li>A list gives one {@link Kind#LIST_ITEM} per item (an item with its continuation lines is
 *       one unit, however many sentences it has), prefixed by its lead-in.
 *   <li>A Markdown table gives one {@link Kind#TABLE_ROW} per body row, prefixed by the header
 *       row: a row of figures means nothing without its column names. The delimiter row and
 *       the header alone are never units.
 *   <li>A fenced code block is evidence to show in the source, not a sentence: it is never
 *       quoted, but its text and the lead-in before it are the {@link Unit#context} of the
 *       first sentence of the next paragraph, which in troubleshooting notes explains it ("执行 cmake
 *       时出现：```…``` 原因是…").
 *   <li>ATX headings are dropped (they label the passage), as are Markdown line prefixes and
 *       fragments shorter than {@link CitationChecker#MIN_CLAIM_LENGTH} letters or digits.
 * </ul>
 *
 * Lines starting with {@code Q：}/{@code A：} (FAQ files) start a new paragraph.
 */
final class PassageUnits {

  /** What a unit is. */
  enum Kind { SENTENCE, LIST_ITEM, TABLE_ROW }

  /**
   * One quotable unit.
   *
   * @param text    the verbatim text to quote (Markdown prefix removed, wrapped lines joined)
   * @param kind    sentence, list item or table row
   * @param block   index of its paragraph, list or table in the passage, from 0
   * @param prefix  quoted once before the first quoted unit of its block: the list's lead-in or
   *                the table's header row; empty for none
   * @param context text read with the unit when matching it against the question but not quoted
   *                (the code block before its paragraph); empty for none
   */
  record Unit(String text, Kind kind, int block, String prefix, String context) {}

  /** A fenced code block (``` or ~~~), possibly unclosed at the end of the passage. */
  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~).*");
  /** An ATX heading line. */
  private static final Pattern HEADING = Pattern.compile("^\\s{0,3}#{1,6}(?:\\s.*)?$");
  /** A list item's marker. */
  private static final Pattern LIST_ITEM = Pattern.compile("^\\s*(?:[-*+]|\\d{1,3}[.)])\\s+");
  /** A table delimiter row ({@code |---|:--:|}). */
  private static final Pattern DELIMITER =
      Pattern.compile("^\\s*\\|?(?:\\s*:?-+:?\\s*\\|)+(?:\\s*:?-+:?\\s*)?\\s*$");
  /** A line of an FAQ that starts a new paragraph. */
  private static final Pattern QA_LINE = Pattern.compile("^\\s*[QA问答][：:]");
  /** Markdown prefixes left inside a paragraph line: block quotes. */
  private static final Pattern QUOTE_PREFIX = Pattern.compile("^(?:>\\s*)+");
  /** A line break with the indentation around it, inside one unit. */
  private static final Pattern WRAPPED_LINE = Pattern.compile("\\s*\\R\\s*");

  private final List<Unit> units = new ArrayList<>();
  private int block = -1;
  /** The lead-in of the block that follows, or empty. */
  private String leadIn = "";
  /** Context for the sentences of the next paragraph (a code block and its lead-in). */
  private String pendingContext = "";

  private PassageUnits() {}

  /** The units of {@code passage} in document order. */
  static List<Unit> of(String passage) {
    PassageUnits p = new PassageUnits();
    p.parse(passage);
    return List.copyOf(p.units);
  }

  /** The cells of a Markdown table row, stripped, without the outer borders. */
  static List<String> cells(String row) {
    String r = row.strip();
    if (r.startsWith("|")) {
      r = r.substring(1);
    }
    if (r.endsWith("|")) {
      r = r.substring(0, r.length() - 1);
    }
    List<String> out = new ArrayList<>();
    for (String c : r.split("\\|", -1)) {
      out.add(c.strip());
    }
    return out;
  }

  private void parse(String passage) {
    String[] lines = passage.split("\\R", -1);
    StringBuilder para = new StringBuilder();
    StringBuilder item = null;
    String header = null;
    boolean inTable = false;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (FENCE.matcher(line).matches()) {
        flushParagraph(para);
        item = flushItem(item);
        inTable = false;
        String fence = line.strip().substring(0, 3);
        StringBuilder code = new StringBuilder();
        for (i++; i < lines.length && !lines[i].strip().startsWith(fence); i++) {
          code.append(lines[i]).append('\n');
        }
        // A lead-in to a code block is not quoted; it and the code explain the next paragraph.
        pendingContext = (leadIn + " " + code).strip();
        leadIn = "";
        continue;
      }
      if (line.isBlank() || HEADING.matcher(line).matches()) {
        flushParagraph(para);
        item = flushItem(item);
        inTable = false;
        if (HEADING.matcher(line).matches()) {
          endList();
        }
        continue;
      }
      String stripped = line.strip();
      if (stripped.startsWith("|")) {
        flushParagraph(para);
        item = flushItem(item);
        if (DELIMITER.matcher(stripped).matches()) {
          continue; // the row before it was the header, already held
        }
        if (!inTable) {
          inTable = true;
          block++;
          boolean headed = i + 1 < lines.length && DELIMITER.matcher(lines[i + 1].strip()).matches();
          header = headed ? stripped : "";
          leadIn = "";
          if (headed) {
            continue;
          }
        }
        addUnit(stripped, Kind.TABLE_ROW, header, "");
        continue;
      }
      inTable = false;
      if (LIST_ITEM.matcher(line).lookingAt()) {
        flushParagraph(para);
        boolean newList = item == null && (units.isEmpty()
            || units.get(units.size() - 1).kind() != Kind.LIST_ITEM
            || units.get(units.size() - 1).block() != block || !leadIn.isEmpty());
        item = flushItem(item);
        if (newList) {
          block++;
        }
        item = new StringBuilder(LIST_ITEM.matcher(line).replaceFirst(""));
        continue;
      }
      if (item != null && Character.isWhitespace(line.charAt(0))) {
        item.append('\n').append(stripped); // continuation of the item
        continue;
      }
      item = flushItem(item);
      if (QA_LINE.matcher(line).lookingAt()) {
        flushParagraph(para);
      }
      para.append(QUOTE_PREFIX.matcher(stripped).replaceFirst("")).append('\n');
    }
    flushParagraph(para);
    flushItem(item);
  }

  private StringBuilder flushItem(StringBuilder item) {
    if (item != null) {
      String listLeadIn = units.isEmpty() || units.get(units.size() - 1).block() != block
          ? leadIn : units.get(units.size() - 1).prefix();
      addUnit(item.toString(), Kind.LIST_ITEM, listLeadIn, "");
      leadIn = "";
    }
    return null;
  }

  private void endList() {
    leadIn = "";
  }

  private void flushParagraph(StringBuilder para) {
    if (para.isEmpty()) {
      return;
    }
    String text = para.toString();
    para.setLength(0);
    block++;
    String context = pendingContext;
    pendingContext = "";
    leadIn = "";
    List<Span> spans = SentenceSplitter.split(text);
    for (int s = 0; s < spans.size(); s++) {
      String sentence = WRAPPED_LINE.matcher(spans.get(s).of(text).strip()).replaceAll(" ");
      boolean last = s == spans.size() - 1;
      if (last && (sentence.endsWith("：") || sentence.endsWith(":"))) {
        leadIn = sentence; // held for the list (or dropped before code / at the end)
        continue;
      }
      addUnit(sentence, Kind.SENTENCE, "", context);
      context = ""; // the sentence right after the code is the one that explains it
    }
  }

  private void addUnit(String text, Kind kind, String prefix, String context) {
    String t = WRAPPED_LINE.matcher(text.strip()).replaceAll(" ");
    if (Sentences.contentLength(t) >= CitationChecker.MIN_CLAIM_LENGTH) {
      units.add(new Unit(t, kind, block, prefix, context));
    }
  }
}
