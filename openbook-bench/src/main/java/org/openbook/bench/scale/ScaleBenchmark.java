package org.openbook.bench.scale;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import org.openbook.bench.SquadBenchmark;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.embed.Vectors;
import org.openbook.eval.Percentiles;
import org.openbook.eval.SquadDataset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The scale benchmark of docs/PERFORMANCE.md: grows real passages (every context of CMRC 2018,
 * DRCD, XQuAD and the chunks of the docs folders) into a corpus of up to 200k+ chunks
 * ({@link VariantCorpus}), validates the derived vectors against the model, then measures each
 * corpus size in one run ({@link ScaleMeasurement}) and writes {@code scale.md} and two PNG
 * charts into {@code --out}.
 *
 * <p>Model vectors (passages, their prefixes and sentences, validation variants, questions) are
 * cached in {@code --work}/embedding-cache (key: model id + SHA-256 of the text), so only the
 * first run pays for the model.
 */
@Command(name = "scale-benchmark", mixinStandardHelpOptions = true,
    description = "Retrieval latency, HNSW recall and memory at 10k-200k+ realistic chunks.")
public final class ScaleBenchmark implements Callable<Integer> {

  @Option(names = "--shared", description = "Shared data folder (default: $openbook.shared, else ../shared).")
  Path shared;

  @Option(names = "--work", defaultValue = "/tmp/openbook-scale",
      description = "Indexes and embedding cache (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--out", defaultValue = "docs/perf", description = "Report folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--sizes", defaultValue = "10000,50000,200000", split = ",",
      description = "Corpus sizes in chunks (default: ${DEFAULT-VALUE}).")
  int[] sizes;

  @Option(names = "--queries", defaultValue = "300", description = "Timed questions per size (default: ${DEFAULT-VALUE}).")
  int queries;

  @Option(names = "--warmup", defaultValue = "30", description = "Warm-up questions (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--recall-queries", defaultValue = "200", description = "Questions for recall (default: ${DEFAULT-VALUE}).")
  int recallQueries;

  @Option(names = "--validate", defaultValue = "500",
      description = "Variants embedded by the model to validate derived vectors; 0 = skip (default: ${DEFAULT-VALUE}).")
  int validate;

  @Option(names = "--probe-xmx", defaultValue = "512m",
      description = "-Xmx of the serving JVM whose RSS is measured; 'none' = skip (default: ${DEFAULT-VALUE}).")
  String probeXmx;

  @Option(names = "--seed", defaultValue = "42", description = "Corpus seed (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(names = "--pool", defaultValue = "1000",
      description = "Source passages whose sentences are embedded and varied (default: ${DEFAULT-VALUE}).")
  int pool;

  @Option(names = "--config", description = "OpenBook configuration file the indexes are built"
      + " and searched with, e.g. store.lucene.hnsw (default: the defaults).")
  Path config;

  @Option(names = "--force-merge", defaultValue = "0", description = "Force-merge each index to"
      + " this many segments after the build, timed apart; 0 = no merge (default: ${DEFAULT-VALUE}).")
  int forceMerge;

  @Option(names = "--reuse-index", description = "Measure an index already in --work that holds"
      + " exactly the size's chunks instead of rebuilding it (build time then not reported).")
  boolean reuseIndex;

  @Option(names = "--docs", split = ",", defaultValue = "",
      description = "Docs folders under datasets/ to add as sources, e.g. docs-zh,docs-en (default: none).")
  List<String> docs;

  /** The SQuAD-format sets the sources come from. */
  static final List<String> SETS = List.of("cmrc2018", "drcd", "xquad-zh", "xquad-en");

  @Override
  public Integer call() throws Exception {
    Path root = shared != null ? shared
        : Paths.get(System.getProperty("openbook.shared", "../shared"));
    Files.createDirectories(work);
    BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
    try (EmbeddingCache cache = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      CachingEmbedder cached = new CachingEmbedder(model, cache);
      Sources s = sources(root, model, queries, docs.stream().filter(d -> !d.isBlank()).toList());
      Run run = new Run(s.passages(), s.questions(), cached, model, cache, sizes, warmup,
          recallQueries, validate, "none".equals(probeXmx) ? null : probeXmx, seed, pool, work,
          out, config, forceMerge, reuseIndex);
      run.execute();
    }
    return 0;
  }

  /**
   * The source passages and the questions of the benchmark.
   *
   * @param passages  every chunk of {@link #SETS}, then of the docs folders asked for
   * @param questions questions of {@link #SETS}, shuffled with a fixed seed
   */
  public record Sources(List<SourcePassage> passages, List<String> questions) {}

  /**
   * Reads the sources from the shared data folder {@code root}, chunked as the app chunks
   * (default settings, {@code model}'s token budget), and the first {@code queries} questions.
   *
   * @param docs folders under {@code root/datasets} whose Markdown files are added (may be empty)
   * @throws java.io.IOException if a data set cannot be read
   */
  public static Sources sources(Path root, Embedder model, int queries, List<String> docs)
      throws java.io.IOException {
    StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT,
        model::countTokens, model.maxInputTokens());
    List<SourcePassage> sources = new ArrayList<>();
    List<String> questions = new ArrayList<>();
    for (String set : SETS) {
      SquadDataset data = SquadDataset.read(set, root.resolve(SquadBenchmark.DATASETS.get(set)));
      sources.addAll(SourceCorpus.fromSquad(set, data, chunker));
      data.questions().forEach(q -> questions.add(q.text()));
    }
    for (String d : docs) {
      sources.addAll(SourceCorpus.fromMarkdown(d, root.resolve("datasets").resolve(d), chunker));
    }
    Collections.shuffle(questions, new Random(7));
    return new Sources(sources,
        List.copyOf(questions.subList(0, Math.min(queries, questions.size()))));
  }

  /**
   * The scale corpus of {@code total} chunks grown from {@code sources} with {@code seed}, the
   * units embedded through {@code embedder} (use a cached one).
   */
  public static List<ScaleChunk> corpus(List<SourcePassage> sources, Embedder embedder,
      int total, long seed, int poolSize) {
    return VariantCorpus.grow(sources,
        UnitVectors.embed(units(sources, poolSize, seed), embedder, 64), total, seed, poolSize);
  }

  /** Texts needing a model vector: the pool passages' embedTexts, prefixes and sentences. */
  static Set<String> units(List<SourcePassage> sources, int poolSize, long seed) {
    Set<String> units = new LinkedHashSet<>();
    for (SourcePassage p : VariantCorpus.pool(sources, poolSize, seed)) {
      units.add(p.embedText());
      units.add(p.prefix());
      units.addAll(p.sentences());
    }
    return units;
  }

  /**
   * One benchmark run on given inputs (the command's, or a small generated set in the smoke
   * test).
   *
   * @param model    the embedding model timed for the query embedding (uncached)
   * @param cached   the same model behind the embedding cache, for everything else
   * @param cache    committed after embedding, or null
   * @param config   configuration file of the measured indexes, or null for the defaults
   * @param forceMerge segments each measured index is force-merged to after its build, 0 = none
   * @param reuseIndex measure an index already built in {@code work} for a size
   */
  record Run(List<SourcePassage> sources, List<String> questions, Embedder cached,
      Embedder model, EmbeddingCache cache, int[] sizes, int warmup, int recallQueries,
      int validate, String probeXmx, long seed, int poolSize, Path work, Path out, Path config,
      int forceMerge, boolean reuseIndex) {

    /** A run with the default configuration and no force-merge. */
    Run(List<SourcePassage> sources, List<String> questions, Embedder cached, Embedder model,
        EmbeddingCache cache, int[] sizes, int warmup, int recallQueries, int validate,
        String probeXmx, long seed, int poolSize, Path work, Path out) {
      this(sources, questions, cached, model, cache, sizes, warmup, recallQueries, validate,
          probeXmx, seed, poolSize, work, out, null, 0, false);
    }

    void execute() throws Exception {
      int max = Arrays.stream(sizes).max().orElseThrow();
      ScaleMeasurement.log("%,d source passages, %,d questions; embedding units", sources.size(),
          questions.size());
      Set<String> units = units(sources, poolSize, seed);
      long t0 = System.nanoTime();
      UnitVectors vectors = UnitVectors.embed(units, cached, 64, this::checkpoint);
      double embedSeconds = (System.nanoTime() - t0) / 1e9;
      commitCache();
      List<ScaleChunk> corpus = VariantCorpus.grow(sources, vectors, max, seed, poolSize);
      QueryVectors queryVectors = new QueryVectors(cached, questions);
      commitCache();
      Validation validation = validate > 0 ? validate(corpus, vectors, queryVectors) : null;
      commitCache();
      ScaleMeasurement m = new ScaleMeasurement(corpus, model, queryVectors, questions, warmup,
          recallQueries, config, forceMerge).reuseIndexes(reuseIndex);
      List<SizeResult> results = new ArrayList<>();
      for (int n : sizes) {
        ScaleMeasurement.log("measuring %,d chunks", n);
        results.add(m.measure(n, work.resolve("index-" + n), probeXmx));
        ScaleReport.write(out, ScaleReport.Setup.of(sources, poolSize, units.size(), embedSeconds,
            corpus, questions.size(), warmup, recallQueries, model.modelId()), validation,
            results);
      }
    }

    private void checkpoint() {
      try {
        commitCache();
      } catch (java.io.IOException e) {
        System.err.println("embedding cache commit failed: " + e);
      }
    }

    private void commitCache() throws java.io.IOException {
      if (cache != null) {
        cache.commit();
      }
    }

    /**
     * Model vs derived vectors: {@code validate} variants drawn from the corpus are embedded by
     * the model; the validation corpus is the pool passages plus those variants, once with
     * model vectors and once with derived ones, measured alike.
     */
    private Validation validate(List<ScaleChunk> corpus, UnitVectors vectors,
        QueryVectors queryVectors) throws Exception {
      Random random = new Random(seed + 2);
      int s = Math.min(poolSize, sources.size());
      List<ScaleChunk> sample = new ArrayList<>();
      for (int i = 0; i < validate && corpus.size() > s; i++) {
        sample.add(corpus.get(s + random.nextInt(corpus.size() - s)));
      }
      List<float[]> modelVectors = cached.embedAll(sample.stream().map(ScaleChunk::embedText)
          .toList());
      double[] cos = new double[sample.size()];
      for (int i = 0; i < cos.length; i++) {
        cos[i] = Vectors.cosine(modelVectors.get(i), sample.get(i).vector());
      }
      List<ScaleChunk> real = new ArrayList<>();
      List<ScaleChunk> derived = new ArrayList<>();
      double sourceCos = 0;
      List<SourcePassage> pool = VariantCorpus.pool(sources, poolSize, seed);
      for (SourcePassage p : pool) {
        float[] model = vectors.of(p.embedText());
        float[] d = vectors.derive(p.prefix(), p.sentences());
        sourceCos += Vectors.cosine(d, model);
        int n = real.size();
        real.add(new ScaleChunk(n, "val/d" + n / VariantCorpus.CHUNKS_PER_DOC, "public",
            p.prefix(), p.raw(), model, ScaleChunk.Origin.SOURCE));
        derived.add(new ScaleChunk(n, "val/d" + n / VariantCorpus.CHUNKS_PER_DOC, "public",
            p.prefix(), p.raw(), d, ScaleChunk.Origin.SOURCE));
      }
      for (int i = 0; i < sample.size(); i++) {
        ScaleChunk c = sample.get(i);
        int n = real.size();
        String doc = "val/d" + n / VariantCorpus.CHUNKS_PER_DOC;
        real.add(new ScaleChunk(n, doc, c.dept(), c.prefix(), c.raw(), modelVectors.get(i),
            c.origin()));
        derived.add(new ScaleChunk(n, doc, c.dept(), c.prefix(), c.raw(), c.vector(),
            c.origin()));
      }
      int v = real.size();
      ExactKnn onReal = new ExactKnn(real, cached.dimension());
      ExactKnn onDerived = new ExactKnn(derived, cached.dimension());
      Set<String> all = VariantCorpus.DEPARTMENTS.keySet();
      double overlap = 0;
      int m = Math.min(recallQueries, questions.size());
      for (int i = 0; i < m; i++) {
        float[] q = queryVectors.of(questions.get(i));
        Set<String> a = onReal.top(q, v, 10, all);
        Set<String> b = onDerived.top(q, v, 10, all);
        overlap += b.stream().filter(a::contains).count() / 10.0;
      }
      ScaleMeasurement.log("validation: measuring %,d chunks, model vs derived vectors", v);
      SizeResult onModel = new ScaleMeasurement(real, model, queryVectors, questions, warmup,
          recallQueries).measure(v, work.resolve("index-validate-model"), null);
      SizeResult onDerivedResult = new ScaleMeasurement(derived, model, queryVectors, questions,
          warmup, recallQueries).measure(v, work.resolve("index-validate-derived"), null);
      return new Validation(sample.size(),
          Arrays.stream(cos).average().orElse(Double.NaN),
          cos.length == 0 ? Double.NaN : Percentiles.of(cos, 5),
          Arrays.stream(cos).min().orElse(Double.NaN), sourceCos / pool.size(), overlap / m,
          onModel, onDerivedResult);
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new ScaleBenchmark()).execute(args));
  }
}
