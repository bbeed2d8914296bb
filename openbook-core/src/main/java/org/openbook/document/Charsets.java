package org.openbook.document;

import com.ibm.icu.text.CharsetDetector;
import com.ibm.icu.text.CharsetMatch;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes plain-text bytes whose encoding is not declared.
 *
 * <p>Order: a byte-order mark (UTF-8, UTF-16LE, UTF-16BE) wins; then strict UTF-8 (the encoding
 * of nearly every modern file, and one random bytes almost never satisfy); then ICU4J's
 * {@link CharsetDetector}. Among ICU's guesses, GB18030 (a superset of GB2312 and GBK, the legacy
 * encodings of Simplified Chinese) is preferred whenever it decodes the bytes strictly and ICU
 * rates it within {@value #GB18030_MARGIN} points of its best guess, because short GBK texts get
 * tied scores for Big5/EUC-JP/EUC-KR/Shift_JIS and this corpus is Chinese.
 *
 * <p>Binary detection follows git's {@code buffer_is_binary}: a NUL byte in the first
 * {@value #SNIFF_BYTES} bytes means binary, unless ICU recognises UTF-16 (whose ASCII characters
 * contain NUL bytes). Decoded text whose first {@value #SNIFF_BYTES} characters are more than
 * {@value #MAX_CONTROL_SHARE} control characters or U+FFFD is also treated as binary.
 */
public final class Charsets {

  /** Bytes/characters inspected for binary content (git inspects 8000). */
  static final int SNIFF_BYTES = 8000;
  /** Share of control characters above which decoded text counts as binary. */
  static final double MAX_CONTROL_SHARE = 0.10;
  /** ICU confidence points (0-100) by which GB18030 may trail the best guess and still win. */
  static final int GB18030_MARGIN = 10;
  /** ICU's confidence floor for UTF-16 without BOM; only a higher score counts as a match. */
  private static final int UTF16_FLOOR = 10;

  /**
   * Decoded text, the charset used, and a warning when bytes had to be replaced (empty if none).
   */
  public record Decoded(String text, Charset charset, String warning) {
    Decoded(String text, Charset charset) {
      this(text, charset, "");
    }
  }

  /**
   * Most U+FFFD replacements (as a share of characters) for which a file that is not valid
   * UTF-8 is still read as UTF-8: a few corrupt bytes in a UTF-8 file, not a legacy encoding
   * (GBK read as UTF-8 gives a replacement for most of its Chinese characters).
   */
  static final double MAX_UTF8_REPAIR_SHARE = 0.01;
  /** Share of unassigned, private-use or control characters above which text is implausible. */
  static final double MAX_IMPLAUSIBLE_SHARE = 0.05;

  private Charsets() {}

  /** Removes a leading U+FEFF (a BOM decoded as a character). */
  public static String stripBom(String s) {
    return s.startsWith("\uFEFF") ? s.substring(1) : s;
  }

  /**
   * Detects the charset and decodes.
   *
   * @throws LoadException BINARY when the bytes are not text in any recognised encoding
   */
  public static Decoded decode(byte[] b, String source) throws LoadException {
    Decoded d = decodeText(b, source);
    if (controlShare(d.text()) > MAX_CONTROL_SHARE) {
      throw new LoadException(LoadException.Reason.BINARY,
          source + ": too many control characters as " + d.charset());
    }
    return d;
  }

  private static Decoded decodeText(byte[] b, String source) throws LoadException {
    if (startsWith(b, 0xEF, 0xBB, 0xBF)) {
      return new Decoded(lenient(b, 3, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }
    if (startsWith(b, 0xFF, 0xFE)) {
      return new Decoded(lenient(b, 2, StandardCharsets.UTF_16LE), StandardCharsets.UTF_16LE);
    }
    if (startsWith(b, 0xFE, 0xFF)) {
      return new Decoded(lenient(b, 2, StandardCharsets.UTF_16BE), StandardCharsets.UTF_16BE);
    }
    CharsetMatch[] matches = detector(b).detectAll();
    if (hasNul(b)) {
      for (CharsetMatch m : matches) {
        if (m.getName().startsWith("UTF-16") && m.getConfidence() > UTF16_FLOOR) {
          Charset cs = Charset.forName(m.getName());
          String text = stripBom(lenient(b, 0, cs));
          // random bytes with NULs can look like UTF-16 to the detector; real text decodes to
          // assigned, printable characters
          if (implausibleShare(text) <= MAX_IMPLAUSIBLE_SHARE) {
            return new Decoded(text, cs);
          }
        }
      }
      throw new LoadException(LoadException.Reason.BINARY,
          source + ": NUL bytes, and not UTF-16");
    }
    String utf8 = strict(b, StandardCharsets.UTF_8);
    if (utf8 != null) {
      return new Decoded(utf8, StandardCharsets.UTF_8);
    }
    String repaired = lenient(b, 0, StandardCharsets.UTF_8);
    long replaced = repaired.chars().filter(c -> c == '\uFFFD').count();
    if (replaced <= Math.max(1, repaired.length() * MAX_UTF8_REPAIR_SHARE)) {
      return new Decoded(repaired, StandardCharsets.UTF_8,
          replaced + " invalid UTF-8 byte sequence(s) replaced with U+FFFD");
    }
    CharsetMatch best = null;
    int gbConfidence = -1;
    for (CharsetMatch m : matches) {
      if (m.getName().startsWith("UTF-") || !Charset.isSupported(m.getName())) {
        continue; // UTF-8 failed strictly above; UTF-16/32 would have NUL bytes
      }
      if (best == null) {
        best = m;
      }
      if (m.getName().equals("GB18030")) {
        gbConfidence = m.getConfidence();
      }
    }
    if (best != null && gbConfidence >= best.getConfidence() - GB18030_MARGIN) {
      Charset gb = Charset.forName("GB18030");
      String s = strict(b, gb);
      if (s != null) {
        return new Decoded(s, gb);
      }
    }
    Charset cs = best != null ? Charset.forName(best.getName()) : Charset.forName("windows-1252");
    return new Decoded(lenient(b, 0, cs), cs);
  }

  private static CharsetDetector detector(byte[] b) {
    CharsetDetector d = new CharsetDetector();
    d.setText(b);
    return d;
  }

  private static boolean startsWith(byte[] b, int... prefix) {
    if (b.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if ((b[i] & 0xFF) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasNul(byte[] b) {
    int n = Math.min(b.length, SNIFF_BYTES);
    for (int i = 0; i < n; i++) {
      if (b[i] == 0) {
        return true;
      }
    }
    return false;
  }

  /** Strict decode: null when any byte sequence is malformed or unmappable. */
  private static String strict(byte[] b, Charset cs) {
    try {
      return cs.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  private static String lenient(byte[] b, int offset, Charset cs) {
    return new String(Arrays.copyOfRange(b, offset, b.length), cs);
  }

  /** Share of unassigned, private-use and control characters and U+FFFD in the sniffed prefix. */
  static double implausibleShare(String s) {
    return share(s, c -> isBadControl(c) || c == '\uFFFD'
        || Character.getType(c) == Character.UNASSIGNED
        || Character.getType(c) == Character.PRIVATE_USE);
  }

  /** Share of C0/C1 controls (other than tab, LF, CR, FF) and U+FFFD in the sniffed prefix. */
  static double controlShare(String s) {
    return share(s, c -> isBadControl(c) || c == '\uFFFD');
  }

  private static boolean isBadControl(int c) {
    return Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r' && c != '\f';
  }

  private static double share(String s, java.util.function.IntPredicate bad) {
    int n = Math.min(s.length(), SNIFF_BYTES);
    if (n == 0) {
      return 0;
    }
    return (double) s.chars().limit(n).filter(bad).count() / n;
  }
}
