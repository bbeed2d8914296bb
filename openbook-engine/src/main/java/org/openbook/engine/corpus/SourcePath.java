package org.openbook.engine.corpus;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A document source as the corpus compares it: a path relative to the docs folder in one normal
 * form. Every source that comes from a request (a {@code DELETE} path, an upload's file name and
 * {@code folder} field) is parsed here once, before any lookup, department rule or file
 * operation, so that two spellings of one file can never be judged differently.
 *
 * <p>The normal form: Unicode NFC; {@code /}-separated; no empty, {@code .} or {@code ..}
 * segments ({@code .} and empty segments are dropped, {@code ..} removes the segment before
 * it); no leading {@code /} and no drive letter; no backslash, no control, format or unpaired
 * surrogate characters; no segment starting with {@code .} (hidden files are never documents);
 * each segment at most {@value #MAX_SEGMENT_BYTES} UTF-8 bytes. The index's sources are NFC too
 * ({@link org.openbook.document.CorpusWalker#sourceOf}), so sources compare with {@code equals}.
 *
 * @param value the normal form, e.g. {@code finance/预算.txt}
 */
public record SourcePath(String value) {
  /** Longest segment, in UTF-8 bytes: the common file-system limit. */
  public static final int MAX_SEGMENT_BYTES = 255;
  /** Longest whole path accepted, in characters. */
  public static final int MAX_CHARS = 4096;

  /** @throws IllegalArgumentException when {@code value} is not already in the normal form */
  public SourcePath {
    String normal;
    try {
      normal = normalise(value);
    } catch (Bad e) {
      throw new IllegalArgumentException("not a source path: " + e.getMessage());
    }
    if (!normal.equals(value)) {
      throw new IllegalArgumentException("source path '" + value + "' is not normalised");
    }
  }

  /**
   * Parses a path from a request.
   *
   * @param raw   the path as received (already URL-decoded once by the HTTP layer)
   * @param field the request field it came from, named in the error
   * @throws InvalidUploadException ({@code BAD_NAME}, i.e. 400) naming {@code field} when the path
   *     is empty, escapes the docs folder with {@code ..}, is absolute, or holds a character or
   *     segment the normal form excludes
   */
  public static SourcePath parse(String raw, String field) {
    try {
      return new SourcePath(normalise(raw));
    } catch (Bad e) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
          "bad " + field + " '" + printable(raw) + "': " + e.getMessage());
    }
  }

  /**
   * As {@link #parse} for an optional folder: empty for null, blank or a path that names the docs
   * folder itself (such as {@code .}).
   */
  public static Optional<SourcePath> parseFolder(String raw, String field) {
    if (raw == null || raw.isBlank()) {
      return Optional.empty();
    }
    try {
      String n = normalise(raw);
      return Optional.of(new SourcePath(n));
    } catch (Empty e) {
      return Optional.empty();
    } catch (Bad e) {
      throw new InvalidUploadException(InvalidUploadException.Reason.BAD_NAME, field,
          "bad " + field + " '" + printable(raw) + "': " + e.getMessage());
    }
  }

  /** The NFC form of {@code s} (how every source is compared). */
  public static String nfc(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFC);
  }

  /** The segments, in order (at least one). */
  public List<String> segments() {
    return List.of(value.split("/"));
  }

  /** The last segment. */
  public String fileName() {
    return value.substring(value.lastIndexOf('/') + 1);
  }

  /**
   * {@code name} inside this folder.
   *
   * @throws IllegalArgumentException when {@code name} is not one normal segment
   */
  public SourcePath child(String name) {
    if (name.contains("/")) {
      throw new IllegalArgumentException("not one segment: " + name);
    }
    return new SourcePath(value + "/" + name);
  }

  /** {@code name} in {@code folder}, or at the root when {@code folder} is empty. */
  public static SourcePath in(Optional<SourcePath> folder, String name) {
    return folder.map(f -> f.child(name)).orElseGet(() -> new SourcePath(name));
  }

  @Override
  public String toString() {
    return value;
  }

  // ------------------------------------------------------------------ normalisation

  /** Why a path has no normal form; the message is for the client. */
  private static class Bad extends Exception {
    Bad(String message) {
      super(message, null, false, false);
    }
  }

  /** A path that normalises to the docs folder itself. */
  private static final class Empty extends Bad {
    Empty() {
      super("names no file");
    }
  }

  private static String normalise(String raw) throws Bad {
    if (raw == null || raw.isEmpty()) {
      throw new Empty();
    }
    if (raw.length() > MAX_CHARS) {
      throw new Bad("longer than " + MAX_CHARS + " characters");
    }
    for (int i = 0; i < raw.length(); ) {
      int cp = raw.codePointAt(i);
      int type = Character.getType(cp);
      // line and paragraph separators (U+2028, U+2029) end a line in some log readers, like LF
      if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE
          || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
          || cp == 0xFFFD) {
        throw new Bad("control, format or invalid character U+"
            + String.format("%04X", cp));
      }
      if (cp == '\\') {
        throw new Bad("backslash is not allowed; separate folders with '/'");
      }
      i += Character.charCount(cp);
    }
    String s = nfc(raw);
    if (s.startsWith("/")) {
      throw new Bad("absolute path; give it relative to the docs folder");
    }
    if (s.length() >= 2 && s.charAt(1) == ':' && Character.isLetter(s.charAt(0))) {
      throw new Bad("drive letter; give the path relative to the docs folder");
    }
    Deque<String> out = new ArrayDeque<>();
    for (String seg : s.split("/", -1)) {
      if (seg.isEmpty() || seg.equals(".")) {
        continue;
      }
      if (seg.equals("..")) {
        if (out.isEmpty()) {
          throw new Bad("'..' leaves the docs folder");
        }
        out.removeLast();
        continue;
      }
      if (seg.startsWith(".")) {
        throw new Bad("a segment starts with '.' (hidden files are not documents)");
      }
      if (seg.getBytes(StandardCharsets.UTF_8).length > MAX_SEGMENT_BYTES) {
        throw new Bad("a segment is longer than " + MAX_SEGMENT_BYTES + " bytes");
      }
      out.addLast(seg);
    }
    if (out.isEmpty()) {
      throw new Empty();
    }
    return String.join("/", out);
  }

  /** {@code raw} for an error message: control characters escaped, at most 200 characters. */
  private static String printable(String raw) {
    if (raw == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    raw.codePoints().limit(200).forEach(cp -> {
      int type = Character.getType(cp);
      if (type == Character.CONTROL || type == Character.FORMAT || type == Character.SURROGATE) {
        b.append(String.format("\\u%04X", cp));
      } else {
        b.appendCodePoint(cp);
      }
    });
    return b.toString();
  }
}
