package org.openbook.embed;

/**
 * The bounded form of a query text for the embedding model: a question longer than the model
 * reads ({@link Embedder#maxInputTokens()}, 512 tokens for bge-small-zh-v1.5, about 500 Chinese
 * characters) is embedded as its beginning and its end joined by {@code " … "}, the longest such
 * form that fits, half the characters from each side. The beginning usually states the subject,
 * the end usually holds the actual question after pasted context (a log, an error message). Only
 * the dense route and sentence choice see this form; BM25 and the answer gates keep the full
 * text. Chunks are never bounded this way: the chunker keeps them within the limit.
 */
public final class BoundedInput {

  /** What joins the two kept ends. */
  public static final String ELISION = " … ";

  private BoundedInput() {}

  /**
   * {@code text} itself when it fits {@code embedder}'s input limit, else its bounded form.
   *
   * @return a text of at most {@link Embedder#maxInputTokens()} tokens (an empty string only if
   *     even the elision alone does not fit)
   */
  public static String of(String text, Embedder embedder) {
    int limit = embedder.maxInputTokens();
    if (embedder.fitsTokens(text, limit)) {
      return text;
    }
    int[] cps = text.codePoints().toArray();
    int lo = 0;
    int hi = cps.length;
    String best = "";
    // Largest number of kept code points whose bounded form fits: tokens grow with it.
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      String candidate = ends(cps, mid);
      if (embedder.fitsTokens(candidate, limit)) {
        best = candidate;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best;
  }

  private static String ends(int[] cps, int keep) {
    int head = (keep + 1) / 2;
    int tail = keep / 2;
    return (new String(cps, 0, head).strip() + ELISION
        + new String(cps, cps.length - tail, tail).strip()).strip();
  }
}
