package org.openbook.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Locates the read-only shared data sets and fixtures ({@code ../shared} beside the clone, or the
 * {@code openbook.shared} system property that the build sets). Tests that need them are skipped,
 * not failed, where they are absent.
 */
public final class SharedData {
  private SharedData() {}

  /** {@code shared/<relative>}; skips the calling test when it does not exist. */
  public static Path require(String relative) {
    String prop = System.getProperty("openbook.shared");
    Path root = prop != null ? Path.of(prop) : Path.of("../../shared");
    Path p = root.resolve(relative);
    Assumptions.assumeTrue(Files.exists(p), "shared data absent: " + p.toAbsolutePath());
    return p;
  }
}
