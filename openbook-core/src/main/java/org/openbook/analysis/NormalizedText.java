package org.openbook.analysis;

import com.ibm.icu.lang.UCharacter;
import com.ibm.icu.lang.UProperty;
import com.ibm.icu.text.Transliterator;
import java.text.Normalizer;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one normalisation step before analysis, applied to documents and questions alike, with a
 * map from every output char back to the original text, so token offsets (and the text quoted to
 * users) still refer to the text the caller gave; a removed character counts as part of the char
 * before it. In this order, per original character:
 * <ol>
 *   <li><b>Line-break de-hyphenation</b> (English text from PDFs): a hyphen ({@code -}, U+2010 or
 *       the soft hyphen U+00AD) that ends a line between two letter runs is removed together with
 *       the line break when both halves are lower-case letters ({@code infor-\nmation} reads
 *       {@code information}), or when it is a soft hyphen. Between other halves (digits, capitals
 *       or the tail of an identifier: {@code ZQ-\n7781}, {@code COVID-\n19}) only the line break
 *       goes and the hyphen stays ({@code ZQ-7781}), so identifiers are never glued. The halves
 *       are not checked against a lexicon: a compound broken at its own hyphen ({@code
 *       well-\nknown}) is joined too. Only one line break is crossed, never a blank line.</li>
 *   <li><b>Invisible characters removed</b>: every Unicode {@code Default_Ignorable_Code_Point}
 *       (ICU's property), i.e. the format characters that never render — zero-width space,
 *       joiners U+200B–U+200D, word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD, bidi marks,
 *       variation selectors, Hangul fillers. {@code Invoice\u200BReconcile} reads {@code
 *       InvoiceReconcile}.</li>
 *   <li><b>NFKC</b>: full-width ASCII becomes half-width ({@code ＥＲＲ＿４５１７} reads {@code
 *       ERR_4517}), the ideographic space a space, compatibility ideographs unified ones. Applied
 *       per base character with its combining marks, which keeps the map exact (NFKC does not
 *       compose across base characters).</li>
 *   <li><b>Traditional→Simplified folding</b> (optional, on for BM25): each Han character through
 *       ICU4J's {@code Traditional-Simplified} transliterator, one character at a time ({@code
 *       診斷證明} reads {@code 诊断证明}), so a question in either script matches a document in
 *       either. Per character because every BMP Han character maps to exactly one character
 *       (checked over U+4E00–U+9FFF with ICU 77), which keeps offsets exact; word-level
 *       conversions ({@code 乾燥} vs {@code 乾隆}) are not attempted.</li>
 * </ol>
 * Immutable.
 */
public final class NormalizedText {

  private static final String TRANSLITERATOR_ID = "Traditional-Simplified";
  /** Transliterations per Han code point; most texts use a few thousand distinct characters. */
  private static final Map<Integer, String> SIMPLIFIED = new ConcurrentHashMap<>();
  /** ICU transliterators are not documented as thread-safe: one lazily built, used under lock. */
  private static Transliterator toSimplified;

  private final String text;
  private final int[] originalStart;
  private final int[] originalEnd;

  private NormalizedText(String text, int[] originalStart, int[] originalEnd) {
    this.text = text;
    this.originalStart = originalStart;
    this.originalEnd = originalEnd;
  }

  /** {@code original} through every step, Traditional→Simplified folding included. */
  public static NormalizedText of(CharSequence original) {
    return of(original, true);
  }

  /**
   * {@code original} through every step above.
   *
   * @param foldTraditional whether step 4 (Traditional→Simplified) runs
   */
  public static NormalizedText of(CharSequence original, boolean foldTraditional) {
    Objects.requireNonNull(original, "original");
    int n = original.length();
    boolean[] dropped = LineBreakHyphens.droppedChars(original);
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
      String normalized = normalizeGroup(original, groupStart, i, dropped, foldTraditional);
      if (normalized.isEmpty() && out.length() > 0) {
        // A removed character belongs to the char before it, so offsets stay contiguous and
        // Lucene's CJKBigramFilter still pairs 工 and 单 around an invisible 工\u200B单.
        ends[out.length() - 1] = i;
      }
      int needed = out.length() + normalized.length();
      if (needed > starts.length) {
        int grown = Math.max(needed, starts.length * 2);
        starts = Arrays.copyOf(starts, grown);
        ends = Arrays.copyOf(ends, grown);
      }
      for (int k = 0; k < normalized.length(); k++) {
        starts[out.length() + k] = groupStart;
        ends[out.length() + k] = i;
      }
      out.append(normalized);
    }
    return new NormalizedText(out.toString(), starts, ends);
  }

  /** The normalised text. */
  public String text() {
    return text;
  }

  /** Original offset where the normalised char at {@code index} starts. */
  public int originalStart(int index) {
    return originalStart[index];
  }

  /** Original offset (exclusive) where the normalised char at {@code index - 1} ends. */
  public int originalEnd(int index) {
    return originalEnd[index - 1];
  }

  /** One base character and its combining marks, [from, to) of {@code s}, normalised. */
  private static String normalizeGroup(
      CharSequence s, int from, int to, boolean[] dropped, boolean foldTraditional) {
    boolean plain = true;
    for (int k = from; k < to; k++) {
      plain &= s.charAt(k) < 0x80 && !dropped[k];
    }
    if (plain) {
      return s.subSequence(from, to).toString();
    }
    StringBuilder kept = new StringBuilder(to - from);
    for (int k = from; k < to; ) {
      int cp = Character.codePointAt(s, k);
      if (!dropped[k] && !UCharacter.hasBinaryProperty(cp, UProperty.DEFAULT_IGNORABLE_CODE_POINT)) {
        kept.appendCodePoint(cp);
      }
      k += Character.charCount(cp);
    }
    String nfkc = Normalizer.normalize(kept, Normalizer.Form.NFKC);
    return foldTraditional ? simplified(nfkc) : nfkc;
  }

  private static String simplified(String s) {
    StringBuilder out = null;
    for (int k = 0; k < s.length(); ) {
      int cp = s.codePointAt(k);
      String mapped = Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN
          ? SIMPLIFIED.computeIfAbsent(cp, NormalizedText::transliterate) : null;
      if (mapped != null && out == null) {
        out = new StringBuilder(s.length()).append(s, 0, k);
      }
      if (out != null) {
        if (mapped != null) {
          out.append(mapped);
        } else {
          out.appendCodePoint(cp);
        }
      }
      k += Character.charCount(cp);
    }
    return out == null ? s : out.toString();
  }

  private static synchronized String transliterate(int cp) {
    if (toSimplified == null) {
      toSimplified = Transliterator.getInstance(TRANSLITERATOR_ID);
    }
    return toSimplified.transliterate(new String(Character.toChars(cp)));
  }

  private static boolean isCombiningMark(int cp) {
    int type = Character.getType(cp);
    return type == Character.NON_SPACING_MARK
        || type == Character.ENCLOSING_MARK
        || type == Character.COMBINING_SPACING_MARK;
  }
}
