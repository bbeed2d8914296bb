package org.openbook.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestListener;
import org.openbook.testing.SharedData;

/**
 * The kb-demo documents ingested once per test JVM with the default embedding models
 * (bge-small-zh-v1.5, plus bge-small-en-v1.5 for the English route) and the default
 * configuration (about 20 s), into a temporary folder removed at exit. Tests that need it
 * are skipped when the shared data is absent.
 */
public final class KbDemoIndex {

  private static Path index;

  private KbDemoIndex() {}

  /** {@code shared/fixtures/kb-demo/docs}, skipping the test when absent. */
  public static Path docs() {
    return SharedData.require("fixtures/kb-demo/docs");
  }

  /** The index folder, built on first use. Open it read-only ({@link OpenBook#forSearch}). */
  public static synchronized Path index() throws IOException {
    Path docs = docs();
    if (index == null) {
      Path dir = Files.createTempDirectory("kb-demo-index");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
      try (OpenBook engine = OpenBook.builder().index(dir.resolve("index"))
          .config(OpenBookConfig.defaults()).mode(OpenBook.Mode.RESET).build()) {
        engine.ingest(docs, IngestListener.NONE);
      }
      index = dir.resolve("index");
    }
    return index;
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
