package org.openbook.solr.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.openbook.bench.scale.Latency;
import org.openbook.bench.scale.QueryVectors;
import org.openbook.bench.scale.ScaleBenchmark;
import org.openbook.bench.scale.ScaleChunk;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;
import org.openbook.solr.SolrAdmin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The Lucene vs SolrCloud rows of docs/SCALING.md section 2 on the realistic corpus of the scale
 * benchmark (docs/PERFORMANCE.md) instead of random vectors: the same N chunks (real passages
 * and their variants, bge-small-zh-v1.5 vectors, model or derived) go through the same
 * {@link IndexStore} calls into the embedded Lucene store and into a 2-shard collection on a
 * 2-node SolrCloud ({@link MiniSolrCloudCluster} in this JVM unless {@code --solr-url}); then
 * per store, with real questions and their model vectors, filter {public, hr}, top-50: dense and
 * BM25 latency (one query at a time, interleaved between the stores) and the share of the exact
 * filtered top-10 found when asking top-10 and top-50. Prints a Markdown table.
 */
@Command(name = "realistic-scale", mixinStandardHelpOptions = true,
    description = "Embedded Lucene vs SolrCloud at N realistic chunks.")
public final class RealisticScaleBenchmark implements Callable<Integer> {

  static final int TOP_N = 50;
  static final int COMMIT_EVERY = 20_000;
  private static final Set<String> DEPTS = Set.of("public", "hr");

  @Option(names = "--chunks", defaultValue = "200000", description = "Corpus size (default: ${DEFAULT-VALUE}).")
  int chunks;

  @Option(names = "--queries", defaultValue = "200", description = "Timed questions (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--warmup", defaultValue = "30", description = "Warm-up questions (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--shared", description = "Shared data folder (default: $openbook.shared, else ../shared).")
  Path shared;

  @Option(names = "--work", defaultValue = "/tmp/openbook-scale",
      description = "Embedding cache (shared with the scale benchmark), indexes, Solr nodes (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--solr-url", split = ",",
      description = "Existing SolrCloud node URL(s); without it a 2-node cluster starts in-process.")
  List<String> solrUrls;

  @Option(names = "--collection", defaultValue = "scale", description = "Collection, recreated (default: ${DEFAULT-VALUE}).")
  String collection;

  @Option(names = "--seed", defaultValue = "42", description = "Corpus seed, as the scale benchmark (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--pool", defaultValue = "1000", description = "Variant pool, as the scale benchmark (default: ${DEFAULT-VALUE}).")
  int pool;

  @Override
  public Integer call() throws Exception {
    Path root = shared != null ? shared
        : Paths.get(System.getProperty("openbook.shared", "../shared"));
    Files.createDirectories(work);
    MiniSolrCloudCluster cluster = null;
    BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
    try (EmbeddingCache cache = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      CachingEmbedder cached = new CachingEmbedder(model, cache);
      ScaleBenchmark.Sources sources = ScaleBenchmark.sources(root, model,
          queries + warmup, List.of());
      List<ScaleChunk> corpus = ScaleBenchmark.corpus(sources.passages(), cached, chunks, seed,
          pool);
      QueryVectors qv = new QueryVectors(cached, sources.questions());
      cache.commit();
      List<String> urls = solrUrls;
      if (urls == null || urls.isEmpty()) {
        System.setProperty("solr.log.dir", work.resolve("solr-logs").toString());
        Path nodes = work.resolve("solr-nodes");
        deleteTree(nodes);
        cluster = new MiniSolrCloudCluster.Builder(2, nodes).configure();
        urls = List.of(cluster.getJettySolrRunner(0).getBaseUrl().toString(),
            cluster.getJettySolrRunner(1).getBaseUrl().toString());
      }
      OpenBookConfig luceneConfig = OpenBookConfig.defaults();
      OpenBookConfig solrConfig = solrConfig(urls);
      try (var client = solrConfig.resolve(Map.of()).store().solr().orElseThrow().newClient()) {
        SolrAdmin admin = new SolrAdmin(client);
        if (admin.exists(collection)) {
          admin.delete(collection);
        }
      }
      Path luceneDir = work.resolve("compare-lucene");
      deleteTree(luceneDir);
      double luceneSecs = fill(luceneDir, luceneConfig, qv, corpus);
      double solrSecs = fill(work.resolve("compare-solr-state"), solrConfig, qv, corpus);
      try (OpenBook lucene = open(luceneDir, luceneConfig, qv);
          OpenBook solr = open(work.resolve("compare-solr-state"), solrConfig, qv)) {
        List<String> qs = sources.questions();
        AccessFilter filter = new AccessFilter(DEPTS);
        double[][] dense = new double[2][queries];
        double[][] bm25 = new double[2][queries];
        for (int i = -warmup; i < queries; i++) {
          String q = qs.get(i + warmup);
          float[] v = qv.of(q);
          IndexStore[] stores = {lucene.store(), solr.store()};
          for (int s = 0; s < 2; s++) {
            long t0 = System.nanoTime();
            stores[s].searchDense(v, TOP_N, filter);
            long t1 = System.nanoTime();
            stores[s].searchSparse(q, TOP_N, filter);
            long t2 = System.nanoTime();
            if (i >= 0) {
              dense[s][i] = (t1 - t0) / 1e6;
              bm25[s][i] = (t2 - t1) / 1e6;
            }
          }
        }
        double[][] recall = new double[2][2];
        int m = Math.min(queries, 100);
        for (int i = 0; i < m; i++) {
          float[] v = qv.of(qs.get(warmup + i));
          Set<String> truth = exactTop10(corpus, v);
          IndexStore[] stores = {lucene.store(), solr.store()};
          for (int s = 0; s < 2; s++) {
            for (int kk = 0; kk < 2; kk++) {
              List<ScoredChunk> hits = stores[s].searchDense(v, kk == 0 ? 10 : TOP_N, filter);
              recall[s][kk] += hits.stream().limit(10)
                  .filter(h -> truth.contains(h.chunk().id())).count() / 10.0 / m;
            }
          }
        }
        Latency ld = Latency.of(dense[0]);
        Latency sd = Latency.of(dense[1]);
        Latency lb = Latency.of(bm25[0]);
        Latency sb = Latency.of(bm25[1]);
        System.out.printf(Locale.ROOT, "%n%,d chunks; %d questions after %d warm-up; filter "
            + "{public, hr} (%.3f of the chunks); top-%d%n%n", chunks, queries, warmup,
            corpus.stream().filter(c -> DEPTS.contains(c.dept())).count() / (double) chunks,
            TOP_N);
        System.out.println("| | embedded Lucene | SolrCloud, 2 shards (in-process) |");
        System.out.println("|---|---:|---:|");
        System.out.printf(Locale.ROOT, "| ingest, incl. commits every %,d | %.1f s = **%.0f "
            + "chunks/s** | %.1f s = **%.0f chunks/s** |%n", COMMIT_EVERY, luceneSecs,
            chunks / luceneSecs, solrSecs, chunks / solrSecs);
        System.out.printf(Locale.ROOT, "| dense kNN top-%d: p50 / p95 / p99 / mean ms | %s | %s |%n",
            TOP_N, l(ld), l(sd));
        System.out.printf(Locale.ROOT, "| BM25 top-%d: p50 / p95 / p99 / mean ms | %s | %s |%n",
            TOP_N, l(lb), l(sb));
        System.out.printf(Locale.ROOT, "| Lucene index on disk | %.0f MB | |%n",
            size(luceneDir) / 1e6);
        System.out.printf(Locale.ROOT, "| share of the exact filtered top-10 found, asking "
            + "top-10 | %.3f | %.3f |%n", recall[0][0], recall[1][0]);
        System.out.printf(Locale.ROOT, "| share of the exact filtered top-10 found, asking "
            + "top-%d | %.3f | %.3f |%n", TOP_N, recall[0][1], recall[1][1]);
      }
      return 0;
    } finally {
      if (cluster != null) {
        cluster.shutdown();
      }
    }
  }

  private static String l(Latency l) {
    return String.format(Locale.ROOT, "%.1f / %.1f / %.1f / %.1f", l.p50(), l.p95(), l.p99(),
        l.mean());
  }

  private static Set<String> exactTop10(List<ScaleChunk> corpus, float[] q) {
    PriorityQueue<Map.Entry<Double, String>> best =
        new PriorityQueue<>(Comparator.comparingDouble(Map.Entry::getKey));
    for (ScaleChunk c : corpus) {
      if (!DEPTS.contains(c.dept())) {
        continue;
      }
      double s = 0;
      float[] v = c.vector();
      for (int j = 0; j < v.length; j++) {
        s += q[j] * v[j];
      }
      if (best.size() < 10) {
        best.add(Map.entry(s, c.id()));
      } else if (s > best.peek().getKey()) {
        best.poll();
        best.add(Map.entry(s, c.id()));
      }
    }
    Set<String> out = new HashSet<>();
    best.forEach(e -> out.add(e.getValue()));
    return out;
  }

  private static OpenBook open(Path index, OpenBookConfig config, QueryVectors qv)
      throws IOException {
    return OpenBook.builder().index(index).config(config).embedder(qv).environment(Map.of())
        .mode(OpenBook.Mode.READ).build();
  }

  /** Writes the corpus, one document per 10 chunks, committing every 20k; returns seconds. */
  private static double fill(Path index, OpenBookConfig config, QueryVectors qv,
      List<ScaleChunk> corpus) throws IOException {
    long t0 = System.nanoTime();
    try (OpenBook kb = OpenBook.builder().index(index).config(config).embedder(qv)
        .environment(Map.of()).mode(OpenBook.Mode.RESET).build()) {
      IndexStore store = kb.store();
      List<EmbeddedChunk> doc = new ArrayList<>();
      for (int i = 0; i < corpus.size(); i++) {
        doc.add(corpus.get(i).toEmbedded());
        if (doc.size() == 10 || i == corpus.size() - 1) {
          store.replaceDocument(corpus.get(i).docId(), doc);
          doc = new ArrayList<>();
        }
        if ((i + 1) % COMMIT_EVERY == 0) {
          store.commit();
          System.err.printf(Locale.ROOT, "%s: %,d chunks, %.0f s%n", index.getFileName(), i + 1,
              (System.nanoTime() - t0) / 1e9);
        }
      }
      store.commit();
    }
    return (System.nanoTime() - t0) / 1e9;
  }

  private OpenBookConfig solrConfig(List<String> urls) throws IOException {
    Path yaml = work.resolve("openbook-solr-scale.yaml");
    Files.writeString(yaml, "store:\n  type: solr\n  solrUrls: [" + String.join(", ", urls)
        + "]\n  collection: " + collection + "\n  shards: 2\n  replicas: 1\n",
        StandardCharsets.UTF_8);
    return ConfigLoader.read(yaml);
  }

  private static long size(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new RealisticScaleBenchmark()).execute(args));
  }
}
