package org.openbook.bench.scale;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Principal;

/**
 * Memory while serving, measured in a JVM of its own (started by {@link ScaleBenchmark} with the
 * {@code -Xmx} it reports): opens the index read-only through the {@link OpenBook} facade with
 * the real bge-small-zh-v1.5 model, runs {@code search} (query embedding + hybrid retrieval) for
 * every question, then prints one line {@code PROBE rssKb=… hwmKb=… heapUsedMb=…
 * heapCommittedMb=… heapMaxMb=… queries=…} with the resident set size ({@code VmRSS}) and its
 * peak ({@code VmHWM}) from {@code /proc/self/status}, and the heap after a full GC.
 *
 * <p>Usage: {@code ServeProbe INDEX QUESTIONS_FILE [CONFIG_FILE]} (one question per line; the
 * defaults without a configuration file).
 */
public final class ServeProbe {

  private ServeProbe() {}

  public static void main(String[] args) throws IOException {
    Path index = Path.of(args[0]);
    List<String> questions = Files.readAllLines(Path.of(args[1]), StandardCharsets.UTF_8);
    OpenBookConfig config = args.length > 2
        ? org.openbook.engine.config.ConfigLoader.load(Path.of(args[2]), System.getenv())
        : OpenBookConfig.defaults();
    try (OpenBook engine = OpenBook.builder().index(index).config(config)
        .embedder(new BgeSmallZhEmbedder()).mode(OpenBook.Mode.READ).build()) {
      for (String q : questions) {
        engine.search(q, Principal.ANONYMOUS, 5);
      }
      System.gc();
      MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
      System.out.printf(Locale.ROOT,
          "PROBE rssKb=%d hwmKb=%d heapUsedMb=%.0f heapCommittedMb=%.0f heapMaxMb=%.0f"
              + " queries=%d%n", status("VmRSS"), status("VmHWM"), heap.getUsed() / 1048576.0,
          heap.getCommitted() / 1048576.0, heap.getMax() / 1048576.0, questions.size());
    }
  }

  /** A {@code kB} field of {@code /proc/self/status}, or -1 where there is none (not Linux). */
  static long status(String field) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith(field + ":")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
