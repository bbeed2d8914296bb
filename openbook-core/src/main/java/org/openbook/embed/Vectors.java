package org.openbook.embed;

/** Small vector helpers. Cosine is computed on L2-normalised vectors as a dot product. */
public final class Vectors {
  private Vectors() {}

  /**
   * Returns {@code v} scaled to unit L2 norm (a new array); a zero vector is returned unchanged.
   */
  public static float[] normalize(float[] v) {
    double norm = 0;
    for (float f : v) {
      norm += (double) f * f;
    }
    float[] out = v.clone();
    if (norm == 0) {
      return out;
    }
    double inv = 1 / Math.sqrt(norm);
    for (int i = 0; i < out.length; i++) {
      out[i] = (float) (out[i] * inv);
    }
    return out;
  }

  /**
   * Cosine similarity of two vectors of equal length, in [-1, 1]; higher is more similar.
   *
   * @throws IllegalArgumentException if the lengths differ
   */
  public static double cosine(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
    }
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += (double) a[i] * b[i];
      na += (double) a[i] * a[i];
      nb += (double) b[i] * b[i];
    }
    return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}
