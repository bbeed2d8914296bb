package org.openbook.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.openbook.lucene.DenseSearchStats;

/**
 * Writes the scale benchmark's report: {@code scale.md} (Markdown tables) and the charts
 * {@code scale-latency.png} (p50 and p99 per series vs corpus size) and {@code
 * scale-throughput.png} (single-thread queries/s per route and indexing chunks/s vs corpus
 * size), 900 × 500 px, JFreeChart, headless.
 */
public final class ScaleReport {

  /** File names written into the report folder. */
  public static final String MARKDOWN = "scale.md";
  public static final String LATENCY_PNG = "scale-latency.png";
  public static final String THROUGHPUT_PNG = "scale-throughput.png";

  /**
   * What the corpus and the run were made of.
   *
   * @param units        distinct texts embedded by the model (passages, prefixes, sentences)
   * @param embedSeconds wall time of that embedding (near 0 when it came from the cache)
   */
  public record Setup(int sources, Map<String, Integer> families, int pool, int units,
      double embedSeconds, int chunks, Map<ScaleChunk.Origin, Integer> origins, int questions,
      int warmup, int recallQueries, String model) {

    /** The setup of a run over {@code corpus} grown from {@code sources}. */
    public static Setup of(List<SourcePassage> sources, int pool, int units, double embedSeconds,
        List<ScaleChunk> corpus, int questions, int warmup, int recallQueries, String model) {
      Map<ScaleChunk.Origin, Integer> origins = new EnumMap<>(ScaleChunk.Origin.class);
      corpus.forEach(c -> origins.merge(c.origin(), 1, Integer::sum));
      Map<String, Integer> families = new java.util.TreeMap<>();
      sources.forEach(p -> families.merge(p.family(), 1, Integer::sum));
      return new Setup(sources.size(), families, pool, units, embedSeconds, corpus.size(),
          origins, questions, warmup, recallQueries, model);
    }
  }

  /** What {@code scale.json} holds: one run's setup, validation (or null) and results. */
  public record Saved(Setup setup, Validation validation, List<SizeResult> results) {}

  /** File name of the JSON copy of a run. */
  public static final String JSON = "scale.json";

  private ScaleReport() {}

  /** Writes the report for the sizes measured so far (called after each size). */
  public static void write(Path out, Setup setup, Validation validation,
      List<SizeResult> results) throws IOException {
    Files.createDirectories(out);
    StringBuilder md = new StringBuilder();
    corpus(md, setup);
    if (validation != null) {
      validation(md, validation);
    }
    latency(md, results);
    recall(md, results);
    fallback(md, results);
    memory(md, results);
    Files.writeString(out.resolve(MARKDOWN), md, StandardCharsets.UTF_8);
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(
        out.resolve(JSON).toFile(), new Saved(setup, validation, results));
    charts(out, results);
  }

  /**
   * {@code ScaleReport OUT RUN.json...}: one report from several runs (e.g. the small sizes in one
   * JVM and the largest in another), sizes in ascending order; setup and validation are taken
   * from the first run that has them.
   */
  public static void main(String[] args) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Setup setup = null;
    Validation validation = null;
    List<SizeResult> all = new java.util.ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      Saved s = json.readValue(Path.of(args[i]).toFile(), Saved.class);
      setup = setup != null ? setup : s.setup();
      validation = validation != null ? validation : s.validation();
      all.addAll(s.results());
    }
    all.sort(java.util.Comparator.comparingInt(SizeResult::chunks));
    write(Path.of(args[0]), setup, validation, all);
  }

  private static void corpus(StringBuilder md, Setup s) {
    md.append("## Corpus\n\n");
    md.append(f("%,d source chunks read (%s); variant pool: %,d of them; %,d distinct texts "
        + "embedded by %s (pool passages, prefixes, sentences) in %.0f s (cache hits are free); "
        + "%,d chunks grown: %s. Questions: %,d (after %d warm-up), recall on the first %d.%n%n",
        s.sources(), s.families(), s.pool(), s.units(), s.model(), s.embedSeconds(),
        s.chunks(), s.origins(), s.questions(), s.warmup(), s.recallQueries()));
  }

  private static void validation(StringBuilder md, Validation v) {
    md.append("## Validation of the derived vectors\n\n");
    md.append(f("| check | value |%n|---|---:|%n"));
    md.append(f("| variants embedded by the model | %d |%n", v.variants()));
    md.append(f("| cosine(model, derived) over those: mean / p5 / min | %.4f / %.4f / %.4f |%n",
        v.meanCosine(), v.p5Cosine(), v.minCosine()));
    md.append(f("| cosine(model, derived) over the source passages: mean | %.4f |%n",
        v.sourceCosine()));
    md.append(f("| exact top-10 overlap, derived vs model vectors of the sources | %.4f |%n%n",
        v.neighbourOverlap()));
    md.append("Same source passages indexed with model vectors vs derived vectors:\n\n");
    md.append("| vectors | dense p50 / p95 / p99 ms | hybrid p50 ms |"
        + " recall@10 k=10 (all / public+hr / public) | recall@10 k=fetch-k |\n|---|---|---:|---|---|\n");
    for (String name : List.of("model", "derived")) {
      SizeResult r = name.equals("model") ? v.onModel() : v.onDerived();
      md.append(f("| %s | %.2f / %.2f / %.2f | %.2f | %s | %s |%n", name, r.dense().p50(),
          r.dense().p95(), r.dense().p99(), r.hybrid().p50(), recalls(r, 10), recalls(r, -10)));
    }
    md.append('\n');
  }

  private static String recalls(SizeResult r, int k) {
    StringBuilder b = new StringBuilder();
    for (SizeResult.RecallRow row : r.recall()) {
      if (k > 0 ? row.k() == k : row.k() != -k) {
        b.append(b.length() == 0 ? "" : " / ").append(f("%.4f", row.recall10()));
      }
    }
    return b.toString();
  }

  private static void latency(StringBuilder md, List<SizeResult> results) {
    md.append("## Latency (ms, p50 / p95 / p99; one query at a time)\n\n");
    md.append("| chunks | index build | index on disk | segments | query embedding |"
        + " dense | BM25 | hybrid (vector given) | search = embedding + hybrid |"
        + " search / embedding p50 | search / embedding p99 | HNSW settings | load average |\n"
        + "|---:|---:|---:|---:|---|---|---|---|---|---:|---:|---|---|\n");
    for (SizeResult r : results) {
      md.append(f("| %,d | %s%s | %.0f MB | %d | %s | %s | %s | %s | %s |"
              + " %.2f | %.2f | %s | %s |%n", r.chunks(), Double.isNaN(r.indexSeconds())
              ? "reused" : f("%.0f s (%,.0f chunks/s)", r.indexSeconds(),
                  r.chunks() / r.indexSeconds()),
          r.mergeSeconds() == null ? "" : f(" + merge %.0f s", r.mergeSeconds()),
          r.indexBytes() / 1e6, r.segments(), l(r.embedding()), l(r.dense()), l(r.bm25()),
          l(r.hybrid()), l(r.hybridWithEmbedding()),
          r.hybridWithEmbedding().p50() / r.embedding().p50(),
          r.hybridWithEmbedding().p99() / r.embedding().p99(), settings(r),
          r.loadAverage() == null ? "–" : r.loadAverage()));
    }
    md.append("\nSingle-thread throughput (queries/s = 1000 / mean ms):\n\n"
        + "| chunks | embedding | dense | BM25 | hybrid (vector given) | search |\n"
        + "|---:|---:|---:|---:|---:|---:|\n");
    for (SizeResult r : results) {
      md.append(f("| %,d | %.1f | %.1f | %.1f | %.1f | %.1f |%n", r.chunks(),
          r.embedding().qps(), r.dense().qps(), r.bm25().qps(), r.hybrid().qps(),
          r.hybridWithEmbedding().qps()));
    }
    md.append('\n');
  }

  /** The HNSW settings of a result; reports written before they were recorded had Lucene's. */
  private static String settings(SizeResult r) {
    return r.hnsw() == null ? "M 16, beam width 100, efSearch = top-k" : r.hnsw();
  }

  private static String l(Latency l) {
    return f("%.2f / %.2f / %.2f", l.p50(), l.p95(), l.p99());
  }

  private static void recall(StringBuilder md, List<SizeResult> results) {
    md.append("## HNSW recall@10 against exact search\n\n");
    md.append("recall@10 (ids): share of the exact filtered top-10 chunk ids in the HNSW top 10;"
        + " (threshold): share of the HNSW top 10 whose exact cosine is at least the exact 10th"
        + " cosine − 1e-3 (ANN-Benchmarks' distance-threshold recall: a tie at the 10th place"
        + " counts as found).\n\n");
    md.append("| chunks | filter (departments) | share allowed | top-k asked | HNSW candidates |"
        + " recall@10 (ids) | recall@10 (threshold 1e-3) | HNSW settings |"
        + " segments searched exactly by Lucene | OpenBook exact fallbacks |\n"
        + "|---:|---|---:|---:|---:|---:|---:|---|---:|---:|\n");
    for (SizeResult r : results) {
      for (SizeResult.RecallRow row : r.recall()) {
        md.append(f("| %,d | %s | %.3f | %d | %s | %.4f | %s | %s | %d of %d | %d of %d |%n",
            r.chunks(), row.filter(), row.allowedShare(), row.k(),
            row.candidates() == null ? "–" : String.valueOf(row.candidates()), row.recall10(),
            row.recall10Threshold() == null ? "–" : f("%.4f", row.recall10Threshold()),
            settings(r), row.stats().exactSegments(), row.stats().segmentSearches(),
            row.stats().fallbacks(), row.stats().queries()));
      }
    }
    md.append('\n');
  }

  private static void fallback(StringBuilder md, List<SizeResult> results) {
    md.append("## Exact search: how often and at what cost\n\n");
    md.append("| chunks | dense searches while timing (dense and hybrid routes, vector given,"
        + " warm-up included; filter public) |"
        + " segments searched exactly | OpenBook fallbacks | rare filter (audit, ≈1%): dense"
        + " p50 / p95 / p99 ms | its exact segments | its fallbacks (time) |\n"
        + "|---:|---:|---:|---:|---|---:|---:|\n");
    for (SizeResult r : results) {
      DenseSearchStats s = r.servingStats();
      DenseSearchStats q = r.rareStats();
      md.append(f("| %,d | %d | %d of %d | %d | %s | %d of %d | %d (%.1f ms) |%n", r.chunks(),
          s.queries(), s.exactSegments(), s.segmentSearches(), s.fallbacks(), l(r.rareFilter()),
          q.exactSegments(), q.segmentSearches(), q.fallbacks(), q.fallbackNanos() / 1e6));
    }
    md.append('\n');
  }

  private static void memory(StringBuilder md, List<SizeResult> results) {
    md.append("## Memory while serving (separate JVM: facade, real model, search per question)\n\n");
    md.append("| chunks | -Xmx | RSS | peak RSS (VmHWM) | heap used after GC | heap committed |\n"
        + "|---:|---|---:|---:|---:|---:|\n");
    for (SizeResult r : results) {
      SizeResult.Probe p = r.probe();
      if (p == null) {
        md.append(f("| %,d | not run | | | | |%n", r.chunks()));
      } else {
        md.append(f("| %,d | %s | %.0f MB | %.0f MB | %.0f MB | %.0f MB |%n", r.chunks(), p.xmx(),
            p.rssKb() / 1024.0, p.hwmKb() / 1024.0, p.heapUsedMb(), p.heapCommittedMb()));
      }
    }
    md.append('\n');
  }

  private static void charts(Path out, List<SizeResult> results) throws IOException {
    System.setProperty("java.awt.headless", "true");
    XYSeriesCollection lat = new XYSeriesCollection();
    add(lat, "query embedding p50", results, r -> r.embedding().p50());
    add(lat, "dense p50", results, r -> r.dense().p50());
    add(lat, "BM25 p50", results, r -> r.bm25().p50());
    add(lat, "hybrid (vector given) p50", results, r -> r.hybrid().p50());
    add(lat, "search (embedding + hybrid) p50", results, r -> r.hybridWithEmbedding().p50());
    add(lat, "search p99", results, r -> r.hybridWithEmbedding().p99());
    save(out.resolve(LATENCY_PNG), "Latency vs corpus size", "milliseconds", lat);
    XYSeriesCollection qps = new XYSeriesCollection();
    add(qps, "dense queries/s", results, r -> r.dense().qps());
    add(qps, "BM25 queries/s", results, r -> r.bm25().qps());
    add(qps, "hybrid (vector given) queries/s", results, r -> r.hybrid().qps());
    add(qps, "search queries/s", results, r -> r.hybridWithEmbedding().qps());
    add(qps, "indexing chunks/s (vectors given)", results, r -> r.chunks() / r.indexSeconds());
    save(out.resolve(THROUGHPUT_PNG), "Single-thread throughput vs corpus size", "per second",
        qps);
  }

  private static void add(XYSeriesCollection c, String name, List<SizeResult> results,
      java.util.function.ToDoubleFunction<SizeResult> y) {
    XYSeries s = new XYSeries(name);
    results.forEach(r -> s.add(r.chunks(), y.applyAsDouble(r)));
    c.addSeries(s);
  }

  private static void save(Path png, String title, String yLabel, XYSeriesCollection data)
      throws IOException {
    JFreeChart chart = ChartFactory.createXYLineChart(title, "chunks (log scale)", yLabel, data,
        PlotOrientation.VERTICAL, true, false, false);
    XYPlot plot = chart.getXYPlot();
    LogAxis x = new LogAxis("chunks (log scale)");
    x.setSmallestValue(100);
    x.setNumberFormatOverride(new java.text.DecimalFormat("#,##0"));
    plot.setDomainAxis(x);
    LogAxis y = new LogAxis(yLabel + " (log scale)");
    y.setSmallestValue(0.01);
    y.setNumberFormatOverride(new java.text.DecimalFormat("#,##0.##"));
    plot.setRangeAxis(y);
    plot.setRenderer(new XYLineAndShapeRenderer(true, true));
    ChartUtils.saveChartAsPNG(png.toFile(), chart, 900, 500);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
