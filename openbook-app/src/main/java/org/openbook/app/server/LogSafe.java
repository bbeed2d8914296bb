package org.openbook.app.server;

/**
 * Escapes values that come from a request (headers, claims, paths, body fields, file names)
 * before they reach a log line, so a value cannot start a line of its own or rewrite the
 * terminal: {@code \r}, {@code \n} and {@code \t} become {@code \\r}, {@code \\n}, {@code \\t};
 * every other control character (C0, DEL, C1 such as U+0085 NEL, which includes ESC of ANSI
 * sequences), line and paragraph separators (U+2028, U+2029), format characters (bidi
 * overrides, zero-width characters, BOM), unassigned code points and lone surrogates become
 * {@code \\uXXXX}. Everything else, Chinese included, is kept. A backslash is kept as it is, so
 * JSON text (an audit line) stays valid JSON after escaping.
 */
public final class LogSafe {
  private LogSafe() {}

  /** {@code value} escaped for a log line; {@code "null"} for {@code null}. */
  public static String of(Object value) {
    String s = String.valueOf(value);
    int i = 0;
    while (i < s.length() && !escaped(s, i)) {
      i += Character.charCount(s.codePointAt(i));
    }
    if (i == s.length()) {
      return s;
    }
    StringBuilder out = new StringBuilder(s.length() + 16).append(s, 0, i);
    while (i < s.length()) {
      int cp = s.codePointAt(i);
      int n = Character.charCount(cp);
      if (!escaped(s, i)) {
        out.appendCodePoint(cp);
      } else if (cp == '\r') {
        out.append("\\r");
      } else if (cp == '\n') {
        out.append("\\n");
      } else if (cp == '\t') {
        out.append("\\t");
      } else {
        for (char c : Character.toChars(cp)) {
          out.append(String.format("\\u%04X", (int) c));
        }
      }
      i += n;
    }
    return out.toString();
  }

  /**
   * {@code e} as it is logged, with every message in its cause chain (and suppressed ones)
   * escaped and the stack traces kept: exception messages often quote request values.
   */
  public static Throwable of(Throwable e) {
    return e == null ? null : Escaped.escape(e, 0);
  }

  private static boolean escaped(String s, int i) {
    int cp = s.codePointAt(i);
    return switch (Character.getType(cp)) {
      case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR,
          Character.PARAGRAPH_SEPARATOR, Character.UNASSIGNED, Character.SURROGATE -> true;
      default -> false;
    };
  }

  /** A stand-in printing the original class name and an escaped message. */
  private static final class Escaped extends Throwable {
    private static final int MAX_DEPTH = 16;
    private final String text;

    private Escaped(Throwable e, Throwable cause, int depth) {
      super(null, cause, true, true);
      String m = e.getMessage();
      this.text = e.getClass().getName() + (m == null ? "" : ": " + of(m));
      setStackTrace(e.getStackTrace());
      if (depth < MAX_DEPTH) {
        for (Throwable s : e.getSuppressed()) {
          addSuppressed(escape(s, depth + 1));
        }
      }
    }

    /** The stand-in of {@code e} and its causes; bounded, so a cause cycle cannot loop. */
    static Escaped escape(Throwable e, int depth) {
      Throwable c = e.getCause();
      return new Escaped(e, c != null && c != e && depth < MAX_DEPTH
          ? escape(c, depth + 1) : null, depth);
    }

    @Override
    public String toString() {
      return text;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }
}
