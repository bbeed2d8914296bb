package org.openbook.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
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
 * In-process search latency on an existing index: every question is retrieved by every variant
 * in turn (rotating order, {@code --rounds} times, after a warm-up) — dense only, BM25 only and
 * hybrid, each with the Chinese model alone, with the language routes embedding an English
 * question by the two models one after the other, and as shipped (the two at once) — and the
 * median and p95 per variant are printed as ratios of the zh-model-only hybrid measured in the
 * same run. The index must have been built with the language routes ({@code openbook ingest}).
 * Questions come from a file: JSON Lines with a {@code question} field, or plain text, one per
 * line.
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

  @Option(names = "--rounds", defaultValue = "3",
      description = "Times each question is asked per variant (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Override
  public Integer call() throws Exception {
    List<String> qs = read(questions, limit);
    OpenBookConfig cfg = config == null ? OpenBookConfig.defaults() : ConfigLoader.read(config);
    try (OpenBook engine = OpenBook.builder().index(index).config(cfg).build()) {
      Principal who = engine.principal(principal);
      DenseRoutes bilingual = engine.routes();
      // The Chinese model alone on the same index (its primary field): the one-model baseline.
      Map<String, DenseRoutes> variants = new LinkedHashMap<>();
      variants.put("zh model only", DenseRoutes.single(bilingual.primary()));
      variants.put("zh+en sequential", bilingual.sequentialQueries());
      variants.put("zh+en concurrent", bilingual);
      List<HybridRetriever.Mode> modes = List.of(
          HybridRetriever.Mode.DENSE, HybridRetriever.Mode.SPARSE, HybridRetriever.Mode.HYBRID);
      List<String> labels = new ArrayList<>();
      List<HybridRetriever> retrievers = new ArrayList<>();
      for (var v : variants.entrySet()) {
        for (HybridRetriever.Mode mode : modes) {
          labels.add(String.format(Locale.ROOT, "%-17s %-7s", v.getKey(),
              mode.name().toLowerCase(Locale.ROOT)));
          retrievers.add(new HybridRetriever(v.getValue(), engine.store(), engine.store(),
              engine.settings().retrieval().fusion(), mode));
        }
      }
      System.out.printf(Locale.ROOT, "%d questions (%d routed to English too) x %d rounds, %d "
              + "chunks, k=%d; every question runs through every variant in turn%n", qs.size(),
          qs.stream().filter(bilingual::routesToEnglish).count(), rounds, engine.count(), k);
      for (int i = 0; i < Math.min(5, qs.size()); i++) {
        for (HybridRetriever r : retrievers) {
          r.retrieve(engine.query(qs.get(i), who, k)); // warm-up: JIT, caches
        }
      }
      double[][] ms = new double[retrievers.size()][qs.size() * rounds];
      int n = 0;
      for (int round = 0; round < rounds; round++) {
        for (String text : qs) {
          Query q = engine.query(text, who, k);
          // rotate the order so that no variant always runs first (or last) under a drifting load
          for (int j = 0; j < retrievers.size(); j++) {
            int v = (j + n) % retrievers.size();
            long t0 = System.nanoTime();
            retrievers.get(v).retrieve(q);
            ms[v][n] = (System.nanoTime() - t0) / 1e6;
          }
          n++;
        }
      }
      double oneModelHybrid = Percentiles.of(ms[modes.size() - 1], 50);
      for (int v = 0; v < retrievers.size(); v++) {
        double median = Percentiles.of(ms[v], 50);
        System.out.printf(Locale.ROOT, "%s median %6.1f ms  p95 %6.1f ms  (%.2f x hybrid with "
                + "the zh model only)%n", labels.get(v), median, Percentiles.of(ms[v], 95),
            median / oneModelHybrid);
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
