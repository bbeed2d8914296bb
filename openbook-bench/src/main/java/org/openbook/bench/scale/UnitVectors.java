package org.openbook.bench.scale;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.embed.Embedder;
import org.openbook.embed.Vectors;

/**
 * Model vectors of the text units the scale corpus is built from (whole chunk texts, prefixes,
 * sentences), and the derived vector of a text made of such units.
 *
 * <p>Derived vector of a text made of units u₁…uₙ (its prefix and its sentences):
 * {@code normalize(Σ |uᵢ| · v(uᵢ))}, the unit vectors weighted by their length in characters.
 * bge-small-zh-v1.5 pools the CLS token, not the mean of token states, so this is an
 * approximation whose quality is measured, not assumed (docs/PERFORMANCE.md, "Validation").
 */
public final class UnitVectors {

  private final Map<String, float[]> vectors = new HashMap<>();
  private final int dimension;

  private UnitVectors(int dimension) {
    this.dimension = dimension;
  }

  /**
   * Embeds every distinct non-blank unit (stripped) with {@code embedder}, in batches of
   * {@code batch}, shortest first (less padding), reporting progress on stderr.
   */
  public static UnitVectors embed(Collection<String> units, Embedder embedder, int batch) {
    return embed(units, embedder, batch, () -> { });
  }

  /**
   * As {@link #embed(Collection, Embedder, int)}, calling {@code checkpoint} every 20 batches
   * (e.g. to commit the embedding cache, so an interrupted run keeps what it embedded).
   */
  public static UnitVectors embed(Collection<String> units, Embedder embedder, int batch,
      Checkpoint checkpoint) {
    Set<String> distinct = new LinkedHashSet<>();
    for (String u : units) {
      String t = u.strip();
      if (!t.isEmpty()) {
        distinct.add(t);
      }
    }
    List<String> todo = new ArrayList<>(distinct);
    todo.sort(Comparator.comparingInt(String::length));
    UnitVectors out = new UnitVectors(embedder.dimension());
    long t0 = System.nanoTime();
    for (int i = 0; i < todo.size(); i += batch) {
      List<String> part = todo.subList(i, Math.min(todo.size(), i + batch));
      List<float[]> v = embedder.embedAll(part);
      for (int j = 0; j < part.size(); j++) {
        out.vectors.put(part.get(j), v.get(j));
      }
      if ((i / batch) % 20 == 0) {
        checkpoint.run();
        System.err.printf("units %,d / %,d (%.0f s)%n", i + part.size(), todo.size(),
            (System.nanoTime() - t0) / 1e9);
      }
    }
    return out;
  }

  /** Called between batches. */
  public interface Checkpoint {
    /** Runs between two batches; failures are the caller's to report. */
    void run();
  }

  /** Dimension of the vectors. */
  public int dimension() {
    return dimension;
  }

  /**
   * The model vector of {@code unit} (stripped).
   *
   * @throws IllegalArgumentException if it was not embedded
   */
  public float[] of(String unit) {
    float[] v = vectors.get(unit.strip());
    if (v == null) {
      throw new IllegalArgumentException("unit was not embedded: " + preview(unit));
    }
    return v;
  }

  /**
   * The derived unit vector of the text made of {@code prefix} (may be empty) and
   * {@code sentences}: the length-weighted mean of their model vectors, normalised.
   */
  public float[] derive(String prefix, List<String> sentences) {
    float[] sum = new float[dimension];
    add(sum, prefix);
    for (String s : sentences) {
      add(sum, s);
    }
    return Vectors.normalize(sum);
  }

  private void add(float[] sum, String unit) {
    String t = unit.strip();
    if (t.isEmpty()) {
      return;
    }
    float[] v = of(t);
    float w = t.length();
    for (int i = 0; i < sum.length; i++) {
      sum[i] += w * v[i];
    }
  }

  private static String preview(String t) {
    return t.length() <= 40 ? t : t.substring(0, 40) + "…";
  }
}
