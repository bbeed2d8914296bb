package org.openbook.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The one locator of the read-only shared data sets and fixtures: {@code ../shared} beside the
 * clone, or the {@code openbook.shared} system property that the build sets. Where they are
 * absent, tests that need them are skipped on a developer's machine; with the environment
 * variable {@value #REQUIRE_ENV}{@code =1} (set by {@code .ci/run}) they fail instead, so CI
 * cannot pass by skipping its quality floors.
 */
public final class SharedData {
  /** Environment variable that turns "shared data absent" from a skip into a failure. */
  public static final String REQUIRE_ENV = "OPENBOOK_REQUIRE_SHARED";

  private SharedData() {}

  /** The shared folder (it may not exist). */
  public static Path root() {
    String prop = System.getProperty("openbook.shared");
    return prop != null ? Path.of(prop) : Path.of("../../shared");
  }

  /**
   * Skips the calling test when programs it needs are {@code missing}, or fails it when
   * {@value #REQUIRE_ENV} is set.
   *
   * @throws IllegalStateException when programs are missing and required
   */
  public static void requireTools(java.util.List<String> missing) {
    if (missing.isEmpty()) {
      return;
    }
    String why = "programs not installed: " + missing + " (.ci/run installs them)";
    if (required()) {
      throw new IllegalStateException(why + "; " + REQUIRE_ENV + " is set, so tests may not skip");
    }
    Assumptions.assumeTrue(false, why);
  }

  private static boolean required() {
    String env = System.getenv(REQUIRE_ENV);
    return env != null && !env.isBlank() && !env.equals("0");
  }

  /**
   * {@code shared/<relative>}; skips the calling test when it does not exist, or fails it when
   * {@value #REQUIRE_ENV} is set.
   *
   * @throws IllegalStateException when the data is absent and required
   */
  public static Path require(String relative) {
    Path p = root().resolve(relative);
    if (!Files.exists(p)) {
      if (required()) {
        throw new IllegalStateException("shared data absent: " + p.toAbsolutePath() + " ("
            + REQUIRE_ENV + " is set, so tests may not skip it)");
      }
      Assumptions.assumeTrue(false, "shared data absent: " + p.toAbsolutePath());
    }
    return p;
  }
}
