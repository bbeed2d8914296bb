package org.openbook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.eval.GateCalibration;
import org.openbook.eval.RefusalCounts;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Gate 1 on RGB zh ({@code datasets/rgb-zh/zh_refine.json}, JSON Lines of {@code {query,
 * positive[], negative[]}}): per question, the best dense cosine when only its negative passages
 * are indexed (the right behaviour is refusal) and when only its positive passages are (it
 * should answer). Exact cosine over the question's own passages, so no index is needed.
 * Passages over the model's 512 tokens are cut to their first 400 characters (counted).
 * Prints {@link GateCalibration#render()} and the refusal rate on negatives next to the
 * false-refusal rate on positives at {@code --threshold}.
 */
@Command(name = "rgb-gate", mixinStandardHelpOptions = true,
    description = "Gate-1 separation on RGB zh negatives vs positives.")
public final class RgbGateBenchmark implements Callable<Integer> {

  @Option(names = "--shared", description = "Shared data folder (default: $openbook.shared, else ../shared).")
  Path shared;

  @Option(names = "--work", defaultValue = "/tmp/openbook-bench", description = "Embedding cache folder parent.")
  Path work;

  @Option(names = "--limit", description = "Only the first N questions.")
  Integer limit;

  @Option(names = "--threshold", defaultValue = "0.5", description = "Gate-1 threshold to report (default: ${DEFAULT-VALUE}).")
  double threshold;

  @Override
  public Integer call() throws Exception {
    Path base = shared != null ? shared : Paths.get(System.getProperty("openbook.shared", "../shared"));
    Path file = base.resolve("datasets/rgb-zh/zh_refine.json");
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    int n = limit == null ? lines.size() : Math.min(limit, lines.size());
    ObjectMapper json = new ObjectMapper();
    List<Double> pos = new ArrayList<>();
    List<Double> neg = new ArrayList<>();
    int[] cut = {0};
    try (EmbeddingCache cache = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
      Embedder embedder = new CachingEmbedder(model, cache);
      try (ProgressBar bar = new ProgressBarBuilder().setTaskName("rgb-zh").setInitialMax(n)
          .setStyle(ProgressBarStyle.ASCII).build()) {
        for (int i = 0; i < n; i++) {
          JsonNode row = json.readTree(lines.get(i));
          float[] q = embedder.embed(row.path("query").asText());
          pos.add(best(q, row.path("positive"), embedder, model, cut));
          neg.add(best(q, row.path("negative"), embedder, model, cut));
          cache.commit();
          bar.step();
        }
      }
    }
    GateCalibration g = new GateCalibration(
        pos.stream().mapToDouble(Double::doubleValue).toArray(),
        neg.stream().mapToDouble(Double::doubleValue).toArray());
    RefusalCounts at = g.at(threshold);
    System.out.printf(Locale.ROOT, "RGB zh_refine: %d questions; %d passages cut to 400 chars%n%n",
        n, cut[0]);
    System.out.print(g.render());
    System.out.printf(Locale.ROOT, "%nat threshold %.3f: refusal rate with only negatives indexed "
        + "%.3f; false-refusal rate with positives indexed %.3f%n", threshold, at.recall(),
        at.falseRefusalRate());
    System.out.flush();
    return 0;
  }

  private static double best(float[] q, JsonNode passages, Embedder embedder,
      BgeSmallZhEmbedder model, int[] cut) {
    List<String> texts = new ArrayList<>();
    for (JsonNode p : passages) {
      String t = p.asText();
      if (t.isBlank()) {
        continue;
      }
      if (model.countTokens(t) > model.maxInputTokens()) {
        t = t.substring(0, 400);
        cut[0]++;
      }
      texts.add(t);
    }
    double best = Double.NaN;
    List<float[]> vs = embedder.embedAll(texts);
    for (float[] v : vs) {
      double dot = 0;
      for (int i = 0; i < v.length; i++) {
        dot += q[i] * v[i];
      }
      best = Double.isNaN(best) ? dot : Math.max(best, dot);
    }
    return best;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new RgbGateBenchmark()).execute(args));
  }
}
