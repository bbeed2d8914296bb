package org.openbook.eval;

import java.text.Normalizer;
import java.util.List;

/**
 * Whether answers hold the fragments a labelled case expects ({@code answer_contains}).
 *
 * <p>Compared as the kb-demo fixture suggests: NFKC (full-width to half-width), lower case,
 * every whitespace removed, on both sides, so {@code 48} matches {@code ４８} and
 * {@code 48 小时} matches {@code 48小时}.
 *
 * @param cases    answerable cases with at least one expected fragment that were asked, ≥ 0
 * @param complete of those, answers holding every fragment, in [0, cases]
 * @param missed   ids of the other cases, in run order
 */
public record AnswerContains(int cases, int complete, List<String> missed) {

  /** No cases yet. */
  public static final AnswerContains EMPTY = new AnswerContains(0, 0, List.of());

  public AnswerContains {
    missed = List.copyOf(missed);
  }

  /** These counts plus one case; {@code id} is listed as missed unless {@code ok}. */
  public AnswerContains add(String id, boolean ok) {
    List<String> m = new java.util.ArrayList<>(missed);
    if (!ok) {
      m.add(id);
    }
    return new AnswerContains(cases + 1, complete + (ok ? 1 : 0), m);
  }

  /** Share of the cases whose answer holds every fragment, in [0, 1]; NaN with no cases. */
  public double share() {
    return cases == 0 ? Double.NaN : (double) complete / cases;
  }

  /**
   * Whether {@code answer} holds every one of {@code fragments} after normalisation.
   *
   * @param answer    the answer text; null holds nothing
   * @param fragments expected fragments; an empty list is held by any answer
   */
  public static boolean holdsAll(String answer, List<String> fragments) {
    String a = answer == null ? "" : normalize(answer);
    return fragments.stream().allMatch(f -> a.contains(normalize(f)));
  }

  static String normalize(String s) {
    return Normalizer.normalize(s, Normalizer.Form.NFKC).toLowerCase(java.util.Locale.ROOT)
        .replaceAll("\\s+", "");
  }
}
