package org.openbook.app.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.embed.DenseRoutes;
import org.openbook.eval.CaseEvaluator;
import org.openbook.eval.ConfigResult;
import org.openbook.eval.EvalCase;
import org.openbook.eval.EvalCases;
import org.openbook.eval.EvalReport;
import org.openbook.eval.ExpectedScores;
import java.io.IOException;
import org.openbook.eval.RetrieverVariant;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code openbook eval --cases FILE --index PATH [--docs DIR] [--configs dense,bm25,hybrid]
 * [--out DIR] [--min-recall5 X] [--min-refusal-accuracy Y]}: runs labelled cases (kb-demo
 * {@code cases.jsonl} format) through several retrieval configurations over one index and prints
 * them side by side (Markdown; {@code --json} for JSON). With {@code --out} it writes
 * {@code eval.md} and {@code eval.json}; the Recall@k chart is drawn by {@code openbook-bench}.
 *
 * <p>Exit code {@value #EXIT_BELOW_FLOOR} when a floor is given and the {@code --gate-config}
 * configuration falls below it, so CI can fail on a quality drop.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Measure retrieval quality and refusals on labelled questions, several "
        + "configurations side by side.")
public final class EvalCommand implements Callable<Integer> {

  /** Exit code: a quality floor was not met. */
  public static final int EXIT_BELOW_FLOOR = 5;

  @Mixin CommonOptions common;

  @Option(names = "--cases", required = true, paramLabel = "FILE",
      description = "Labelled questions, JSON Lines in the kb-demo cases.jsonl format.")
  Path cases;

  @Option(names = "--docs", paramLabel = "DIR",
      description = "Corpus folder; ingested into the index when the index is empty or absent.")
  Path docs;

  @Option(names = "--configs", paramLabel = "LIST", defaultValue = RetrieverVariant.DEFAULT_SPEC,
      description = "Configurations: dense, bm25, hybrid (the configured fusion, as ask uses), "
          + "rrf, rrf:k=K:d=WD:s=WS, minmax, minmax:d=WD, and any of them with +rerank (the "
          + "configured reranking stage, e.g. hybrid+rerank) (default: ${DEFAULT-VALUE}).")
  String configs;

  @Option(names = "--out", paramLabel = "DIR", description = "Write eval.md and eval.json here.")
  Path out;

  @Option(names = "--gate-config", paramLabel = "NAME", defaultValue = "hybrid",
      description = "Configuration the floors apply to (default: ${DEFAULT-VALUE}).")
  String gateConfig;

  @Option(names = "--min-recall5", paramLabel = "X",
      description = "Fail (exit 5) when the gate configuration's Recall@5 is below X.")
  Double minRecall5;

  @Option(names = "--min-refusal-accuracy", paramLabel = "X",
      description = "Fail (exit 5) when the gate configuration's refusal accuracy is below X.")
  Double minRefusalAccuracy;

  @Option(names = "--expect", paramLabel = "FILE",
      description = "Expected-score file (YAML: expect: [{config, metric, expected, tolerance}]);"
          + " fail (exit 5) when a measured figure is below expected - tolerance.")
  Path expect;

  @Option(names = "--no-progress", description = "Do not draw a progress bar.")
  boolean noProgress;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter stdout = spec.commandLine().getOut();
    List<EvalCase> labelled = EvalCases.read(cases);
    OpenBookConfig config = common.loadConfig();
    try (OpenBook engine = OpenBook.builder().index(common.index).config(config)
        .mode(OpenBook.Mode.WRITE).build()) {
      DenseRoutes routes = engine.routes();
      if (engine.count() == 0) {
        ingest(engine, stdout);
      }
      var settings = engine.settings();
      List<RetrieverVariant> variants = RetrieverVariant.parseRouted(configs, routes, engine.store(),
          engine.store(), settings.retrieval().fusion(),
          settings.rerank().enabled() ? engine::reranked : null);
      CaseEvaluator evaluator = new CaseEvaluator(engine::principal, engine.gate(),
          engine::extractiveGenerator, settings.retrieval().topK(), settings.retrieval().fetchK(),
          settings.rerank().threshold());
      List<ConfigResult> results = new ArrayList<>();
      try (ProgressBar bar = progress(variants.size() * labelled.size())) {
        for (RetrieverVariant v : variants) {
          results.add(evaluator.run(v, labelled, bar == null ? () -> { } : bar::step));
        }
      }
      EvalReport report = new EvalReport("eval: " + cases.getFileName(), List.of(
          "cases: " + cases + " (" + labelled.size() + " questions)",
          "index: " + common.index + " (" + engine.count() + " chunks, "
              + routes.primary().modelId()
              + routes.english().map(e -> " + " + e.modelId() + " for English").orElse("") + ")",
          String.format(Locale.ROOT, "gate 1: dense threshold %.3f%s; refusal = AnswerService "
              + "status REFUSED_* with the extractive generator (gate 2: key-term coverage)",
              settings.gate().threshold(), engine.gate().lexical()
                  ? String.format(Locale.ROOT, " or lexical evidence (identifier, or key-term "
                      + "share >= %.2f)", engine.gate().lexicalThreshold()) : ""),
          "rerank: " + (settings.rerank().enabled() ? settings.rerank().type() + "; p50/p95"
              + " include the reranking stage, shown alone as rerank p50" : "none configured")),
          results);
      if (out != null) {
        report.write(out, "eval");
      }
      if (common.json) {
        stdout.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(report));
      } else {
        stdout.print(report.toMarkdown());
        stdout.flush();
      }
      return checkFloors(results, stdout);
    }
  }

  private int checkFloors(List<ConfigResult> results, PrintWriter stdout) throws IOException {
    List<String> failures = new ArrayList<>();
    if (expect != null) {
      failures.addAll(ExpectedScores.read(expect).failures(results));
    }
    if (minRecall5 != null || minRefusalAccuracy != null) {
      failures.addAll(minimumFailures(results));
    }
    if (expect == null && minRecall5 == null && minRefusalAccuracy == null) {
      return 0;
    }
    if (failures.isEmpty()) {
      stdout.println("quality floors met");
      return 0;
    }
    spec.commandLine().getErr().println("quality floor failed: " + String.join("; ", failures));
    return EXIT_BELOW_FLOOR;
  }

  private List<String> minimumFailures(List<ConfigResult> results) {
    ConfigResult gated = results.stream().filter(c -> c.name().equals(gateConfig)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException(
            "--gate-config '" + gateConfig + "' is not among --configs " + configs));
    List<String> failures = new ArrayList<>();
    double recall5 = gated.overall().recall5();
    if (minRecall5 != null && !(recall5 >= minRecall5)) {
      failures.add(String.format(Locale.ROOT, "%s Recall@5 %.3f < floor %.3f", gateConfig,
          recall5, minRecall5));
    }
    if (minRefusalAccuracy != null) {
      double acc = gated.refusal() == null ? Double.NaN : gated.refusal().accuracy();
      if (!(acc >= minRefusalAccuracy)) {
        failures.add(String.format(Locale.ROOT, "%s refusal accuracy %.3f < floor %.3f",
            gateConfig, acc, minRefusalAccuracy));
      }
    }
    return failures;
  }

  private void ingest(OpenBook engine, PrintWriter stdout) throws java.io.IOException {
    if (docs == null) {
      throw new IllegalArgumentException(
          "index " + common.index + " is empty: pass --docs DIR to ingest the corpus first");
    }
    if (!Files.isDirectory(docs)) {
      throw new IllegalArgumentException("--docs is not a folder: " + docs);
    }
    IngestReport report = engine.ingest(docs, new IngestListener() { });
    stdout.printf("ingested %s: %d files, %d chunks, %d skipped%n", docs, report.indexed().size(),
        report.chunks(), report.skipped().size());
  }

  private ProgressBar progress(int steps) {
    if (noProgress || common.json) {
      return null;
    }
    return new ProgressBarBuilder().setTaskName("eval").setInitialMax(steps)
        .setStyle(ProgressBarStyle.ASCII).setUnit(" questions", 1).continuousUpdate().build();
  }
}
