package org.openbook.bench;

import java.io.IOException;
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
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
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
 *   <li>Warm-up: {@code --warmup} batches through the model (JIT, ONNX session), and an ingest
 *       of copies of the first {@code --warmup} files into a throw-away index (JIT of the
 *       indexing path).</li>
 *   <li><b>raw</b>: every chunk text through the models' {@code embedAll} ({@link
 *       DenseRoutes#embedAll}: bge-small-zh-v1.5, and with {@code --models zh+en} also
 *       bge-small-en-v1.5-q as the product does) in batches of {@code --batch}, nothing
 *       else.</li>
 *   <li><b>ingest</b>: the full {@link OpenBook#ingest(Path)} of the folder into a fresh index
 *       (walk, hash, load, chunk, embed, BM25 + HNSW write, commits, embedding cache), same model
 *       instance.</li>
 *   <li><b>raw</b> again, so a neighbour's load on the shared machine shows as a difference
 *       between the two raw rates instead of skewing the ratio; the ratio uses their mean.</li>
 * </ol>
 * Rates are texts (chunks) per second of wall-clock time.
 */
@Command(name = "ingest-throughput", mixinStandardHelpOptions = true,
    description = "Raw model throughput vs full ingest throughput on the same chunk texts.")
public final class IngestThroughputBenchmark implements Callable<Integer> {

  @Parameters(index = "0", description = "Documents folder to ingest.")
  Path docs;

  @Option(names = "--config", description = "Configuration file (default: built-in defaults).")
  Path config;

  @Option(names = "--batch", defaultValue = "32",
      description = "Texts per raw embedAll call (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--warmup", defaultValue = "4",
      description = "Warm-up batches before timing (default: ${DEFAULT-VALUE}).")
  int warmup;

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
   * One measured phase: texts processed, wall-clock seconds and CPU seconds of this process (all
   * threads). On a machine shared with other jobs the wall rate moves with their load; CPU
   * seconds per text do not, and show what the ingest adds to the model's own work.
   */
  record Phase(String name, int texts, double seconds, double cpuSeconds) {
    double rate() {
      return texts / seconds;
    }

    double cpuPerText() {
      return cpuSeconds / texts;
    }
  }

  private static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
  }

  @Override
  public Integer call() throws Exception {
    OpenBookConfig cfg = config == null ? OpenBookConfig.defaults() : ConfigLoader.read(config);
    Settings settings = cfg.resolve(System.getenv());
    Embedder model = new BgeSmallZhEmbedder();
    DenseRoutes routes = switch (models) {
      case "zh" -> DenseRoutes.single(model);
      case "zh+en" -> DenseRoutes.bilingual(model, new BgeSmallEnEmbedder());
      default -> throw new CommandLine.ParameterException(new CommandLine(this),
          "--models must be zh or zh+en, got '" + models + "'");
    };
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
      Phase p = raw(DenseRoutes.single(lc4j), texts);
      print(new Phase("raw, LC4j threads", p.texts(), p.seconds(), p.cpuSeconds()));
    }

    warmUpIngest(cfg, routes);
    Phase raw1 = raw(routes, texts);
    print(raw1);
    Phase ingest = ingest(cfg, routes);
    print(ingest);
    Phase raw2 = raw(routes, texts);
    print(raw2);

    double rawRate = (raw1.rate() + raw2.rate()) / 2;
    double rawCpu = (raw1.cpuPerText() + raw2.cpuPerText()) / 2;
    String summary = String.format(Locale.ROOT,
        "| %s | %d | %.1f | %.1f | %.1f | **%.2f** | %.3f | %.3f | **%.2f** |",
        docs.getFileName(), texts.size(), raw1.rate(), raw2.rate(), ingest.rate(),
        ingest.rate() / rawRate, rawCpu, ingest.cpuPerText(), rawCpu / ingest.cpuPerText());
    System.out.printf(Locale.ROOT, "ingest / raw = %.2f by wall clock, %.2f by CPU (load %s)%n",
        ingest.rate() / rawRate, rawCpu / ingest.cpuPerText(), loadAverage());
    System.out.println("| corpus | chunks | raw before (texts/s) | raw after (texts/s) "
        + "| ingest (chunks/s) | ingest / raw | raw CPU s/text | ingest CPU s/chunk "
        + "| raw / ingest CPU |");
    System.out.println(summary);
    if (out != null) {
      Files.writeString(out, summary + "\n");
    }
    if (ingest.texts() != texts.size()) {
      System.err.printf(Locale.ROOT, "warning: ingest wrote %d chunks, the raw phase embedded %d%n",
          ingest.texts(), texts.size());
    }
    return 0;
  }

  /** The embedText of every chunk of every indexable file, as the ingest would chunk it. */
  private List<String> chunkTexts(Settings settings, DenseRoutes model) throws IOException {
    Settings.Ingest in = settings.ingest();
    DocumentReader reader = new DocumentReader(Loaders.defaults(in.loaders()), in.maxFileBytes(),
        settings.access());
    StructuredChunker chunker = new StructuredChunker(settings.chunking(), model::countTokens,
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

  private Phase raw(DenseRoutes model, List<String> texts) {
    double c0 = cpuSeconds();
    long t0 = System.nanoTime();
    for (int i = 0; i < texts.size(); i += batch) {
      model.embedAll(texts.subList(i, Math.min(texts.size(), i + batch)));
    }
    return new Phase("raw model", texts.size(), (System.nanoTime() - t0) / 1e9,
        cpuSeconds() - c0);
  }

  private Phase ingest(OpenBookConfig cfg, DenseRoutes routes) throws IOException {
    Path dir = work != null ? work : Files.createTempDirectory("openbook-ingest-bench");
    Path index = dir.resolve("index");
    deleteTree(index);
    try (OpenBook kb = OpenBook.builder().index(index).config(cfg).routes(routes)
        .mode(OpenBook.Mode.RESET).build()) {
      double c0 = cpuSeconds();
      long t0 = System.nanoTime();
      IngestReport r = kb.ingest(docs);
      double s = (System.nanoTime() - t0) / 1e9;
      return new Phase("openbook ingest", r.chunks(), s, cpuSeconds() - c0);
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

  /**
   * Runs the ingest path once on copies of the first few files into a throw-away index, so the
   * timed ingest, like the timed raw phase, runs JIT-compiled code (Lucene indexing, analysis,
   * the embedding cache) instead of paying the compilation inside its measurement.
   */
  private void warmUpIngest(OpenBookConfig cfg, DenseRoutes routes) throws IOException {
    Path dir = Files.createTempDirectory("openbook-ingest-warmup");
    Path copies = Files.createDirectories(dir.resolve("docs"));
    List<CorpusFile> files = new CorpusWalker().scan(docs).files();
    for (CorpusFile f : files.subList(0, Math.min(warmup, files.size()))) {
      Path copy = copies.resolve(f.source());
      Files.createDirectories(copy.getParent());
      Files.copy(f.path(), copy);
    }
    try (OpenBook kb = OpenBook.builder().index(dir.resolve("index")).config(cfg).routes(routes)
        .mode(OpenBook.Mode.RESET).build()) {
      kb.ingest(copies);
    } finally {
      deleteTree(dir);
    }
  }

  private static void print(Phase p) {
    System.out.printf(Locale.ROOT, "%-16s %6d texts in %7.2f s = %6.1f texts/s; %.3f CPU s/text%n",
        p.name(), p.texts(), p.seconds(), p.rate(), p.cpuPerText());
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
