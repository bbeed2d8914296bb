package org.openbook.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.Embedder;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;
import org.openbook.lucene.DenseSearchStats;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;

/**
 * Measures one corpus size: writes the first N chunks into a fresh embedded store through the
 * {@link OpenBook} facade, then, on the index opened read-only as {@code openbook search} opens
 * it, times per question (interleaved, so machine noise hits every series alike) the query
 * embedding, the dense and BM25 routes, hybrid retrieval and {@link OpenBook#search}; measures
 * HNSW recall against {@link ExactKnn}; and optionally memory in a separate serving JVM.
 */
final class ScaleMeasurement {

  /** Filters of the recall rows: every department, {@code public}+{@code hr}, {@code public}. */
  static final List<Set<String>> RECALL_FILTERS = List.of(
      VariantCorpus.DEPARTMENTS.keySet(), Set.of("public", "hr"), Set.of("public"));
  /** The department allowing about 1% of the chunks. */
  static final Set<String> RARE = Set.of("audit");

  private final List<ScaleChunk> corpus;
  private final ExactKnn exact;
  private final Embedder model;
  private final QueryVectors queries;
  private final List<String> questions;
  private final int warmup;
  private final int recallQueries;
  private final OpenBookConfig config;
  private final Path configFile;
  private final int forceMerge;
  private boolean reuse;

  ScaleMeasurement(List<ScaleChunk> corpus, Embedder model, QueryVectors queries,
      List<String> questions, int warmup, int recallQueries) {
    this(corpus, model, queries, questions, warmup, recallQueries, null, 0);
  }

  /**
   * @param configFile the configuration file every store (and the serving probe) is opened with,
   *                   null for the defaults ({@code store.lucene.hnsw} decides the graphs and
   *                   the dense search's efSearch)
   * @param forceMerge segments to force-merge the index down to after the build, 0 = none
   */
  ScaleMeasurement(List<ScaleChunk> corpus, Embedder model, QueryVectors queries,
      List<String> questions, int warmup, int recallQueries, Path configFile,
      int forceMerge) {
    this.configFile = configFile;
    this.config = configFile == null ? OpenBookConfig.defaults()
        : ConfigLoader.load(configFile, System.getenv());
    this.forceMerge = forceMerge;
    this.corpus = corpus;
    this.exact = new ExactKnn(corpus, model.dimension());
    this.model = model;
    this.queries = queries;
    this.questions = questions;
    this.warmup = warmup;
    this.recallQueries = recallQueries;
  }

  /**
   * Measures the first {@code n} chunks in index folder {@code dir} (replaced).
   *
   * @param probeXmx heap of the serving JVM, or null to skip the memory probe
   */
  SizeResult measure(int n, Path dir, String probeXmx) throws IOException, InterruptedException {
    double indexSeconds = Double.NaN;
    Double mergeSeconds = null;
    if (reuse && holds(dir, n)) {
      log("reusing the index of %,d chunks in %s (not rebuilt)", n, dir);
      if (forceMerge > 0) {
        try (OpenBook w = open(dir, queries, OpenBook.Mode.WRITE)) {
          long m0 = System.nanoTime();
          ((LuceneChunkStore) w.store()).forceMerge(forceMerge);
          mergeSeconds = (System.nanoTime() - m0) / 1e9;
          log("force-merged to %d segment(s) in %.1f s", forceMerge, mergeSeconds);
        }
      }
    } else {
      deleteIndex(dir);
      long t0 = System.nanoTime();
      try (OpenBook w = open(dir, queries, OpenBook.Mode.RESET)) {
        IndexStore store = w.store();
        for (int from = 0; from < n; from += VariantCorpus.CHUNKS_PER_DOC) {
          List<EmbeddedChunk> doc = new ArrayList<>();
          for (int i = from; i < Math.min(n, from + VariantCorpus.CHUNKS_PER_DOC); i++) {
            doc.add(corpus.get(i).toEmbedded());
          }
          store.replaceDocument(corpus.get(from).docId(), doc);
        }
        store.commit();
        indexSeconds = (System.nanoTime() - t0) / 1e9;
        log("%,d chunks indexed in %.1f s", n, indexSeconds);
        if (forceMerge > 0) {
          long m0 = System.nanoTime();
          ((LuceneChunkStore) store).forceMerge(forceMerge);
          mergeSeconds = (System.nanoTime() - m0) / 1e9;
          log("force-merged to %d segment(s) in %.1f s", forceMerge, mergeSeconds);
        }
      }
    }

    try (OpenBook cached = open(dir, queries, OpenBook.Mode.READ);
        OpenBook live = open(dir, model, OpenBook.Mode.READ)) {
      LuceneChunkStore store = (LuceneChunkStore) cached.store();
      Retriever dense = routeOnly(cached, HybridRetriever.Mode.DENSE);
      Retriever bm25 = routeOnly(cached, HybridRetriever.Mode.SPARSE);
      Principal who = Principal.ANONYMOUS;
      int k = cached.settings().retrieval().topK();
      int q = questions.size();
      double[][] ms = new double[5][q];
      DenseSearchStats before = store.denseStats();
      String loadBefore = loadAverage();
      for (int i = -Math.min(warmup, q); i < q; i++) {
        String question = questions.get(Math.floorMod(i, q));
        Query query = cached.query(question, who, k);
        double[] t = new double[5];
        t[0] = time(() -> model.embed(BoundedInput.of(question, model)));
        t[1] = time(() -> dense.retrieve(query));
        t[2] = time(() -> bm25.retrieve(query));
        t[3] = time(() -> cached.search(question, who, k));
        t[4] = time(() -> live.search(question, who, k));
        if (i >= 0) {
          for (int s = 0; s < 5; s++) {
            ms[s][i] = t[s];
          }
        }
      }
      DenseSearchStats serving = store.denseStats().since(before);
      String load = loadBefore + " → " + loadAverage();
      log("timed queries done, load average %s", load);

      int fetchK = cached.settings().retrieval().fetchK();
      List<SizeResult.RecallRow> recall = new ArrayList<>();
      for (Set<String> filter : RECALL_FILTERS) {
        List<ExactKnn.Top> truth = exactTop10(n, filter);
        for (int kk : new int[] {10, fetchK}) {
          recall.add(recall(store, n, filter, truth, kk));
        }
      }
      DenseSearchStats rareBefore = store.denseStats();
      double[] rare = new double[q];
      for (int i = -Math.min(warmup, q); i < q; i++) {
        float[] v = queries.of(questions.get(Math.floorMod(i, q)));
        double t = time(() -> store.searchDense(v, fetchK, new AccessFilter(RARE)));
        if (i >= 0) {
          rare[i] = t;
        }
      }
      DenseSearchStats rareStats = store.denseStats().since(rareBefore);
      int segments = SegmentInfos.readLatestCommit(FSDirectory.open(dir)).size();
      long bytes = indexBytes(dir);
      SizeResult.Probe probe = probeXmx == null ? null : probe(dir, probeXmx);
      String hnsw = String.format(Locale.ROOT, "M %d, beam width %d, efSearch %d%s%s",
          store.manifest().hnsw().m(), store.manifest().hnsw().beamWidth(), store.efSearch(),
          store.crossSegmentPruning() ? "" : ", cross-segment pruning off",
          forceMerge > 0 ? ", force-merged to " + forceMerge : "");
      return new SizeResult(n, indexSeconds, bytes, segments, Latency.of(ms[0]),
          Latency.of(ms[1]), Latency.of(ms[2]), Latency.of(ms[3]), Latency.of(ms[4]), serving,
          recall, Latency.of(rare), rareStats, probe, hnsw, mergeSeconds, load);
    }
  }

  /**
   * Measures an index already in the folder instead of rebuilding it when it holds exactly the
   * chunks of the size measured (its build time is then not reported); query-time settings
   * (efSearch, pruning) can so be compared on one index.
   */
  ScaleMeasurement reuseIndexes(boolean reuse) {
    this.reuse = reuse;
    return this;
  }

  private boolean holds(Path dir, int n) throws IOException {
    if (!Files.isDirectory(dir) || LuceneChunkStore.readManifest(dir).isEmpty()) {
      return false;
    }
    try (OpenBook r = open(dir, queries, OpenBook.Mode.READ)) {
      return r.count() == n;
    }
  }

  /** The exact filtered top-10 of each recall question over the first {@code n} chunks. */
  private List<ExactKnn.Top> exactTop10(int n, Set<String> filter) {
    int m = Math.min(recallQueries, questions.size());
    List<ExactKnn.Top> out = new ArrayList<>(m);
    for (int i = 0; i < m; i++) {
      out.add(exact.topWithScore(queries.of(questions.get(i)), n, 10, filter));
    }
    return out;
  }

  /**
   * recall@10 of the store's dense search asked for top {@code k}, by chunk id and by ANN-
   * Benchmarks' distance threshold (a hit counts if its exact cosine is at least the exact 10th
   * cosine minus {@link ExactKnn#EPSILON}).
   */
  private SizeResult.RecallRow recall(LuceneChunkStore store, int n, Set<String> filter,
      List<ExactKnn.Top> truths, int k) throws IOException {
    DenseSearchStats before = store.denseStats();
    double sum = 0;
    double sumThreshold = 0;
    for (int i = 0; i < truths.size(); i++) {
      Set<String> truth = truths.get(i).ids();
      float[] q = queries.of(questions.get(i));
      List<ScoredChunk> hits = store.searchDense(q, k, new AccessFilter(filter));
      long found = hits.stream().limit(10).filter(h -> truth.contains(h.chunk().id())).count();
      double threshold = truths.get(i).kthScore() - ExactKnn.EPSILON;
      long near = hits.stream().limit(10)
          .filter(h -> exact.score(q, h.chunk().id()) >= threshold).count();
      sum += truth.isEmpty() ? 1 : (double) found / truth.size();
      sumThreshold += truth.isEmpty() ? 1 : Math.min(1.0, (double) near / truth.size());
    }
    long allowed = corpus.subList(0, n).stream().filter(c -> filter.contains(c.dept())).count();
    return new SizeResult.RecallRow(String.join("+", new java.util.TreeSet<>(filter)),
        (double) allowed / n, k, sum / truths.size(), sumThreshold / truths.size(),
        store.candidates(k), store.denseStats().since(before));
  }

  private Retriever routeOnly(OpenBook engine, HybridRetriever.Mode mode) {
    return new HybridRetriever(engine.embedder(), engine.store(), engine.store(),
        engine.settings().retrieval().fusion(), mode, engine.synonyms());
  }

  private OpenBook open(Path dir, Embedder embedder, OpenBook.Mode mode)
      throws IOException {
    return OpenBook.builder().index(dir).config(config).embedder(embedder).mode(mode).build();
  }

  /** Runs {@link ServeProbe} in a JVM of its own on the same class path. */
  private SizeResult.Probe probe(Path dir, String xmx) throws IOException, InterruptedException {
    Path file = Files.createTempFile("scale-questions", ".txt");
    Files.write(file, questions, StandardCharsets.UTF_8);
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new ArrayList<>(List.of(java, "-Xmx" + xmx,
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
        System.getProperty("java.class.path"), ServeProbe.class.getName(), dir.toString(),
        file.toString()));
    if (configFile != null) {
      command.add(configFile.toString());
    }
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.MINUTES) || p.exitValue() != 0) {
      throw new IOException("serve probe failed: " + out);
    }
    Files.deleteIfExists(file);
    String line = out.lines().filter(l -> l.startsWith("PROBE ")).findFirst()
        .orElseThrow(() -> new IOException("serve probe printed no PROBE line: " + out));
    log("%s", line);
    return new SizeResult.Probe(xmx, field(line, "rssKb"), field(line, "hwmKb"),
        field(line, "heapUsedMb"), field(line, "heapCommittedMb"));
  }

  private static long field(String line, String name) {
    for (String part : line.split(" ")) {
      if (part.startsWith(name + "=")) {
        return Long.parseLong(part.substring(name.length() + 1));
      }
    }
    throw new IllegalArgumentException("no " + name + " in " + line);
  }

  /** The 1-minute load average ({@code /proc/loadavg}), or "?" where there is none. */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  private static long indexBytes(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }

  private static void deleteIndex(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** A call timed in milliseconds. */
  private interface Timed {
    Object run() throws IOException;
  }

  private static double time(Timed call) throws IOException {
    long t0 = System.nanoTime();
    Object result = call.run();
    double ms = (System.nanoTime() - t0) / 1e6;
    if (result == null) {
      throw new IllegalStateException("no result");
    }
    return ms;
  }

  static void log(String format, Object... args) {
    System.err.printf(Locale.ROOT, format + "%n", args);
  }
}
