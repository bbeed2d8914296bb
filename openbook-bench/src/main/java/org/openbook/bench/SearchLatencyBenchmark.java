package org.openbook.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.embed.DenseRoutes;
import org.openbook.eval.Percentiles;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * In-process search latency on an existing index: every question is retrieved once per mode
 * (hybrid, dense only, BM25 only) after a warm-up, and the median and p95 per mode are printed,
 * with hybrid as a ratio of the dense-only baseline measured in the same run; once with the
 * Chinese model alone and once with the language routes (English questions also embedded by the
 * English model), so the cost of the second model is a ratio measured in the same run. The
 * index must have been built with the language routes ({@code openbook ingest}). Questions come
 * from a file: JSON Lines with a {@code question} field, or plain text, one per line.
 */
@Command(name = "search-latency", mixinStandardHelpOptions = true,
    description = "Median and p95 retrieval latency per route on an index.")
public final class SearchLatencyBenchmark implements Callable<Integer> {

  @Option(names = "--index", required = true, description = "Index built by openbook ingest.")
  Path index;

  @Option(names = "--questions", required = true,
      description = "JSON Lines with a question field, or one question per line.")
  Path questions;

  @Option(names = "--config", description = "Configuration file.")
  Path config;

  @Option(names = "--principal", description = "Principal (default: public only).")
  String principal;

  @Option(names = "--limit", defaultValue = "50", description = "Questions to time (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "-k", defaultValue = "5", description = "Top-k (default: ${DEFAULT-VALUE}).")
  int k;

  @Override
  public Integer call() throws Exception {
    List<String> qs = read(questions, limit);
    OpenBookConfig cfg = config == null ? OpenBookConfig.defaults() : ConfigLoader.read(config);
    try (OpenBook engine = OpenBook.builder().index(index).config(cfg).build()) {
      Principal who = engine.principal(principal);
      DenseRoutes bilingual = engine.routes();
      // The Chinese model alone on the same index (its primary field): the one-model baseline.
      DenseRoutes chineseOnly = DenseRoutes.single(bilingual.primary());
      System.out.printf(Locale.ROOT, "%d questions (%d routed to English too), %d chunks, k=%d%n",
          qs.size(), qs.stream().filter(bilingual::routesToEnglish).count(), engine.count(), k);
      double oneModelHybrid = Double.NaN;
      for (DenseRoutes routes : List.of(chineseOnly, bilingual)) {
        String label = routes == chineseOnly ? "zh model only" : "zh + en routes";
        double denseMedian = Double.NaN;
        for (HybridRetriever.Mode mode : new HybridRetriever.Mode[] {
            HybridRetriever.Mode.DENSE, HybridRetriever.Mode.SPARSE, HybridRetriever.Mode.HYBRID}) {
          HybridRetriever r = new HybridRetriever(routes, engine.store(), engine.store(),
              engine.settings().retrieval().fusion(), mode);
          for (int i = 0; i < Math.min(5, qs.size()); i++) {
            r.retrieve(engine.query(qs.get(i), who, k)); // warm-up: JIT, caches
          }
          double[] ms = new double[qs.size()];
          for (int i = 0; i < qs.size(); i++) {
            Query q = engine.query(qs.get(i), who, k);
            long t0 = System.nanoTime();
            r.retrieve(q);
            ms[i] = (System.nanoTime() - t0) / 1e6;
          }
          double median = Percentiles.of(ms, 50);
          if (mode == HybridRetriever.Mode.DENSE) {
            denseMedian = median;
          }
          String vsOne = "";
          if (mode == HybridRetriever.Mode.HYBRID) {
            if (routes == chineseOnly) {
              oneModelHybrid = median;
            } else {
              vsOne = String.format(Locale.ROOT, ", %.2f x hybrid with the zh model only",
                  median / oneModelHybrid);
            }
          }
          System.out.printf(Locale.ROOT,
              "%-15s %-7s median %6.1f ms  p95 %6.1f ms  (%.2f x dense%s)%n", label,
              mode.name().toLowerCase(Locale.ROOT), median, Percentiles.of(ms, 95),
              median / denseMedian, vsOne);
        }
      }
    }
    return 0;
  }

  private static List<String> read(Path file, int limit) throws Exception {
    ObjectMapper json = new ObjectMapper();
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      String t = line.strip();
      if (t.isEmpty()) {
        continue;
      }
      out.add(t.startsWith("{") ? json.readTree(t).path("question").asText() : t);
      if (out.size() == limit) {
        break;
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no questions in " + file);
    }
    return out;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SearchLatencyBenchmark()).execute(args));
  }
}
