package org.openbook.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.CorpusFile;
import org.openbook.document.CorpusWalker;
import org.openbook.document.DocumentReader;
import org.openbook.document.LoadException;
import org.openbook.document.Loaders;
import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.ForwardingEmbedder;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
import org.openbook.ingest.Indexer;
import org.openbook.ingest.IngestReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Ingest throughput against the embedding model's own throughput, on the same texts, in one
 * process: the floor of an ingest on CPU is the model, so the figure that matters is their ratio.
 *
 * <ol>
 *   <li>The folder is loaded and chunked once exactly as {@code openbook ingest} would (same
 *       loaders, limits and chunker settings from the configuration) to get the chunk texts
 *       ({@code embedText}, what the model reads).</li>
 *   <li>Warm-up: {@code --warmup} batches through the model (JIT, ONNX session), then {@code
 *       --warmup-ingests} full ingests of the folder into a throw-away index, so the timed
 *       ingests, like the timed raw phases, run JIT-compiled code (the ingest path is large:
 *       Markdown parsing, analysis, Lucene indexing; compiling it on a 2-core machine takes CPU
 *       from the model). The first warm-up ingest also records the texts the model is given and
 *       checks they are exactly the raw phase's texts (as a multiset).</li>
 *   <li>{@code --pairs} A/B repetitions, interleaved: raw, ingest, raw, ingest, …, raw. <b>raw</b>
 *       = every chunk text through {@link DenseRoutes#embedAll} (bge-small-zh-v1.5, and with
 *       {@code --models zh+en} also bge-small-en-v1.5-q as the product does) in batches of
 *       {@code --batch} (default: the ingest's own {@link Indexer#EMBED_BATCH}), same model
 *       instance and ONNX threads, nothing else. <b>ingest</b> = the full {@link
 *       OpenBook#ingest(Path)} of the folder into a fresh index (walk, hash, load, chunk, embed,
 *       BM25 + HNSW write, commits, embedding cache).</li>
 *   <li>Each ingest is compared with the mean of the raw phases just before and after it, so a
 *       neighbour's load on a shared machine that drifts during the run hits both sides of a
 *       ratio alike; the result is every pair's ratio and their median.</li>
 * </ol>
 * Rates are texts (chunks) per second of wall-clock time. CPU seconds of the whole process and of
 * the model's own threads ({@value #MODEL_THREAD_PREFIX}…) are reported too: the rest is what the
 * ingest adds to the model's work.
 */
@Command(name = "ingest-throughput", mixinStandardHelpOptions = true,
    description = "Raw model throughput vs full ingest throughput on the same chunk texts.")
public final class IngestThroughputBenchmark implements Callable<Integer> {

  /** Name prefix of the model's executor threads ({@link org.openbook.embed.OnnxThreads}). */
  static final String MODEL_THREAD_PREFIX = "openbook-embed";

  @Parameters(index = "0", description = "Documents folder to ingest.")
  Path docs;

  @Option(names = "--config", description = "Configuration file (default: built-in defaults).")
  Path config;

  @Option(names = "--batch", defaultValue = "" + Indexer.EMBED_BATCH,
      description = "Texts per raw embedAll call (default: the ingest's batch, ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--warmup", defaultValue = "4",
      description = "Warm-up batches before timing (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--warmup-ingests", defaultValue = "1",
      description = "Untimed full ingests of the folder before timing (default: ${DEFAULT-VALUE}).")
  int warmupIngests;

  @Option(names = "--pairs", defaultValue = "3",
      description = "Timed ingests, each between two raw phases (default: ${DEFAULT-VALUE}).")
  int pairs;

  @Option(names = "--work", description = "Folder for the throw-away index (default: a temp dir).")
  Path work;

  @Option(names = "--out", description = "Also write the result lines (Markdown) to this file.")
  Path out;

  @Option(names = "--models", defaultValue = "zh",
      description = "zh: bge-small-zh-v1.5 alone; zh+en: the product's default routes (every"
          + " chunk also through bge-small-en-v1.5-q), for both the raw and the ingest phase"
          + " (default: ${DEFAULT-VALUE}).")
  String models;

  @Option(names = "--lc4j-reference",
      description = "Also time the raw model with LangChain4j's own ONNX threading, and check both"
          + " give the same vectors.")
  boolean reference;

  /**
   * One measured phase: texts processed, wall-clock seconds, CPU seconds of this process (all
   * threads) and of the model's threads alone, and the 1-minute load average at its end. On a
   * machine shared with other jobs the wall rate moves with their load; CPU seconds per text
   * move much less, and the non-model share shows what the ingest adds to the model's own work.
   */
  record Phase(String name, int texts, double seconds, double cpuSeconds, double modelCpuSeconds,
      String load) {
    double rate() {
      return texts / seconds;
    }

    double cpuPerText() {
      return cpuSeconds / texts;
    }

    /** CPU seconds per text outside the model's threads (tokenizer checks, loading, Lucene, GC). */
    double otherCpuPerText() {
      return (cpuSeconds - modelCpuSeconds) / texts;
    }
  }

  /**
   * One timed ingest between two raw phases.
   *
   * @param before the raw phase just before the ingest
   * @param ingest the ingest
   * @param after  the raw phase just after it (the next pair's {@code before})
   */
  record Pair(Phase before, Phase ingest, Phase after) {
    /** Mean of the two raw rates, texts/s. */
    double rawRate() {
      return (before.rate() + after.rate()) / 2;
    }

    /** Ingest rate / mean raw rate (wall clock): the figure, ≥ 0.9 wanted. */
    double ratio() {
      return ingest.rate() / rawRate();
    }

    /** Mean raw CPU per text / ingest CPU per text: the share of the ingest's CPU that is the model. */
    double cpuRatio() {
      return (before.cpuPerText() + after.cpuPerText()) / 2 / ingest.cpuPerText();
    }
  }

  /** The median of {@code xs} (mean of the middle two for an even count); xs not empty. */
  static double median(List<Double> xs) {
    if (xs.isEmpty()) {
      throw new IllegalArgumentException("median of no values");
    }
    List<Double> s = xs.stream().sorted().toList();
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /**
   * The pairs of an interleaved run {@code raw0, ingest1, raw1, ingest2, …, rawN}: ingest i
   * with raw i-1 before and raw i after.
   *
   * @param raws    N + 1 raw phases in run order
   * @param ingests N ingest phases in run order
   * @throws IllegalArgumentException if {@code raws.size() != ingests.size() + 1}
   */
  static List<Pair> pairs(List<Phase> raws, List<Phase> ingests) {
    if (raws.size() != ingests.size() + 1) {
      throw new IllegalArgumentException("need one raw phase more than ingests, got "
          + raws.size() + " and " + ingests.size());
    }
    List<Pair> out = new ArrayList<>();
    for (int i = 0; i < ingests.size(); i++) {
      out.add(new Pair(raws.get(i), ingests.get(i), raws.get(i + 1)));
    }
    return out;
  }

  private static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  /** CPU seconds so far of the live model threads (they live as long as the model). */
  private static double modelCpuSeconds() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long ns = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(MODEL_THREAD_PREFIX)) {
        long c = mx.getThreadCpuTime(t.getId());
        ns += Math.max(0, c);
      }
    }
    return ns / 1e9;
  }

  @Override
  public Integer call() throws Exception {
    if (pairs < 1 || batch < 1) {
      throw new CommandLine.ParameterException(new CommandLine(this),
          "--pairs and --batch must be >= 1");
    }
    OpenBookConfig cfg = config == null ? OpenBookConfig.defaults() : ConfigLoader.read(config);
    Settings settings = cfg.resolve(System.getenv());
    Embedder model = new BgeSmallZhEmbedder();
    Embedder english = switch (models) {
      case "zh" -> null;
      case "zh+en" -> new BgeSmallEnEmbedder();
      default -> throw new CommandLine.ParameterException(new CommandLine(this),
          "--models must be zh or zh+en, got '" + models + "'");
    };
    DenseRoutes routes = routes(model, english);
    List<String> texts = chunkTexts(settings, routes);
    System.out.printf(Locale.ROOT, "%s: %d chunk texts; models %s; %d cores; batch %d; %s; load %s%n",
        docs, texts.size(), models, Runtime.getRuntime().availableProcessors(), batch,
        org.openbook.embed.OnnxThreads.defaults(), loadAverage());
    for (int i = 0; i < warmup; i++) {
      routes.embedAll(texts.subList(0, Math.min(texts.size(), batch)));
    }
    if (reference) {
      Embedder lc4j = BgeSmallZhEmbedder.withLangChain4jDefaults();
      List<String> first = texts.subList(0, Math.min(texts.size(), batch));
      for (int i = 0; i < warmup; i++) {
        lc4j.embedAll(first);
      }
      System.out.printf(Locale.ROOT, "max |difference| of vector components, tuned vs LangChain4j"
          + " threading: %.2e%n", maxDifference(model.embedAll(first), lc4j.embedAll(first)));
      print(raw(DenseRoutes.single(lc4j), texts, "raw, LC4j threads"));
    }

    for (int i = 0; i < warmupIngests; i++) {
      if (i == 0) {
        checkSameTexts(cfg, model, english, routes, texts);
      } else {
        ingest(cfg, routes, "warm-up ingest");
      }
    }
    List<Phase> raws = new ArrayList<>();
    List<Phase> ingests = new ArrayList<>();
    raws.add(print(raw(routes, texts, "raw model")));
    for (int i = 0; i < pairs; i++) {
      ingests.add(print(ingest(cfg, routes, "openbook ingest")));
      raws.add(print(raw(routes, texts, "raw model")));
    }
    List<Pair> result = pairs(raws, ingests);
    String table = table(result);
    System.out.println(table);
    double med = median(result.stream().map(Pair::ratio).toList());
    double min = result.stream().mapToDouble(Pair::ratio).min().orElseThrow();
    System.out.printf(Locale.ROOT, "ingest / raw: median %.2f, lowest %.2f over %d pairs"
        + " (wall clock); CPU median %.2f; load %s%n", med, min, result.size(),
        median(result.stream().map(Pair::cpuRatio).toList()), loadAverage());
    if (out != null) {
      Files.writeString(out, table + "\n");
    }
    for (Phase p : ingests) {
      if (p.texts() != texts.size()) {
        System.err.printf(Locale.ROOT, "warning: ingest wrote %d chunks, the raw phase embedded %d%n",
            p.texts(), texts.size());
      }
    }
    return 0;
  }

  /** The Markdown table of the pairs, one row each, then the median row. */
  static String table(List<Pair> pairs) {
    StringBuilder b = new StringBuilder("| pair | raw before (texts/s) | ingest (chunks/s) "
        + "| raw after (texts/s) | **ingest / raw** | raw CPU s/text | ingest CPU s/chunk "
        + "| of which outside the model | raw / ingest CPU | load (1 min) |\n"
        + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (int i = 0; i < pairs.size(); i++) {
      Pair p = pairs.get(i);
      b.append(String.format(Locale.ROOT,
          "| %d | %.1f | %.1f | %.1f | **%.2f** | %.4f | %.4f | %.4f | %.2f | %s |%n", i + 1,
          p.before().rate(), p.ingest().rate(), p.after().rate(), p.ratio(),
          (p.before().cpuPerText() + p.after().cpuPerText()) / 2, p.ingest().cpuPerText(),
          p.ingest().otherCpuPerText(), p.cpuRatio(), p.ingest().load()));
    }
    b.append(String.format(Locale.ROOT, "| median | | | | **%.2f** | | | | %.2f | |",
        median(pairs.stream().map(Pair::ratio).toList()),
        median(pairs.stream().map(Pair::cpuRatio).toList())));
    return b.toString();
  }

  private static DenseRoutes routes(Embedder zh, Embedder english) {
    return english == null ? DenseRoutes.single(zh) : DenseRoutes.bilingual(zh, english);
  }

  /**
   * The first warm-up ingest, with the Chinese model recording what it is given; fails if that
   * is not exactly (as a multiset) what the raw phase embeds, so the two phases are comparable.
   */
  private void checkSameTexts(OpenBookConfig cfg, Embedder model, Embedder english,
      DenseRoutes routes, List<String> texts) throws IOException {
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    Embedder recording = new ForwardingEmbedder(model) {
      @Override
      public List<float[]> embedAll(List<String> batch) {
        seen.addAll(batch);
        return model.embedAll(batch);
      }
    };
    Phase p = ingest(cfg, routes(recording, english), "warm-up ingest");
    List<String> expected = new ArrayList<>(texts.stream().map(routes::primaryInput).toList());
    List<String> actual = new ArrayList<>(seen);
    expected.sort(null);
    actual.sort(null);
    if (!expected.equals(actual)) {
      throw new IllegalStateException("the ingest embedded " + actual.size()
          + " texts, not the raw phase's " + expected.size() + " (or different ones)");
    }
    System.out.printf(Locale.ROOT, "check: the ingest embeds exactly the raw phase's %d texts"
        + " (%.1f s)%n", actual.size(), p.seconds());
  }

  /** The embedText of every chunk of every indexable file, as the ingest would chunk it. */
  private List<String> chunkTexts(Settings settings, DenseRoutes model) throws IOException {
    Settings.Ingest in = settings.ingest();
    DocumentReader reader = new DocumentReader(Loaders.defaults(in.loaders()), in.maxFileBytes(),
        settings.access());
    StructuredChunker chunker = new StructuredChunker(settings.chunking(), model::fitsTokens,
        model.maxInputTokens());
    List<String> texts = new ArrayList<>();
    for (CorpusFile f : new CorpusWalker().scan(docs).files()) {
      if (!reader.supports(f.path())) {
        continue;
      }
      try {
        for (Chunk c : chunker.chunk(reader.read(f.path(), f.source()).document())) {
          texts.add(c.embedText());
        }
      } catch (LoadException e) {
        System.err.println("skipped " + f.source() + ": " + e.getMessage());
      }
    }
    return texts;
  }

  private Phase raw(DenseRoutes model, List<String> texts, String name) {
    double c0 = cpuSeconds();
    double m0 = modelCpuSeconds();
    long t0 = System.nanoTime();
    for (int i = 0; i < texts.size(); i += batch) {
      model.embedAll(texts.subList(i, Math.min(texts.size(), i + batch)));
    }
    double s = (System.nanoTime() - t0) / 1e9;
    return new Phase(name, texts.size(), s, cpuSeconds() - c0, modelCpuSeconds() - m0,
        loadAverage().split(" ")[0]);
  }

  /** One full ingest of the folder into a fresh index (deleted afterwards). */
  private Phase ingest(OpenBookConfig cfg, DenseRoutes routes, String name) throws IOException {
    Path dir = work != null ? work : Files.createTempDirectory("openbook-ingest-bench");
    Path index = dir.resolve("index");
    deleteTree(index);
    try (OpenBook kb = OpenBook.builder().index(index).config(cfg).routes(routes)
        .mode(OpenBook.Mode.RESET).build()) {
      double c0 = cpuSeconds();
      double m0 = modelCpuSeconds();
      long t0 = System.nanoTime();
      IngestReport r = kb.ingest(docs);
      double s = (System.nanoTime() - t0) / 1e9;
      return new Phase(name, r.chunks(), s, cpuSeconds() - c0, modelCpuSeconds() - m0,
          loadAverage().split(" ")[0]);
    } finally {
      deleteTree(index);
    }
  }

  private static double maxDifference(List<float[]> a, List<float[]> b) {
    double max = 0;
    for (int i = 0; i < a.size(); i++) {
      for (int j = 0; j < a.get(i).length; j++) {
        max = Math.max(max, Math.abs(a.get(i)[j] - b.get(i)[j]));
      }
    }
    return max;
  }

  /** The 1/5/15-minute load averages (Linux), so a busy shared machine shows in the output. */
  private static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return "n/a";
    }
  }

  private static Phase print(Phase p) {
    System.out.printf(Locale.ROOT, "%s %-16s %6d texts in %7.2f s = %6.1f texts/s; CPU s/text"
        + " %.4f (outside the model %.4f); load %s%n", java.time.LocalTime.now().withNano(0),
        p.name(), p.texts(), p.seconds(), p.rate(), p.cpuPerText(), p.otherCpuPerText(), p.load());
    return p;
  }

  private static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> s = Files.walk(p)) {
      for (Path x : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(x);
      }
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new IngestThroughputBenchmark()).execute(args));
  }
}
