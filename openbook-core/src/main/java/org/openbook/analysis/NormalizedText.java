package org.openbook.analysis;

import java.text.Normalizer;

/**
 * Text after Unicode NFKC normalisation (full-width ASCII becomes half-width, ideographic space
 * becomes a space, …), with a map from every normalised char back to the original text, so token
 * offsets still point into the text the caller gave.
 *
 * <p>NFKC is applied per base character together with its following combining marks, which keeps
 * the offset map exact; compositions across base characters do not occur in NFKC anyway.
 */
final class NormalizedText {
  final String text;
  private final int[] originalStart;
  private final int[] originalEnd;

  private NormalizedText(String text, int[] originalStart, int[] originalEnd) {
    this.text = text;
    this.originalStart = originalStart;
    this.originalEnd = originalEnd;
  }

  /** Normalises {@code original} with NFKC, remembering where each output char came from. */
  static NormalizedText of(CharSequence original) {
    int n = original.length();
    StringBuilder out = new StringBuilder(n);
    int[] starts = new int[n + 8];
    int[] ends = new int[n + 8];
    int i = 0;
    while (i < n) {
      int groupStart = i;
      i += Character.charCount(Character.codePointAt(original, i));
      while (i < n && isCombiningMark(Character.codePointAt(original, i))) {
        i += Character.charCount(Character.codePointAt(original, i));
      }
      CharSequence group = original.subSequence(groupStart, i);
      String normalized = isPlainAscii(group)
          ? group.toString()
          : Normalizer.normalize(group, Normalizer.Form.NFKC);
      int needed = out.length() + normalized.length();
      if (needed > starts.length) {
        int grown = Math.max(needed, starts.length * 2);
        starts = java.util.Arrays.copyOf(starts, grown);
        ends = java.util.Arrays.copyOf(ends, grown);
      }
      for (int k = 0; k < normalized.length(); k++) {
        starts[out.length() + k] = groupStart;
        ends[out.length() + k] = i;
      }
      out.append(normalized);
    }
    return new NormalizedText(out.toString(), starts, ends);
  }

  /** Original offset where the normalised char at {@code index} starts. */
  int originalStart(int index) {
    return originalStart[index];
  }

  /** Original offset (exclusive) where the normalised char at {@code index - 1} ends. */
  int originalEnd(int index) {
    return originalEnd[index - 1];
  }

  private static boolean isCombiningMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.COMBINING_SPACING_MARK;
  }

  private static boolean isPlainAscii(CharSequence s) {
    for (int k = 0; k < s.length(); k++) {
      if (s.charAt(k) >= 0x80) {
        return false;
      }
    }
    return true;
  }
}
