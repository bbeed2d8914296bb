package org.openbook.bench.scale;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.eval.SquadDataset;
import org.openbook.index.AccessFilter;
import org.openbook.bench.SquadBenchmark;

/**
 * Where the dense route's time goes on an index built by {@link ScaleBenchmark}: per question
 * (interleaved, after a warm-up) the store's {@code searchDense} (top-50, filter {public}), the
 * bare Lucene kNN query with the same filter (no stored fields read), the bare query without a
 * filter, and the filtered query on a searcher that searches segments in parallel. Prints
 * p50/p95 per variant and the segment count.
 *
 * <p>Usage: {@code DenseRouteProfile INDEX SHARED_DIR [QUESTIONS]}.
 */
public final class DenseRouteProfile {

  private DenseRouteProfile() {}

  public static void main(String[] args) throws Exception {
    Path index = Path.of(args[0]);
    int n = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
    SquadDataset data = SquadDataset.read("cmrc2018",
        Path.of(args[1]).resolve(SquadBenchmark.DATASETS.get("cmrc2018")));
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < n + 20; i++) {
      vectors.add(model.embed(data.questions().get(i * 7 % data.questions().size()).text()));
    }
    Query filter = new TermInSetQuery("dept", List.of(new BytesRef("public")));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (FSDirectory dir = FSDirectory.open(index);
        DirectoryReader reader = DirectoryReader.open(dir);
        OpenBook engine = OpenBook.builder().index(index).config(OpenBookConfig.defaults())
            .embedder(model).mode(OpenBook.Mode.READ).build()) {
      IndexSearcher plain = new IndexSearcher(reader);
      IndexSearcher parallel = new IndexSearcher(reader, pool);
      AccessFilter pub = new AccessFilter(Set.of("public"));
      String[] names = {"store.searchDense", "lucene kNN + filter", "lucene kNN, no filter",
          "lucene kNN + filter, parallel segments"};
      double[][] ms = new double[names.length][n];
      for (int i = -20; i < n; i++) {
        float[] v = vectors.get(i + 20);
        double[] t = new double[names.length];
        long t0 = System.nanoTime();
        engine.store().searchDense(v, 50, pub);
        t[0] = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        plain.search(new KnnFloatVectorQuery("vector", v, 50, filter), 50);
        t[1] = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        plain.search(new KnnFloatVectorQuery("vector", v, 50), 50);
        t[2] = (System.nanoTime() - t0) / 1e6;
        t0 = System.nanoTime();
        parallel.search(new KnnFloatVectorQuery("vector", v, 50, filter), 50);
        t[3] = (System.nanoTime() - t0) / 1e6;
        if (i >= 0) {
          for (int s = 0; s < names.length; s++) {
            ms[s][i] = t[s];
          }
        }
      }
      System.out.printf(Locale.ROOT, "%s: %d docs, %d segments, %d questions%n", index,
          reader.numDocs(), reader.leaves().size(), n);
      for (int s = 0; s < names.length; s++) {
        Latency l = Latency.of(ms[s]);
        System.out.printf(Locale.ROOT, "%-40s p50 %7.2f  p95 %7.2f  p99 %7.2f ms%n", names[s],
            l.p50(), l.p95(), l.p99());
      }
    } finally {
      pool.shutdown();
    }
  }
}
