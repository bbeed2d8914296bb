package org.openbook.chunk;

import com.ibm.icu.text.BreakIterator;
import com.ibm.icu.util.ULocale;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs consecutive units (sentences by default, or lines, rows …) of a text into segments of at
 * most {@code maxChars} UTF-16 chars, repeating whole trailing units of one segment at the start of
 * the next when {@code overlapChars > 0}.
 *
 * <p>Guarantees, for every call:
 *
 * <ul>
 *   <li>each segment is {@code ≤ maxChars} and passes the caller's {@link Fit};
 *   <li>segments start strictly increasing; each starts and ends on a unit boundary unless a unit
 *       alone is over budget, which is then hard-split (the only place a cut falls inside a unit);
 *   <li>a hard cut prefers a line break, then other whitespace, in the second half of the piece;
 *       it never falls between a high and a low surrogate or inside a grapheme cluster (ICU4J
 *       character break rules, UAX #29), and avoids making the next piece start with
 *       closing punctuation whenever an earlier cut in the same piece allows it (shortening the
 *       piece);
 *   <li>the overlap is made of whole units (never of hard-split pieces), totals at most {@code
 *       overlapChars}, and never makes up a whole segment: each segment brings at least one new
 *       unit, so no segment merely repeats the tail of the previous one;
 *   <li>with {@code overlapChars == 0} and contiguous units, the segments are contiguous and their
 *       concatenation equals the packed range.
 * </ul>
 *
 * <p>Packing is greedy (as many units as fit, then the next segment); thread-safe and immutable.
 */
public final class Segmenter {

  /**
   * An additional budget check on a candidate segment {@code text[start, end)}, e.g. the token
   * count of the text it will be embedded as. Must be monotone: if a range fits, every range it
   * contains (with the same start) fits too.
   */
  @FunctionalInterface
  public interface Fit {
    /** Whether {@code text[start, end)} is within budget. */
    boolean fits(int start, int end);

    /** No budget besides {@code maxChars}. */
    Fit ANY = (start, end) -> true;
  }

  private final int maxChars;
  private final int overlapChars;

  /**
   * @param maxChars     largest segment, in UTF-16 chars; at least 2 so that any code point fits
   * @param overlapChars most chars of whole trailing units repeated at the start of the next
   *                     segment; in {@code [0, maxChars)}
   * @throws IllegalArgumentException if a bound is out of range
   */
  public Segmenter(int maxChars, int overlapChars) {
    if (maxChars < 2) {
      throw new IllegalArgumentException("maxChars must be >= 2, got " + maxChars);
    }
    if (overlapChars < 0 || overlapChars >= maxChars) {
      throw new IllegalArgumentException(
          "overlapChars must be in [0, maxChars), got " + overlapChars);
    }
    this.maxChars = maxChars;
    this.overlapChars = overlapChars;
  }

  /** Largest segment, in UTF-16 chars. */
  public int maxChars() {
    return maxChars;
  }

  /** Most chars of whole units repeated between consecutive segments. */
  public int overlapChars() {
    return overlapChars;
  }

  /** Packs the sentences ({@link SentenceSplitter}) of the whole text. */
  public List<Span> segment(CharSequence text) {
    return segment(text, 0, text.length());
  }

  /** Packs the sentences of {@code text[from, to)}; offsets in the result are absolute. */
  public List<Span> segment(CharSequence text, int from, int to) {
    return pack(text, SentenceSplitter.split(text, from, to), Fit.ANY);
  }

  /**
   * Packs the given units.
   *
   * @param text  the text the offsets refer to
   * @param units ascending, non-overlapping units (usually contiguous); empty units are ignored; a
   *              segment spans from its first unit's start to its last unit's end
   * @param fit   budget checked on top of {@code maxChars}
   * @return segments in text order
   * @throws IllegalArgumentException if {@code fit} rejects even a single code point
   */
  public List<Span> pack(CharSequence text, List<Span> units, Fit fit) {
    List<Unit> atoms = new ArrayList<>();
    for (Span u : units) {
      if (u.length() == 0) {
        continue;
      }
      if (fits(u.start(), u.end(), fit)) {
        atoms.add(new Unit(u.start(), u.end(), true));
      } else {
        for (Span piece : hardSplit(text, u.start(), u.end(), fit)) {
          atoms.add(new Unit(piece.start(), piece.end(), false));
        }
      }
    }
    List<Span> segments = new ArrayList<>();
    int a = 0;
    while (a < atoms.size()) {
      int b = a + 1;
      while (b < atoms.size() && fits(atoms.get(a).start(), atoms.get(b).end(), fit)) {
        b++;
      }
      segments.add(new Span(atoms.get(a).start(), atoms.get(b - 1).end()));
      if (b == atoms.size()) {
        break;
      }
      a = nextStart(atoms, a, b, fit);
    }
    return segments;
  }

  /**
   * Cuts {@code text[from, to)} into pieces that each fit, as long as possible, with no regard to
   * sentences: for runs that have no boundary at all (e.g. {@code "·····"}).
   *
   * @return contiguous pieces covering {@code [from, to)}
   * @throws IllegalArgumentException if {@code fit} rejects even a single code point
   */
  public List<Span> hardSplit(CharSequence text, int from, int to, Fit fit) {
    BreakIterator graphemes = BreakIterator.getCharacterInstance(ULocale.ROOT);
    graphemes.setText(text.subSequence(from, to).toString());
    List<Span> pieces = new ArrayList<>();
    int s = from;
    while (s < to) {
      int e = Math.min(to, s + maxChars);
      if (!fits(s, e, fit)) {
        e = longestFit(text, s, e, fit);
      }
      if (e < to) {
        e = niceCut(text, graphemes, from, s, e);
      }
      pieces.add(new Span(s, e));
      s = e;
    }
    return pieces;
  }

  private boolean fits(int start, int end, Fit fit) {
    return end - start <= maxChars && fit.fits(start, end);
  }

  /** Start of the segment after {@code atoms[a, b)}: back over whole units that may overlap. */
  private int nextStart(List<Unit> atoms, int a, int b, Fit fit) {
    int k = b;
    int tailEnd = atoms.get(b - 1).end();
    // k - 1 > a: carrying the whole previous segment would make it a pure repeat.
    while (k - 1 > a
        && atoms.get(k - 1).whole()
        && tailEnd - atoms.get(k - 1).start() <= overlapChars
        && fits(atoms.get(k - 1).start(), atoms.get(b).end(), fit)) {
      k--;
    }
    return k;
  }

  /** Largest {@code e} in {@code (s, hi]} with {@code text[s, e)} fitting, by binary search. */
  private int longestFit(CharSequence text, int s, int hi, Fit fit) {
    int lo = s + Character.charCount(Character.codePointAt(text, s));
    if (lo > hi || !fits(s, lo, fit)) {
      throw new IllegalArgumentException(
          "the budget admits no text at offset " + s + " (even one character is too long)");
    }
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (fits(s, mid, fit)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Chooses where to end a hard-split piece {@code [s, e)} that cannot end at {@code e} itself:
   * after the last line break, else after the last whitespace, in the second half of the piece
   * (so a word or line is not cut); otherwise at {@code e} moved back to a grapheme boundary. A cut
   * is moved further back if the next piece would start with closing punctuation (kept when the
   * whole piece is such punctuation).
   */
  private static int niceCut(CharSequence text, BreakIterator graphemes, int base, int s, int e) {
    int half = s + (e - s) / 2;
    int afterSpace = -1;
    for (int c = e; c > half; c--) {
      char before = text.charAt(c - 1);
      if (Character.isWhitespace(before) && !Character.isWhitespace(text.charAt(c))
          && !SentenceSplitter.isClosingPunctuation(text.charAt(c))) {
        if (before == '\n') {
          return c;
        }
        if (afterSpace < 0) {
          afterSpace = c;
        }
      }
    }
    if (afterSpace > 0) {
      return afterSpace;
    }
    int cut = graphemes.isBoundary(e - base) ? e : graphemes.preceding(e - base) + base;
    int c = cut;
    while (c > s && SentenceSplitter.isClosingPunctuation(text.charAt(c))) {
      c = graphemes.preceding(c - base) + base;
    }
    if (c > s && !SentenceSplitter.isClosingPunctuation(text.charAt(c))) {
      cut = c;
    }
    if (cut <= s) {
      // One grapheme cluster longer than the budget: cut between code points instead.
      cut = e;
      if (Character.isLowSurrogate(text.charAt(cut)) && cut - 1 > s
          && Character.isHighSurrogate(text.charAt(cut - 1))) {
        cut--;
      }
    }
    return cut;
  }

  /** A packing unit; {@code whole} is false for hard-split pieces, which never overlap. */
  private record Unit(int start, int end, boolean whole) {}
}
