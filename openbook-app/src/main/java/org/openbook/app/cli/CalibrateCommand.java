package org.openbook.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.embed.DenseRoutes;
import org.openbook.eval.EvalCase;
import org.openbook.eval.EvalCases;
import org.openbook.eval.GateCalibration;
import org.openbook.eval.TwoSignalCalibration;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.RrfFusion;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code openbook calibrate (--answerable FILE --unanswerable FILE | --cases FILE) --index PATH}:
 * the best dense cosine of every question (among the chunks its principal may read), for both
 * groups, with a verdict on gate 1 ({@link GateCalibration}); with the two-signal gate on, also
 * the trade-off table of the two-signal rule on the top-k hits ({@link TwoSignalCalibration}). Question files are JSON Lines of
 * {@code {question, principal?}}; a kb-demo cases file is split by its {@code expect} field.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Measure whether the best dense cosine separates answerable from unanswerable "
        + "questions, and suggest a gate-1 threshold only if it does.")
public final class CalibrateCommand implements Callable<Integer> {

  @Mixin CommonOptions common;

  @ArgGroup(exclusive = true, multiplicity = "1") Sets sets;

  /** Either two question files or one cases file. */
  static final class Sets {
    @ArgGroup(exclusive = false) Pair pair;

    @Option(names = "--cases", paramLabel = "FILE",
        description = "A cases file (kb-demo format), split by expect=answer|refuse.")
    Path cases;
  }

  /** Answerable and unanswerable question files. */
  static final class Pair {
    @Option(names = "--answerable", required = true, paramLabel = "FILE",
        description = "Questions the knowledge base answers (JSONL {question, principal?}).")
    Path answerable;

    @Option(names = "--unanswerable", required = true, paramLabel = "FILE",
        description = "Questions it cannot answer (JSONL {question, principal?}).")
    Path unanswerable;
  }

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<EvalCase> answerable = new ArrayList<>();
    List<EvalCase> unanswerable = new ArrayList<>();
    if (sets.cases != null) {
      for (EvalCase c : EvalCases.read(sets.cases)) {
        (c.expectRefuse() ? unanswerable : answerable).add(c);
      }
    } else {
      answerable.addAll(EvalCases.read(sets.pair.answerable));
      unanswerable.addAll(EvalCases.read(sets.pair.unanswerable));
    }
    OpenBookConfig config = common.loadConfig();
    try (OpenBook engine = OpenBook.builder().index(common.index).config(config)
        .mode(OpenBook.Mode.READ).build()) {
      DenseRoutes routes = engine.routes();
      // Gate 1 reads the primary model's best cosine whatever the question's language.
      Retriever dense = new HybridRetriever(routes, engine.store(), engine.store(),
          RrfFusion.DEFAULT, HybridRetriever.Mode.DENSE);
      GateCalibration g = new GateCalibration(
          bestCosines(dense, answerable, engine), bestCosines(dense, unanswerable, engine));
      out.printf("index %s (%d chunks, %s); current gate-1 threshold %.3f%n%n", common.index,
          engine.count(), routes.primary().modelId(), engine.settings().gate().threshold());
      out.print(g.render());
      if (engine.gate().lexical()) {
        // The two-signal rule as `ask` applies it: the gate's verdict on the top-k hits.
        out.printf("%nTwo-signal gate 1 (dense threshold %.3f, lexical threshold %.2f in use) "
            + "against the dense route alone:%n", engine.gate().denseThreshold(),
            engine.gate().lexicalThreshold());
        out.print(new TwoSignalCalibration(evidence(dense, answerable, engine),
            evidence(dense, unanswerable, engine)).render());
      }
      out.flush();
      return 0;
    }
  }

  private static List<TwoSignalCalibration.Evidence> evidence(Retriever dense,
      List<EvalCase> cases, OpenBook engine) throws IOException {
    List<TwoSignalCalibration.Evidence> out = new ArrayList<>();
    for (EvalCase c : cases) {
      Query q = engine.query(c.question(), engine.principal(c.principal()), null);
      var top = engine.retriever().retrieve(q);
      double route = dense.retrieve(new Query(c.question(), q.principal(), 1, 10))
          .bestDenseScore();
      out.add(new TwoSignalCalibration.Evidence(route,
          engine.gate().judge(c.question(), top.hits(), top.bestDenseScore(),
              q.principal().filter())));
    }
    return out;
  }

  private static double[] bestCosines(Retriever dense, List<EvalCase> cases, OpenBook engine)
      throws IOException {
    double[] best = new double[cases.size()];
    for (int i = 0; i < cases.size(); i++) {
      EvalCase c = cases.get(i);
      Query q;
      try {
        q = new Query(c.question(), engine.principal(c.principal()), 1, 10);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("question " + c.id() + ": " + e.getMessage(), e);
      }
      best[i] = dense.retrieve(q).bestDenseScore();
    }
    return best;
  }
}
