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
  private final float[] flat;
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
    }
  }

  /** Ids of the top {@code k} chunks among the first {@code n} whose department is allowed. */
  Set<String> top(float[] q, int n, int k, Set<String> allowed) {
    PriorityQueue<double[]> best = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    for (int i = 0; i < n; i++) {
      if (!allowed.contains(depts[i])) {
        continue;
      }
      double s = 0;
      int o = i * dim;
      for (int j = 0; j < dim; j++) {
        s += q[j] * flat[o + j];
      }
      if (best.size() < k) {
        best.add(new double[] {s, i});
      } else if (s > best.peek()[0]) {
        best.poll();
        best.add(new double[] {s, i});
      }
    }
    Set<String> out = new java.util.HashSet<>();
    for (double[] e : best) {
      out.add(ids[(int) e[1]]);
    }
    return out;
  }
}
