package org.openbook.analysis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The parts of a compound identifier, indexed beside the whole identifier so a search for a part
 * ({@code billing}, {@code InvoiceSyncService}, {@code sync-worker.yaml}) finds it, while the
 * whole still ranks first for the whole (a document with the whole has every part too).
 *
 * <p>Three levels, each part emitted once: path segments (split at {@code /} and {@code :}: URL
 * and file paths), then words (split at {@code . - _}: dotted package/class names, file names,
 * snake_case and kebab-case), then CamelCase components ({@code InvoiceSyncService} → {@code
 * Invoice}, {@code Sync}, {@code Service}; an upper-case run keeps its last capital for the next
 * word, {@code HTTPServer} → {@code HTTP}, {@code Server}). A part needs a letter and two or more
 * chars; pure numbers are never parts.
 *
 * <p>Only identifiers built from words are decomposed: at least two components that are letters
 * only and two or more letters long. Codes such as {@code ERR_4517}, {@code ZQ-7781}, {@code
 * GB/T 22239}, {@code zlib.h}, {@code v1.2.3} or {@code 8.1.4} have at most one such component and
 * stay one opaque token, as a user typing a code means the code, not {@code err} or {@code 4517}.
 */
final class IdentifierParts {

  /** Token type of a part made of letters only (lower-cased and stemmed like a word). */
  static final String WORD_PART = "<WORD_PART>";
  /** Token type of a part with digits or connectors ({@code v2}, {@code sync-worker.yaml}). */
  static final String IDENTIFIER_PART = "<IDENTIFIER_PART>";

  private static final String SEGMENT_SEPARATORS = "/:";
  private static final String WORD_SEPARATORS = ".-_";

  private IdentifierParts() {}

  /**
   * The stacked parts of {@code whole}, a span of {@code text} from {@link TokenScanner}; empty
   * when it is not a compound built from words (or its term is not the text's own spelling, as
   * for {@code GB/T 22239} joined without the space).
   */
  static List<TokenScanner.Span> of(String text, TokenScanner.Span whole) {
    if (!whole.term().equals(text.substring(whole.start(), whole.end()))) {
      return List.of();
    }
    Set<List<Integer>> ranges = new LinkedHashSet<>();
    int wordComponents = 0;
    for (int[] segment : split(text, whole.start(), whole.end(), SEGMENT_SEPARATORS)) {
      ranges.add(List.of(segment[0], segment[1]));
      for (int[] word : split(text, segment[0], segment[1], WORD_SEPARATORS)) {
        ranges.add(List.of(word[0], word[1]));
        for (int[] atom : camelCase(text, word[0], word[1])) {
          ranges.add(List.of(atom[0], atom[1]));
          if (atom[1] - atom[0] >= 2 && isLetters(text, atom[0], atom[1])) {
            wordComponents++;
          }
        }
      }
    }
    if (wordComponents < 2) {
      return List.of();
    }
    List<TokenScanner.Span> parts = new ArrayList<>();
    for (List<Integer> r : ranges) {
      int start = r.get(0);
      int end = r.get(1);
      if ((start == whole.start() && end == whole.end()) || end - start < 2
          || !hasLetter(text, start, end)) {
        continue;
      }
      String type = isLetters(text, start, end) ? WORD_PART : IDENTIFIER_PART;
      parts.add(new TokenScanner.Span(start, end, type, text.substring(start, end), true));
    }
    return parts;
  }

  /** [from, to) split at any of {@code separators}; empty pieces dropped. */
  private static List<int[]> split(String s, int from, int to, String separators) {
    List<int[]> out = new ArrayList<>();
    int start = from;
    for (int k = from; k <= to; k++) {
      if (k == to || separators.indexOf(s.charAt(k)) >= 0) {
        if (k > start) {
          out.add(new int[] {start, k});
        }
        start = k + 1;
      }
    }
    return out;
  }

  /** [from, to) split before each CamelCase word start. */
  private static List<int[]> camelCase(String s, int from, int to) {
    List<int[]> out = new ArrayList<>();
    int start = from;
    for (int k = from + 1; k < to; k++) {
      char prev = s.charAt(k - 1);
      char c = s.charAt(k);
      boolean lowerToUpper = Character.isLowerCase(prev) && Character.isUpperCase(c);
      boolean endOfCapitals = Character.isUpperCase(prev) && Character.isUpperCase(c)
          && k + 1 < to && Character.isLowerCase(s.charAt(k + 1));
      if (lowerToUpper || endOfCapitals) {
        out.add(new int[] {start, k});
        start = k;
      }
    }
    out.add(new int[] {start, to});
    return out;
  }

  private static boolean isLetters(String s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (!Character.isLetter(s.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasLetter(String s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (Character.isLetter(s.charAt(k))) {
        return true;
      }
    }
    return false;
  }
}
