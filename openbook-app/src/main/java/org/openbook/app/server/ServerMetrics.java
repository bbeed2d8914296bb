package org.openbook.app.server;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.openbook.answer.Answer;

/**
 * The server's Prometheus metrics, in a registry of its own (so several servers in one JVM, as in
 * tests, do not share counters). Names follow the Prometheus naming guide: base unit seconds,
 * {@code _total} suffix on counters (added by the client library).
 *
 * <ul>
 *   <li>{@code openbook_http_requests_total{endpoint,method,status}}
 *   <li>{@code openbook_http_request_duration_seconds{endpoint,method}} (histogram)
 *   <li>{@code openbook_retrieval_duration_seconds} and {@code openbook_generation_duration_seconds}
 *       (histograms, per answered ask)
 *   <li>{@code openbook_answers_total{status}}: answers by {@link org.openbook.answer.AnswerStatus},
 *       refusals included
 * </ul>
 *
 * <p>{@code /metrics} is served without authentication, so nothing here describes the corpus:
 * the index's chunk count (formerly {@code openbook_index_chunks}) is not exported; callers see
 * the counts they may read in {@code /v1/me}.
 */
public final class ServerMetrics {
  /** Latency buckets in seconds: 5 ms … 60 s, wide enough for an LLM answer. */
  private static final double[] BUCKETS =
      {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter requests = Counter.builder()
      .name("openbook_http_requests").help("HTTP requests by endpoint, method and status")
      .labelNames("endpoint", "method", "status").register(registry);
  private final Histogram latency = Histogram.builder()
      .name("openbook_http_request_duration_seconds").help("HTTP request latency")
      .labelNames("endpoint", "method").classicOnly().classicUpperBounds(BUCKETS)
      .register(registry);
  private final Histogram retrieval = Histogram.builder()
      .name("openbook_retrieval_duration_seconds").help("SearchResult time per ask")
      .classicOnly().classicUpperBounds(BUCKETS).register(registry);
  private final Histogram generation = Histogram.builder()
      .name("openbook_generation_duration_seconds").help("Generation time per ask that reached the generator")
      .classicOnly().classicUpperBounds(BUCKETS).register(registry);
  private final Counter answers = Counter.builder()
      .name("openbook_answers").help("Answers by status (refusals included)")
      .labelNames("status").register(registry);
  private final Counter cancelled = Counter.builder()
      .name("openbook_ask_cancelled").help("Streamed asks ended because the client went away"
          + " (the upstream LLM request is cancelled)").register(registry);

  /** Records one finished HTTP request; {@code endpoint} is the route template. */
  public void request(String endpoint, String method, int status, double seconds) {
    requests.labelValues(endpoint, method, Integer.toString(status)).inc();
    latency.labelValues(endpoint, method).observe(seconds);
  }

  /** Records one answer's status and timings. */
  public void answer(Answer a) {
    answers.labelValues(a.status().name()).inc();
    retrieval.observe(a.diagnostics().retrievalMillis() / 1000.0);
    if (!a.diagnostics().generator().isEmpty()) {
      generation.observe(a.diagnostics().generationMillis() / 1000.0);
    }
  }

  /** Counts one streamed ask cancelled because the client went away. */
  public void askCancelled() {
    cancelled.inc();
  }

  /** Content type of {@link #scrape()}. */
  public String contentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  /** All metrics in the Prometheus text format 0.0.4. */
  public String scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      new PrometheusTextFormatWriter(false).write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
