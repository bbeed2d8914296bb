package org.openbook.bench.scale;

import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Brute-force nearest neighbours by dot product (cosine for the unit vectors of the corpus) over
 * the first N chunks of a corpus, restricted to departments: the exact reference of the HNSW
 * recall.
 */
final class ExactKnn {
  /**
   * Tolerance of the distance-threshold recall, in cosine: ANN-Benchmarks' {@code knn} metric
   * (Aumüller, Bernhardsson and Faithfull, "ANN-Benchmarks", Information Systems 87, 2020;
   * {@code ann_benchmarks/plotting/metrics.py}, epsilon 1e-3 on the angular distance 1 − cos).
   */
  static final double EPSILON = 1e-3;

  private final float[] flat;
  private final java.util.Map<String, Integer> positions = new java.util.HashMap<>();
  private final String[] depts;
  private final String[] ids;
  private final int dim;

  ExactKnn(List<ScaleChunk> corpus, int dim) {
    this.dim = dim;
    this.flat = new float[corpus.size() * dim];
    this.depts = new String[corpus.size()];
    this.ids = new String[corpus.size()];
    for (int i = 0; i < corpus.size(); i++) {
      System.arraycopy(corpus.get(i).vector(), 0, flat, i * dim, dim);
      depts[i] = corpus.get(i).dept();
      ids[i] = corpus.get(i).id();
      positions.put(ids[i], i);
    }
  }

  /** The exact top-k of a query: ids, and the k-th best score (−∞ if fewer are allowed). */
  record Top(Set<String> ids, double kthScore) {}

  /** The cosine of chunk {@code id} to {@code q}. */
  double score(float[] q, String id) {
    Integer i = positions.get(id);
    if (i == null) {
      throw new IllegalArgumentException("no chunk " + id + " in the corpus");
    }
    return dot(q, i);
  }

  private double dot(float[] q, int i) {
    // float products summed in four lanes: the order of a SIMD dot product, a few times faster
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int o = i * dim;
    int j = 0;
    for (; j + 3 < dim; j += 4) {
      s0 += q[j] * flat[o + j];
      s1 += q[j + 1] * flat[o + j + 1];
      s2 += q[j + 2] * flat[o + j + 2];
      s3 += q[j + 3] * flat[o + j + 3];
    }
    for (; j < dim; j++) {
      s0 += q[j] * flat[o + j];
    }
    return (double) s0 + s1 + s2 + s3;
  }

  /** Ids of the top {@code k} chunks among the first {@code n} whose department is allowed. */
  Set<String> top(float[] q, int n, int k, Set<String> allowed) {
    return topWithScore(q, n, k, allowed).ids();
  }

  /** As {@link #top}, with the k-th best score. */
  Top topWithScore(float[] q, int n, int k, Set<String> allowed) {
    PriorityQueue<double[]> best = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    for (int i = 0; i < n; i++) {
      if (!allowed.contains(depts[i])) {
        continue;
      }
      double s = dot(q, i);
      if (best.size() < k) {
        best.add(new double[] {s, i});
      } else if (s > best.peek()[0]) {
        best.poll();
        best.add(new double[] {s, i});
      }
    }
    double kth = best.size() < k ? Double.NEGATIVE_INFINITY : best.peek()[0];
    Set<String> out = new java.util.HashSet<>();
    for (double[] e : best) {
      out.add(ids[(int) e[1]]);
    }
    return new Top(out, kth);
  }
}
