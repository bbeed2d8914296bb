package org.openbook.app.cli;

import org.openbook.chunk.Chunk;

/** Plain-text rendering shared by the verbs. */
final class Display {
  private Display() {}

  /** {@code file p.N › heading path}. */
  static String location(Chunk c) {
    StringBuilder sb = new StringBuilder(c.source());
    if (c.page() > 0) {
      sb.append(" p.").append(c.page());
    }
    if (!c.headingPath().isEmpty()) {
      sb.append(" › ").append(c.headingLabel());
    }
    return sb.toString();
  }

  /** {@code #rank (score)} or {@code -} when the route did not return the chunk. */
  static String route(int rank, double score) {
    return rank == 0 ? "-" : "#" + rank + " (" + score(score) + ")";
  }

  static String score(double s) {
    return Double.isNaN(s) ? "n/a" : String.format("%.4f", s);
  }

  /** The text on one line, cut to {@code max} code points. */
  static String snippet(String text, int max) {
    String one = text.replaceAll("\\s+", " ").trim();
    if (one.codePointCount(0, one.length()) <= max) {
      return one;
    }
    return one.substring(0, one.offsetByCodePoints(0, max)) + "…";
  }
}
