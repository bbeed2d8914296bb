package org.openbook.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Side-by-side results of several configurations on one question set, rendered as Markdown and
 * JSON.
 *
 * @param title   heading of the report, e.g. {@code kb-demo}
 * @param setup   free-text lines describing corpus, index and command (rendered as a list)
 * @param configs one result per configuration, in the order run
 */
public record EvalReport(String title, List<String> setup, List<ConfigResult> configs) {

  public EvalReport {
    setup = List.copyOf(setup);
    configs = List.copyOf(configs);
  }

  /** The report as Markdown: a main table, then Recall@5 and MRR@10 per query type. */
  public String toMarkdown() {
    StringBuilder md = new StringBuilder("## ").append(title).append("\n\n");
    for (String s : setup) {
      md.append("- ").append(s).append('\n');
    }
    md.append("\n| config | queries | R@1 | R@3 | R@5 | R@10 | MRR@10 | nDCG@10 | refusal P | "
        + "refusal R | false refusal | refusal acc | p50 ms | p95 ms | rerank p50 ms |\n");
    md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (ConfigResult c : configs) {
      RankingScores s = c.overall();
      RefusalCounts r = c.refusal();
      md.append("| ").append(c.name()).append(" | ").append(s.queries());
      for (double v : new double[] {s.recall1(), s.recall3(), s.recall5(), s.recall10(),
          s.mrr10(), s.ndcg10()}) {
        md.append(" | ").append(f3(v));
      }
      if (r == null) {
        md.append(" | – | – | – | –");
      } else {
        md.append(" | ").append(f3(r.precision())).append(" | ").append(f3(r.recall()))
            .append(" | ").append(f3(r.falseRefusalRate())).append(" | ").append(f3(r.accuracy()));
      }
      md.append(" | ").append(f1(c.latencyP50())).append(" | ").append(f1(c.latencyP95()))
          .append(" | ").append(f1(c.rerankP50()))
          .append(" |\n");
    }
    md.append('\n');
    for (ConfigResult c : configs) {
      md.append("- `").append(c.name()).append("`: ").append(c.description()).append('\n');
    }
    for (ConfigResult c : configs) {
      AnswerContains a = c.answers();
      if (a != null) {
        md.append("- `").append(c.name()).append("` answers holding every `answer_contains` "
            + "fragment: ").append(a.complete()).append('/').append(a.cases()).append(" (")
            .append(f3(a.share())).append(')')
            .append(a.missed().isEmpty() ? "" : "; missed: " + String.join(", ", a.missed()))
            .append('\n');
      }
    }
    Set<String> types = new LinkedHashSet<>();
    configs.forEach(c -> types.addAll(c.byType().keySet()));
    if (types.size() > 1 || (types.size() == 1 && !types.contains(""))) {
      perType(md, "Recall@5 by query type", types, true);
      perType(md, "MRR@10 by query type", types, false);
    }
    return md.toString();
  }

  private void perType(StringBuilder md, String heading, Set<String> types, boolean recall) {
    md.append("\n### ").append(heading).append("\n\n| type | n |");
    configs.forEach(c -> md.append(' ').append(c.name()).append(" |"));
    md.append("\n|---|---:|");
    configs.forEach(c -> md.append("---:|"));
    md.append('\n');
    for (String t : types) {
      RankingScores any = configs.get(0).byType().get(t);
      md.append("| ").append(t).append(" | ").append(any == null ? 0 : any.queries()).append(" |");
      for (ConfigResult c : configs) {
        RankingScores s = c.byType().get(t);
        md.append(' ').append(s == null ? "–" : f3(recall ? s.recall5() : s.mrr10())).append(" |");
      }
      md.append('\n');
    }
  }

  /** Writes {@code <stem>.md} and {@code <stem>.json} into {@code dir} (created if needed). */
  public void write(Path dir, String stem) throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(stem + ".md"), toMarkdown());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
        .writeValue(dir.resolve(stem + ".json").toFile(), this);
  }

  static String f3(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.3f", v);
  }

  static String f1(double v) {
    return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f", v);
  }
}
