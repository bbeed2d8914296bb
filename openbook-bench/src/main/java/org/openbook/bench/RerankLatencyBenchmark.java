package org.openbook.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import org.openbook.engine.OpenBook;
import org.openbook.eval.Percentiles;
import org.openbook.rerank.HttpReranker;
import org.openbook.rerank.RerankException;
import org.openbook.rerank.RerankScore;
import org.openbook.rerank.Reranker;
import org.openbook.rerank.RerankingRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * What the reranking stage adds to retrieval when the reranker answers instantly: a scripted
 * Cohere-shaped rerank server on 127.0.0.1 scores each passage by the share of the question's
 * character bigrams it contains (microseconds of work), so the figure is the stage's own cost
 * (fetching fetch-k instead of k fused candidates, JSON, one local HTTP round trip, ordering),
 * not a model's. A real cross-encoder adds its inference time on top (tens to hundreds of ms
 * for bge-reranker on 20 passages on CPU).
 *
 * <p>Per question, in the same run and order: hybrid top-k (the baseline), then hybrid + rerank
 * with the same k. Prints median and p95 of each, the added median, and the median of the
 * reranker call alone.
 */
@Command(name = "rerank-latency", mixinStandardHelpOptions = true,
    description = "Added latency of the reranking stage with a local scripted rerank server.")
public final class RerankLatencyBenchmark implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--index", required = true, description = "Index built by openbook ingest.")
  Path index;

  @Option(names = "--questions", required = true,
      description = "JSON Lines with a question field (e.g. kb-demo cases.jsonl).")
  Path questions;

  @Option(names = "--rounds", defaultValue = "5",
      description = "Passes over the questions (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--fetch-k", defaultValue = "20",
      description = "Candidates reranked (default: ${DEFAULT-VALUE}).")
  int fetchK;

  @Option(names = "-k", defaultValue = "5", description = "Top-k (default: ${DEFAULT-VALUE}).")
  int k;

  @Override
  public Integer call() throws Exception {
    List<String> qs = new ArrayList<>();
    for (String line : Files.readAllLines(questions, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        qs.add(JSON.readTree(line).path("question").asText());
      }
    }
    HttpServer server = scriptedServer();
    try (OpenBook engine = OpenBook.builder().index(index).build()) {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/rerank";
      TimedReranker reranker = new TimedReranker(new HttpReranker(url, HttpReranker.Api.COHERE,
          "scripted", "", Duration.ofSeconds(5)));
      Retriever hybrid = engine.retriever();
      Retriever reranked = new RerankingRetriever(hybrid, reranker, fetchK, 5_000);
      for (String q : qs.subList(0, Math.min(10, qs.size()))) { // warm-up: JIT, HTTP client
        hybrid.retrieve(engine.query(q, Principal.ANONYMOUS, k));
        reranked.retrieve(engine.query(q, Principal.ANONYMOUS, k));
      }
      reranker.millis.clear();
      List<Double> base = new ArrayList<>();
      List<Double> withRerank = new ArrayList<>();
      int skipped = 0;
      for (int round = 0; round < rounds; round++) {
        for (String q : qs) {
          Query query = engine.query(q, Principal.ANONYMOUS, k);
          long t0 = System.nanoTime();
          hybrid.retrieve(query);
          long t1 = System.nanoTime();
          var r = reranked.retrieve(query);
          long t2 = System.nanoTime();
          base.add((t1 - t0) / 1e6);
          withRerank.add((t2 - t1) / 1e6);
          skipped += r.rerank().startsWith("skipped") ? 1 : 0;
        }
      }
      double[] b = toArray(base);
      double[] w = toArray(withRerank);
      double[] call = toArray(reranker.millis);
      System.out.printf(Locale.ROOT, "%d questions x %d rounds, %d chunks, k=%d, fetch-k=%d, "
          + "%d skipped%n", qs.size(), rounds, engine.count(), k, fetchK, skipped);
      System.out.printf(Locale.ROOT, "hybrid           median %6.2f ms  p95 %6.2f ms%n",
          Percentiles.of(b, 50), Percentiles.of(b, 95));
      System.out.printf(Locale.ROOT, "hybrid+rerank    median %6.2f ms  p95 %6.2f ms  "
          + "(%.2f x hybrid)%n", Percentiles.of(w, 50), Percentiles.of(w, 95),
          Percentiles.of(w, 50) / Percentiles.of(b, 50));
      System.out.printf(Locale.ROOT, "added (medians)  %6.2f ms; reranker call alone median "
          + "%.2f ms p95 %.2f ms%n", Percentiles.of(w, 50) - Percentiles.of(b, 50),
          Percentiles.of(call, 50), Percentiles.of(call, 95));
    } finally {
      server.stop(0);
    }
    return 0;
  }

  /** Cohere-shaped server: score = share of the query's character bigrams in the passage. */
  private static HttpServer scriptedServer() throws Exception {
    HttpServer server = HttpServer.create(
        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.createContext("/v1/rerank", exchange -> {
      try (exchange) {
        JsonNode req = JSON.readTree(exchange.getRequestBody().readAllBytes());
        Set<String> q = bigrams(req.path("query").asText());
        ObjectNode root = JSON.createObjectNode();
        ArrayNode results = root.putArray("results");
        JsonNode docs = req.path("documents");
        for (int i = 0; i < docs.size(); i++) {
          Set<String> d = bigrams(docs.get(i).asText());
          long shared = q.stream().filter(d::contains).count();
          results.addObject().put("index", i)
              .put("relevance_score", q.isEmpty() ? 0 : shared / (double) q.size());
        }
        byte[] body = root.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.start();
    return server;
  }

  private static Set<String> bigrams(String s) {
    Set<String> out = new HashSet<>();
    int[] cps = s.codePoints().toArray();
    for (int i = 0; i + 1 < cps.length; i++) {
      out.add(new String(cps, i, 2));
    }
    return out;
  }

  private static double[] toArray(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).toArray();
  }

  /** Times each reranker call in ms (nanosecond clock). */
  private static final class TimedReranker implements Reranker {
    final Reranker inner;
    final List<Double> millis = new ArrayList<>();

    TimedReranker(Reranker inner) {
      this.inner = inner;
    }

    @Override
    public String id() {
      return inner.id();
    }

    @Override
    public List<RerankScore> rerank(String query, List<String> passages, int topN)
        throws RerankException {
      long t0 = System.nanoTime();
      try {
        return inner.rerank(query, passages, topN);
      } finally {
        synchronized (millis) {
          millis.add((System.nanoTime() - t0) / 1e6);
        }
      }
    }
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new RerankLatencyBenchmark()).execute(args));
  }
}
