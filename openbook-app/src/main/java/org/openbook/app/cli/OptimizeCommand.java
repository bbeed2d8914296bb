package org.openbook.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openbook.engine.OpenBook;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code openbook optimize --index PATH [--max-segments N]}: force-merges the embedded index after
 * a bulk ingest ({@link OpenBook#optimize}). Every segment holds an HNSW graph of its own that
 * each dense search walks; one merged graph is faster to search, but on a corpus full of
 * near-duplicate passages it found fewer of the true neighbours (docs/PERFORMANCE.md, section
 * 5b). Takes the index's write lock, like an ingest.
 */
@Command(name = "optimize", mixinStandardHelpOptions = true,
    description = "Merge the index's segments after a bulk ingest: faster dense search"
        + " (see docs/PERFORMANCE.md, section 5b, for its recall).")
public final class OptimizeCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Mixin CommonOptions common;

  @Option(names = "--max-segments", defaultValue = "1", paramLabel = "N",
      description = "Merge down to at most N segments (default: ${DEFAULT-VALUE}).")
  int maxSegments;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    try (OpenBook engine = common.open(OpenBook.Mode.WRITE)) {
      OpenBook.OptimizeResult r = engine.optimize(maxSegments);
      PrintWriter out = spec.commandLine().getOut();
      if (common.json) {
        ObjectNode n = JSON.createObjectNode();
        n.put("segmentsBefore", r.segmentsBefore());
        n.put("segmentsAfter", r.segmentsAfter());
        n.put("chunks", r.chunks());
        n.put("seconds", Math.round(r.seconds() * 10) / 10.0);
        out.println(JSON.writeValueAsString(n));
      } else {
        out.printf(Locale.ROOT, "optimized %s: %d segment(s) -> %d, %,d chunks, %.1f s%n",
            common.index, r.segmentsBefore(), r.segmentsAfter(), r.chunks(), r.seconds());
      }
      return 0;
    }
  }
}
