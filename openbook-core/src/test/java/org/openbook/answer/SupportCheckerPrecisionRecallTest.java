package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openbook.testing.SharedData;

/**
 * Precision and recall of {@link SupportChecker} on a labelled set of claim–passage pairs written
 * from the kb-demo documents ({@code answer/support-pairs.jsonl}: the claims are ours, the
 * passage is the kb-demo section containing {@code contains}, read from the shared folder).
 * The positive class is "unsupported", what the checker reports: precision = share of flagged
 * citations that are really unsupported, recall = share of unsupported citations that are flagged.
 */
class SupportCheckerPrecisionRecallTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static List<Pair> pairs;

  /** One labelled pair; {@code passage} is the kb-demo section text. */
  record Pair(String id, String claim, String source, String passage, boolean supported,
      String kind) {}

  /** Confusion counts for the "unsupported" class. */
  record Counts(int tp, int fp, int fn, int tn) {
    double precision() {
      return tp + fp == 0 ? 1.0 : (double) tp / (tp + fp);
    }

    double recall() {
      return tp + fn == 0 ? 1.0 : (double) tp / (tp + fn);
    }
  }

  @BeforeAll
  static void load() throws IOException {
    Path docs = SharedData.require("fixtures/kb-demo/docs");
    pairs = new ArrayList<>();
    try (var in = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
        SupportCheckerPrecisionRecallTest.class.getResourceAsStream("/answer/support-pairs.jsonl")),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode n = JSON.readTree(line);
        String source = n.get("source").asText();
        String doc = Files.readString(docs.resolve(source));
        pairs.add(new Pair(n.get("id").asText(), n.get("claim").asText(), source,
            section(doc, n.get("contains").asText(), n.get("id").asText()),
            n.get("supported").asBoolean(), n.get("kind").asText()));
      }
    }
  }

  /** The body of the Markdown section holding {@code fragment}: between the headings around it. */
  static String section(String doc, String fragment, String id) {
    int at = doc.indexOf(fragment);
    if (at < 0) {
      throw new IllegalStateException(id + ": fragment '" + fragment + "' not in the document");
    }
    int start = doc.lastIndexOf("\n#", at);
    start = doc.indexOf('\n', start + 1) + 1;
    int end = doc.indexOf("\n#", at);
    return doc.substring(start, end < 0 ? doc.length() : end).strip();
  }

  /** The support score of {@code claim[1]。} against its passage. */
  static double score(Pair p, SupportChecker checker) {
    List<Source> sources = Fixtures.sources(p.source(), p.passage());
    CitationReport report = new CitationChecker(RefusalPolicy.DEFAULT).check(p.claim() + "[1]。", 1);
    return checker.check(report, sources).scores().get(1);
  }

  static Counts counts(SupportChecker checker) {
    int tp = 0;
    int fp = 0;
    int fn = 0;
    int tn = 0;
    for (Pair p : pairs) {
      boolean flagged = score(p, checker) < checker.threshold();
      if (flagged && !p.supported()) {
        tp++;
      } else if (flagged) {
        fp++;
      } else if (!p.supported()) {
        fn++;
      } else {
        tn++;
      }
    }
    return new Counts(tp, fp, fn, tn);
  }

  private static String line(String label, Counts c) {
    return String.format(Locale.ROOT, "  %-34s precision %.2f recall %.2f (tp %d fp %d fn %d tn %d)%n",
        label, c.precision(), c.recall(), c.tp(), c.fp(), c.fn(), c.tn());
  }

  @Test
  void should_hold_a_labelled_set_with_both_classes() {
    assertThat(pairs).hasSize(45);
    assertThat(pairs.stream().filter(Pair::supported)).hasSize(24);
    assertThat(pairs).extracting(Pair::id).doesNotHaveDuplicates();
  }

  @Test
  void should_reach_the_lexical_floors_at_the_default_threshold() {
    StringBuilder report = new StringBuilder("SupportChecker (lexical) on answer/support-pairs.jsonl "
        + "(positive = unsupported; 21 unsupported, 24 supported)\n");
    for (int t = 3; t <= 9; t++) {
      report.append(line("threshold 0." + t, counts(new SupportChecker(t / 10.0))));
    }
    SupportChecker lexical = new SupportChecker();
    for (Pair p : pairs) {
      double s = score(p, lexical);
      report.append(String.format(Locale.ROOT, "    %s %-17s %-9s score %.2f %s%n", p.id(),
          p.kind(), p.supported() ? "supported" : "unsupp.", s,
          (s < lexical.threshold()) == !p.supported() ? "ok" : "WRONG"));
    }
    System.out.print(report);

    Counts c = counts(lexical);
    assertThat(c.precision()).isGreaterThanOrEqualTo(0.80); // measured 0.82
    assertThat(c.recall()).isGreaterThanOrEqualTo(0.65); // measured 0.67
    // every wrong number and every wrong passage is caught
    assertThat(pairs).filteredOn(p -> p.kind().equals("wrong_number") || p.kind().equals("wrong_passage"))
        .hasSize(10)
        .allSatisfy(p -> assertThat(score(p, lexical)).as(p.id()).isZero());
  }

  @Test
  void should_trade_recall_for_precision_with_the_embedding_signal() {
    var embedder = new org.openbook.embed.BgeSmallZhEmbedder();
    StringBuilder report = new StringBuilder(
        "SupportChecker lexical 0.5 + bge cosine on answer/support-pairs.jsonl\n");
    report.append(line("lexical only", counts(new SupportChecker())));
    for (double c : new double[] {0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8}) {
      report.append(line(String.format(Locale.ROOT, "+ cosine >= %.2f", c),
          counts(new SupportChecker(SupportChecker.DEFAULT_THRESHOLD, embedder, c))));
    }
    System.out.print(report);

    Counts combined = counts(new SupportChecker(SupportChecker.DEFAULT_THRESHOLD, embedder,
        SupportChecker.DEFAULT_MIN_COSINE));
    assertThat(combined.precision()).isGreaterThanOrEqualTo(0.95); // measured 1.00
    assertThat(combined.recall()).isGreaterThanOrEqualTo(0.55); // measured 0.57
    assertThat(combined.fp()).isLessThan(counts(new SupportChecker()).fp());
  }
}
