package org.openbook.bench.scale;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.knn.KnnCollectorManager;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.eval.Percentiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Why HNSW recall@10 falls at 200k chunks, and which knob closes the gap: on indexes already
 * built by {@link ScaleBenchmark} (same corpus, same seed), measures per filter
 *
 * <ul>
 *   <li>the exact top-10's tie structure: the score gap between the exact 10th and 11th
 *       neighbour (a gap of 0 means the 10th place is a tie, so an id-based recall is partly a
 *       coin toss);</li>
 *   <li>recall@10 of the HNSW top 10 two ways: id-based (share of the exact top-10 ids found) and
 *       distance-threshold based as in ANN-Benchmarks (Aumüller, Bernhardsson, Faithfull,
 *       Information Systems 87, 2020; {@code ann_benchmarks/plotting/metrics.py}, {@code knn}
 *       with epsilon 1e-3): a returned hit counts if its exact cosine is at least the exact
 *       10th cosine minus 1e-3;</li>
 *   <li>for each HNSW candidate count (the k of Lucene's {@code KnnFloatVectorQuery}, i.e.
 *       efSearch; the top fetch-k of the candidates are kept) with Lucene's cross-segment
 *       pruning (a shared top-k heap, {@code MultiLeafKnnCollector}, Lucene 9.10+) and without
 *       it (each segment searched to its own top-k), the bare Lucene search time per question
 *       with filter {@code public}.</li>
 * </ul>
 * Prints one Markdown table per index. Usage: {@code HnswStudy --shared ../shared --work W
 * --index label=PATH [--index ...] [--candidates 50,100,200]}.
 */
@Command(name = "hnsw-study", mixinStandardHelpOptions = true,
    description = "HNSW recall@10 (id and distance-threshold) and kNN time per candidate count.")
public final class HnswStudy implements Callable<Integer> {

  /** ANN-Benchmarks' epsilon of the distance-threshold recall ({@code metrics.py}, knn). */
  static final double EPSILON = 1e-3;

  @Option(names = "--shared", description = "Shared data folder (default: ../shared).")
  Path shared = Paths.get("../shared");

  @Option(names = "--work", required = true, description = "Folder holding embedding-cache.")
  Path work;

  @Option(names = "--index", required = true, description = "label=PATH of a built index; repeatable.")
  Map<String, Path> indexes;

  @Option(names = "--chunks", defaultValue = "200000", description = "Corpus size of the indexes.")
  int chunks;

  @Option(names = "--candidates", split = ",", defaultValue = "50,100,200",
      description = "HNSW candidate counts (k of the Lucene query, >= fetch-k).")
  int[] candidates;

  @Option(names = "--fetch-k", defaultValue = "50", description = "Hits kept (the retriever's fetch-k).")
  int fetchK;

  @Option(names = "--recall-queries", defaultValue = "200")
  int recallQueries;

  @Option(names = "--timed", defaultValue = "300", description = "Timed questions per variant.")
  int timed;

  @Option(names = "--pool", defaultValue = "1000")
  int pool;

  @Option(names = "--seed", defaultValue = "42")
  long seed;

  @Override
  public Integer call() throws Exception {
    BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
    List<ScaleChunk> corpus;
    QueryVectors queries;
    List<String> questions;
    try (EmbeddingCache cache = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      CachingEmbedder cached = new CachingEmbedder(model, cache);
      ScaleBenchmark.Sources s = ScaleBenchmark.sources(shared, model, Math.max(timed,
          recallQueries), List.of());
      corpus = ScaleBenchmark.corpus(s.passages(), cached, chunks, seed, pool);
      questions = s.questions();
      queries = new QueryVectors(cached, questions);
    }
    int dim = model.dimension();
    float[][] qv = new float[questions.size()][];
    for (int i = 0; i < qv.length; i++) {
      qv[i] = queries.of(questions.get(i));
    }
    Map<String, Integer> byId = new HashMap<>();
    for (ScaleChunk c : corpus) {
      byId.put(c.id(), c.n());
    }
    int m = Math.min(recallQueries, questions.size());
    List<Set<String>> filters = ScaleMeasurement.RECALL_FILTERS;
    // exact: sorted scores of the top 11 and the top-10 positions, per filter and question
    double[][][] exactScores = new double[filters.size()][m][];
    int[][][] exactIds = new int[filters.size()][m][];
    // the exact truth depends only on corpus and questions: cached across runs
    Path truthFile = work.resolve(String.format(Locale.ROOT, "exact-top11-%d-%d-%d-%d.bin",
        chunks, m, seed, pool));
    if (java.nio.file.Files.exists(truthFile)) {
      try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
          java.nio.file.Files.newInputStream(truthFile))) {
        exactIds = (int[][][]) in.readObject();
        exactScores = (double[][][]) in.readObject();
      }
    } else {
      for (int f = 0; f < filters.size(); f++) {
        for (int i = 0; i < m; i++) {
          Object[] top = exactTop(corpus, qv[i], 11, filters.get(f), dim);
          exactIds[f][i] = (int[]) top[0];
          exactScores[f][i] = (double[]) top[1];
        }
        ScaleMeasurement.log("exact top-11 done for filter %s", filters.get(f));
      }
      try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(
          java.nio.file.Files.newOutputStream(truthFile))) {
        out.writeObject(exactIds);
        out.writeObject(exactScores);
      }
    }
    System.out.println("## Exact top-10: score gap between the 10th and 11th neighbour\n");
    System.out.println("| filter | gap = 0 (tie) | gap < 1e-4 | gap < 1e-3 | gap p10 / p50 / p90 |"
        + " 10th score p50 |");
    System.out.println("|---|---:|---:|---:|---|---:|");
    for (int f = 0; f < filters.size(); f++) {
      double[] gaps = new double[m];
      double[] tenth = new double[m];
      for (int i = 0; i < m; i++) {
        gaps[i] = exactScores[f][i][9] - exactScores[f][i][10];
        tenth[i] = exactScores[f][i][9];
      }
      System.out.printf(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.2e / %.2e / %.2e | %.4f |%n",
          name(filters.get(f)), share(gaps, 0), share(gaps, 1e-4), share(gaps, 1e-3),
          Percentiles.of(gaps, 10), Percentiles.of(gaps, 50), Percentiles.of(gaps, 90),
          Percentiles.of(tenth, 50));
    }
    for (Map.Entry<String, Path> e : indexes.entrySet()) {
      try (FSDirectory dir = FSDirectory.open(e.getValue());
          DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        int[] docToCorpus = docToCorpus(reader, byId);
        System.out.printf(Locale.ROOT, "%n## %s (%s): %,d docs, %d segments; fetch-k %d%n%n",
            e.getKey(), e.getValue(), reader.numDocs(), reader.leaves().size(), fetchK);
        System.out.println("| candidates | cross-segment pruning | filter | recall@10 (ids) |"
            + " recall@10 (threshold 1e-3) | kNN ms p50 / p99 (filter public) |");
        System.out.println("|---:|---|---|---:|---:|---|");
        for (int cand : candidates) {
          // one segment: nothing to prune across
          for (boolean pruning : reader.leaves().size() > 1 ? new boolean[] {true, false}
              : new boolean[] {true}) {
            double[] t = time(searcher, qv, cand, pruning);
            for (int f = 0; f < filters.size(); f++) {
              double idSum = 0;
              double thSum = 0;
              for (int i = 0; i < m; i++) {
                ScoreDoc[] hits = searcher.search(knn(qv[i], cand, filters.get(f), pruning),
                    Math.max(cand, fetchK)).scoreDocs;
                int[] truth = exactIds[f][i];
                double threshold = exactScores[f][i][9] - EPSILON;
                int idHits = 0;
                int thHits = 0;
                for (int h = 0; h < Math.min(10, Math.min(fetchK, hits.length)); h++) {
                  int c = docToCorpus[hits[h].doc];
                  if (contains(truth, c)) {
                    idHits++;
                  }
                  if (dot(qv[i], corpus.get(c).vector()) >= threshold) {
                    thHits++;
                  }
                }
                idSum += idHits / 10.0;
                thSum += thHits / 10.0;
              }
              System.out.printf(Locale.ROOT, "| %d | %s | %s | %.3f | %.3f | %s |%n", cand,
                  pruning ? "Lucene default (shared heap)" : "off (per segment)",
                  name(filters.get(f)), idSum / m, thSum / m,
                  f == filters.size() - 1 ? String.format(Locale.ROOT, "%.2f / %.2f",
                      Percentiles.of(t, 50), Percentiles.of(t, 99)) : "");
            }
          }
        }
      }
    }
    System.out.printf(Locale.ROOT, "%nload average: %s%n", java.nio.file.Files.readString(
        Path.of("/proc/loadavg")).trim());
    return 0;
  }

  private double[] time(IndexSearcher searcher, float[][] qv, int cand, boolean pruning)
      throws java.io.IOException {
    int n = Math.min(timed, qv.length);
    double[] ms = new double[n];
    for (int i = -Math.min(30, n); i < n; i++) {
      float[] v = qv[Math.floorMod(i, n)];
      long t0 = System.nanoTime();
      searcher.search(knn(v, cand, Set.of("public"), pruning), Math.max(cand, fetchK));
      if (i >= 0) {
        ms[i] = (System.nanoTime() - t0) / 1e6;
      }
    }
    return ms;
  }

  /** The store's filtered kNN query ({@code LuceneChunkStore.searchVectors}) with k candidates. */
  static Query knn(float[] v, int k, Set<String> depts, boolean pruning) {
    Query allowed = new BooleanQuery.Builder()
        .add(new TermInSetQuery("dept", depts.stream().map(BytesRef::new).toList()),
            BooleanClause.Occur.FILTER)
        .add(new FieldExistsQuery("vector"), BooleanClause.Occur.FILTER)
        .build();
    if (pruning) {
      return new KnnFloatVectorQuery("vector", v, k, allowed);
    }
    return new KnnFloatVectorQuery("vector", v, k, allowed) {
      @Override
      protected KnnCollectorManager getKnnCollectorManager(int kk, IndexSearcher searcher) {
        return (visitedLimit, context) -> new TopKnnCollector(kk, visitedLimit);
      }
    };
  }

  private static int[] docToCorpus(DirectoryReader reader, Map<String, Integer> byId)
      throws java.io.IOException {
    int[] out = new int[reader.maxDoc()];
    Arrays.fill(out, -1);
    for (LeafReaderContext leaf : reader.leaves()) {
      StoredFields stored = leaf.reader().storedFields();
      for (int d = 0; d < leaf.reader().maxDoc(); d++) {
        Document doc = stored.document(d, Set.of("id"));
        Integer c = byId.get(doc.get("id"));
        out[leaf.docBase + d] = c == null ? -1 : c;
      }
    }
    return out;
  }

  /** Positions and descending scores of the exact top {@code k} allowed chunks. */
  private static Object[] exactTop(List<ScaleChunk> corpus, float[] q, int k, Set<String> allowed,
      int dim) {
    int[] ids = new int[k];
    double[] scores = new double[k];
    Arrays.fill(scores, Double.NEGATIVE_INFINITY);
    Arrays.fill(ids, -1);
    for (ScaleChunk c : corpus) {
      if (!allowed.contains(c.dept())) {
        continue;
      }
      double s = dot(q, c.vector());
      if (s > scores[k - 1]) {
        int p = k - 1;
        while (p > 0 && scores[p - 1] < s) {
          scores[p] = scores[p - 1];
          ids[p] = ids[p - 1];
          p--;
        }
        scores[p] = s;
        ids[p] = c.n();
      }
    }
    return new Object[] {Arrays.copyOf(ids, 10), scores};
  }

  private static double dot(float[] a, float[] b) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int j = 0;
    for (; j + 3 < a.length; j += 4) {
      s0 += a[j] * b[j];
      s1 += a[j + 1] * b[j + 1];
      s2 += a[j + 2] * b[j + 2];
      s3 += a[j + 3] * b[j + 3];
    }
    for (; j < a.length; j++) {
      s0 += a[j] * b[j];
    }
    return (double) s0 + s1 + s2 + s3;
  }

  private static boolean contains(int[] a, int x) {
    for (int v : a) {
      if (v == x) {
        return true;
      }
    }
    return false;
  }

  private static double share(double[] gaps, double below) {
    return Arrays.stream(gaps).filter(g -> below == 0 ? g <= 0 : g < below).count()
        / (double) gaps.length;
  }

  private static String name(Set<String> filter) {
    return filter.size() == VariantCorpus.DEPARTMENTS.size() ? "none (all five)"
        : String.join("+", new java.util.TreeSet<>(filter));
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new HnswStudy()).execute(args));
  }
}
