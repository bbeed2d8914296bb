package org.openbook.eval;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * An expected-score file: the quality a labelled question set must keep, read by the regression
 * test and by {@code openbook eval --expect FILE}. The figures live in these files, not in Java
 * constants or prose, so a change of quality is one reviewed line.
 *
 * <pre>
 * name: kb-demo                       # shown in reports
 * cases: fixtures/kb-demo/cases.jsonl # relative to the shared data folder
 * docs: fixtures/kb-demo/docs         # relative to the shared data folder
 * config: examples/openbook.yaml      # relative to the repository root; optional
 * configs: dense,bm25,rrf,hybrid      # eval configurations to run
 * needs: [tesseract]                  # programs the run needs on the PATH; optional
 * expect:
 *   - {config: hybrid, metric: recall5, expected: 1.000, tolerance: 0.06}
 * </pre>
 *
 * <p>An expectation holds when the measured value is at least {@code expected - tolerance}
 * (all metrics are higher-is-better except {@code falseRefusalRate}, which must stay at most
 * {@code expected + tolerance}).
 *
 * @param name    the set's name
 * @param cases   cases file, relative to the shared folder
 * @param docs    corpus folder, relative to the shared folder
 * @param config  OpenBook configuration file relative to the repository root, or null
 * @param configs eval configurations, comma-separated ({@link RetrieverVariant#parse})
 * @param needs   programs the run needs on the {@code PATH} (e.g. {@code tesseract} for OCR)
 * @param expect  the expectations
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record ExpectedScores(
    String name, String cases, String docs, String config, String configs, List<String> needs,
    List<Expectation> expect) {

  public ExpectedScores {
    needs = needs == null ? List.of() : List.copyOf(needs);
    expect = expect == null ? List.of() : List.copyOf(expect);
  }

  /** The {@link #needs} programs not found on the {@code PATH}. */
  public List<String> missingPrograms() {
    String path = System.getenv().getOrDefault("PATH", "");
    List<String> missing = new ArrayList<>();
    for (String program : needs) {
      boolean found = false;
      for (String dir : path.split(java.io.File.pathSeparator)) {
        found |= !dir.isEmpty() && java.nio.file.Files.isExecutable(Path.of(dir, program));
      }
      if (!found) {
        missing.add(program);
      }
    }
    return missing;
  }

  /**
   * One expected figure.
   *
   * @param config    eval configuration name, e.g. {@code hybrid}
   * @param metric    one of {@link Metric}'s names: {@code recall1}, {@code recall5},
   *                  {@code recall10}, {@code mrr10}, {@code ndcg10}, {@code refusalAccuracy},
   *                  {@code refusalRecall}, {@code falseRefusalRate}, {@code answerContains}
   *                  (share of answerable cases whose answer holds every expected fragment)
   * @param expected  the value measured when the expectation was set
   * @param tolerance how far below it (above it, for {@code falseRefusalRate}) still passes, ≥ 0
   */
  public record Expectation(String config, String metric, double expected, double tolerance) {
    public Expectation {
      Metric.of(metric); // fail on load, naming the metric, not at the end of a long eval
      if (!(tolerance >= 0)) {
        throw new IllegalArgumentException("tolerance must be >= 0, got " + tolerance);
      }
    }
  }

  /** The metrics an expectation may name. */
  public enum Metric {
    RECALL1("recall1"), RECALL5("recall5"), RECALL10("recall10"), MRR10("mrr10"),
    NDCG10("ndcg10"), REFUSAL_ACCURACY("refusalAccuracy"), REFUSAL_RECALL("refusalRecall"),
    FALSE_REFUSAL_RATE("falseRefusalRate"), ANSWER_CONTAINS("answerContains");

    private final String key;

    Metric(String key) {
      this.key = key;
    }

    /** The metric called {@code key}; throws naming the known ones. */
    public static Metric of(String key) {
      for (Metric m : values()) {
        if (m.key.equals(key)) {
          return m;
        }
      }
      List<String> known = new ArrayList<>();
      for (Metric m : values()) {
        known.add(m.key);
      }
      throw new IllegalArgumentException("unknown metric '" + key + "'; known: " + known);
    }

    /** This metric of {@code r}, NaN when it was not measured (no refusal cases). */
    public double of(ConfigResult r) {
      RefusalCounts refusal = r.refusal();
      return switch (this) {
        case RECALL1 -> r.overall().recall1();
        case RECALL5 -> r.overall().recall5();
        case RECALL10 -> r.overall().recall10();
        case MRR10 -> r.overall().mrr10();
        case NDCG10 -> r.overall().ndcg10();
        case REFUSAL_ACCURACY -> refusal == null ? Double.NaN : refusal.accuracy();
        case REFUSAL_RECALL -> refusal == null ? Double.NaN : refusal.recall();
        case FALSE_REFUSAL_RATE -> refusal == null ? Double.NaN : refusal.falseRefusalRate();
        case ANSWER_CONTAINS -> r.answers() == null ? Double.NaN : r.answers().share();
      };
    }

    boolean lowerIsBetter() {
      return this == FALSE_REFUSAL_RATE;
    }
  }

  /**
   * Reads an expected-score file.
   *
   * @throws IOException naming the file and the bad field when it cannot be read or parsed
   */
  public static ExpectedScores read(Path file) throws IOException {
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    try {
      return yaml.readValue(file.toFile(), ExpectedScores.class);
    } catch (IOException e) {
      throw new IOException("bad expected-score file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * The expectations {@code results} do not meet, one line each; empty when all hold.
   *
   * @throws IllegalArgumentException when an expectation names a configuration not in results
   */
  public List<String> failures(List<ConfigResult> results) {
    List<String> out = new ArrayList<>();
    for (Expectation e : expect) {
      Optional<ConfigResult> r = results.stream().filter(c -> c.name().equals(e.config()))
          .findFirst();
      if (r.isEmpty()) {
        throw new IllegalArgumentException("expected-score file " + name + " names configuration '"
            + e.config() + "', which this eval did not run");
      }
      Metric m = Metric.of(e.metric());
      double v = m.of(r.get());
      boolean ok = m.lowerIsBetter() ? v <= e.expected() + e.tolerance()
          : v >= e.expected() - e.tolerance();
      if (!ok) {
        out.add(String.format(Locale.ROOT, "%s %s %.3f, expected %.3f %s %.3f", e.config(),
            e.metric(), v, e.expected(), m.lowerIsBetter() ? "+" : "-", e.tolerance()));
      }
    }
    return out;
  }
}
