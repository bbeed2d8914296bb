package org.openbook.app.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.openbook.engine.OpenBook;
import org.openbook.app.JsonOutput;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retrieval;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code openbook search "<question>" --index PATH [-k 5] [--principal NAME]}: retrieval only. */
@Command(name = "search", mixinStandardHelpOptions = true,
    description = "Retrieve passages for a question (no generation), with per-route ranks and scores.")
public final class SearchCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "QUESTION") String question;
  @Mixin CommonOptions common;
  @Mixin RetrievalOptions retrieval;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    OpenBookConfig config = common.loadConfig();
    try (OpenBook engine = OpenBook.forSearch(common.index, config)) {
      Query query = engine.query(question, config.principal(retrieval.principal), retrieval.topK);
      long t0 = System.nanoTime();
      Retrieval r = engine.retriever().retrieve(query);
      long millis = (System.nanoTime() - t0) / 1_000_000;
      if (common.json) {
        out.println(JsonOutput.search(query, r, millis));
        return 0;
      }
      if (r.hits().isEmpty()) {
        out.println("no passages found for principal '" + query.principal().name() + "'");
      }
      int n = 1;
      for (Hit h : r.hits()) {
        out.printf("[%d] %s%n", n++, Display.location(h.chunk()));
        out.printf("    fused %.4f | dense %s | bm25 %s%n", h.fusedScore(),
            Display.route(h.denseRank(), h.denseScore()), Display.route(h.sparseRank(), h.sparseScore()));
        out.println("    " + Display.snippet(h.chunk().raw(), 160));
      }
      out.printf("(%d ms; dense %d + bm25 %d candidates; best cosine %s)%n", millis,
          r.denseCandidates(), r.sparseCandidates(), Display.score(r.bestDenseScore()));
      return 0;
    }
  }
}
