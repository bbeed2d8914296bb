package org.openbook.answer;

import org.openbook.retrieve.Hit;

/**
 * One numbered passage given to the generator and shown to the user as {@code [n]}.
 *
 * @param n           1-based number, equal to the position in the list the generator saw
 * @param chunkId     the chunk's id
 * @param source      file path relative to the corpus root
 * @param headingPath heading path joined with {@code " > "}, possibly empty
 * @param page        1-based page, or 0 for documents without pages
 * @param text        the passage text ({@code raw}) exactly as given to the generator
 * @param hit         the retrieval hit with its per-route ranks and scores
 */
public record Source(
    int n, String chunkId, String source, String headingPath, int page, String text, Hit hit) {

  /** Builds source {@code n} from a hit. */
  public static Source of(int n, Hit hit) {
    var c = hit.chunk();
    return new Source(n, c.id(), c.source(), c.headingLabel(), c.page(), c.raw(), hit);
  }

  /**
   * Where the passage is, for display: {@code file › heading}, {@code file p.3} (PDF page),
   * {@code file slide 3} (PowerPoint, OpenDocument presentation), {@code file › 商用设备!A41:G46} (spreadsheet range), with
   * {@code (OCR)} after the page when its text was recognised by OCR.
   */
  public String location() {
    StringBuilder sb = new StringBuilder(source);
    var meta = hit == null ? java.util.Map.<String, String>of() : hit.chunk().meta();
    String format = meta.getOrDefault("format", "");
    if (page > 0) {
      boolean slides = format.equals("pptx") || format.equals("ppt") || format.equals("odp");
      sb.append(slides ? " slide " : " p.").append(page);
      if ("true".equals(meta.get(org.openbook.chunk.StructuredChunker.OCR))) {
        sb.append(" (OCR)");
      }
    }
    String range = meta.get(org.openbook.chunk.StructuredChunker.CELL_RANGE);
    if (range != null) {
      return sb.append(" › ").append(range).toString();
    }
    if (!headingPath.isEmpty()) {
      sb.append(" › ").append(headingPath);
    }
    return sb.toString();
  }
}
