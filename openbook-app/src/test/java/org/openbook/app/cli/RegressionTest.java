package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.openbook.eval.ExpectedScores;
import org.openbook.testing.SharedData;

/**
 * The CI quality gate: every expected-score file under {@code src/test/resources/regressions/}
 * is run through {@code openbook eval --expect FILE} with the real bge model (one ingest, one
 * index for every configuration). The test fails when a figure falls below its
 * {@code expected - tolerance}; the figures live in the YAML files, not here.
 */
class RegressionTest {

  private static final Path FILES = Path.of("src/test/resources/regressions");

  @TempDir Path tmp;

  static Stream<Path> expectedScoreFiles() throws IOException {
    try (Stream<Path> files = Files.list(FILES)) {
      List<Path> yaml = files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
      assertThat(yaml).as("expected-score files in " + FILES).isNotEmpty();
      return yaml.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expectedScoreFiles")
  void should_keep_the_expected_scores(Path file) throws Exception {
    ExpectedScores expected = ExpectedScores.read(file);
    SharedData.requireTools(expected.missingPrograms());
    Path out = tmp.resolve("report");
    List<String> args = new ArrayList<>(List.of("eval",
        "--cases", SharedData.require(expected.cases()).toString(),
        "--docs", SharedData.require(expected.docs()).toString(),
        "--index", tmp.resolve("index").toString(),
        "--configs", expected.configs(),
        "--expect", file.toString(),
        "--out", out.toString(), "--no-progress"));
    if (expected.config() != null) {
      args.addAll(List.of("--config", Path.of("..").resolve(expected.config()).toString()));
    }

    int code = OpenBookCommand.execute(args.toArray(String[]::new));

    JsonNode report = read(out.resolve("eval.json"));
    for (ExpectedScores.Expectation e : expected.expect()) {
      assertThat(configNames(report)).as("configurations in eval.json").contains(e.config());
    }
    assertThat(code).as("openbook eval --expect %s exit code (5 = below a floor)", file)
        .isZero();
  }

  private static List<String> configNames(JsonNode report) {
    List<String> names = new ArrayList<>();
    report.get("configs").forEach(c -> names.add(c.get("name").asText()));
    return names;
  }

  private static JsonNode read(Path json) {
    try {
      return new ObjectMapper().readTree(json.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
