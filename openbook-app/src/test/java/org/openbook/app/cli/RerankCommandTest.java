package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.KbDemoIndex;
import org.openbook.rerank.ScriptedRerankServer;
import picocli.CommandLine;

/**
 * {@code search --json} and {@code eval --configs hybrid,hybrid+rerank} on kb-demo with a
 * scripted Cohere-shaped rerank server on 127.0.0.1 configured in the {@code rerank} section.
 */
class RerankCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SHIPPING = "普通订单在付款后 48 小时内发货";

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  /** Scores the passage with the shipping rule 0.9, every other passage 0.1. */
  private static ScriptedRerankServer.Reply shippingFirst(JsonNode request) {
    StringBuilder sb = new StringBuilder("{\"results\":[");
    JsonNode docs = request.get("documents");
    for (int i = 0; i < docs.size(); i++) {
      sb.append(i == 0 ? "" : ",").append("{\"index\":").append(i).append(",\"relevance_score\":")
          .append(docs.get(i).asText().contains(SHIPPING) ? 0.9 : 0.1).append('}');
    }
    return ScriptedRerankServer.ok(sb.append("]}").toString());
  }

  /** The shipped example config (its principals) plus a rerank section. */
  private Path config(String url) throws Exception {
    String example = Files.readString(Paths.get("..", "examples", "openbook.yaml"));
    Path file = tmp.resolve("rerank.yaml");
    Files.writeString(file, example + "\nrerank:\n  type: http\n  url: " + url
        + "\n  model: scripted\n  fetchK: 20\n");
    return file;
  }

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  @Test
  void should_show_rerank_scores_in_search_json() throws Exception {
    try (var server = ScriptedRerankServer.start("/v1/rerank", RerankCommandTest::shippingFirst)) {
      Run r = run("search", "订单多久发货？", "--json", "-k", "3",
          "--index", KbDemoIndex.index().toString(), "--config", config(server.url()).toString());

      assertThat(r.exit()).as(r.err()).isZero();
      JsonNode json = JSON.readTree(r.out());
      assertThat(json.get("rerank").asText()).isEqualTo("http:scripted: 20 → 3");
      assertThat(json.at("/hits/0/text").asText()).contains(SHIPPING);
      assertThat(json.at("/hits/0/rerankScore").asDouble()).isEqualTo(0.9);
      assertThat(json.at("/hits/0/rerankRank").asInt()).isEqualTo(1);
      assertThat(json.at("/hits/2/rerankRank").asInt()).isEqualTo(3);
      assertThat(server.requests().get(0).get("documents")).hasSize(20);
    }
  }

  @Test
  void should_compare_hybrid_with_hybrid_plus_rerank_in_eval() throws Exception {
    Path cases = tmp.resolve("cases.jsonl");
    List<String> lines = Files.readAllLines(KbDemoIndex.docs().resolveSibling("cases.jsonl"),
        StandardCharsets.UTF_8);
    // q01 (the shipping rule) and one unanswerable case keep the run short
    Files.write(cases, List.of(lines.get(0),
        lines.stream().filter(l -> l.contains("\"refuse\"")).findFirst().orElseThrow()));
    try (var server = ScriptedRerankServer.start("/v1/rerank", RerankCommandTest::shippingFirst)) {
      Run r = run("eval", "--cases", cases.toString(), "--index",
          KbDemoIndex.index().toString(), "--config", config(server.url()).toString(),
          "--configs", "hybrid,hybrid+rerank", "--no-progress");

      assertThat(r.exit()).as(r.err()).isZero();
      String hybrid = row(r.out(), "hybrid");
      String reranked = row(r.out(), "hybrid+rerank");
      // the scripted reranker puts the gold passage first: R@1 = 1 with reranking
      assertThat(cell(reranked, 3)).isEqualTo("1.000");
      // no rerank latency for the plain configuration, a number for the reranked one
      assertThat(cell(hybrid, 15)).isEqualTo("–");
      assertThat(cell(reranked, 15)).matches("\\d+\\.\\d");
      assertThat(r.out()).contains("rerank: http;");
      assertThat(server.requests()).isNotEmpty();
    }
  }

  private static String row(String markdown, String config) {
    return markdown.lines().filter(l -> l.startsWith("| " + config + " |")).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + config + " in\n" + markdown));
  }

  /** The n-th cell (1-based) of a Markdown table row. */
  private static String cell(String row, int n) {
    return row.split("\\|")[n].strip();
  }
}
