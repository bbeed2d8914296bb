package org.openbook.embed.remote;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingUnavailableException;
import org.openbook.embed.InputTooLongException;
import org.openbook.embed.Vectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} whose vectors come from a remote {@link EmbeddingEndpoint}, with the same
 * contract as the in-process models: L2-normalised vectors of one fixed length, over-long inputs
 * rejected, never cut.
 *
 * <ul>
 *   <li><b>Batching:</b> {@link #embedAll} sends at most {@link Options#batchSize()} texts per
 *       request.</li>
 *   <li><b>Bounded concurrency:</b> at most {@link Options#concurrency()} requests in flight to
 *       the endpoint, across every caller (ingest batches and questions alike); the sub-batches of
 *       one call go out side by side within that bound.</li>
 *   <li><b>Retries:</b> a request that got no answer, or 408/429/5xx, is sent again up to {@link
 *       Options#maxRetries()} times, waiting the server's {@code Retry-After} when it gives one
 *       (at most {@link #MAX_RETRY_AFTER}), else {@code initialBackoff × 2^attempt} capped at
 *       {@link Options#maxBackoff()}. Any other status fails at once.</li>
 *   <li><b>Dimension:</b> every vector must have the configured length, or (none configured) the
 *       length of the first vector seen; {@link #dimension()} sends one probe request when asked
 *       before any vector was seen. A wrong length is an error naming the endpoint.</li>
 *   <li><b>Errors:</b> a failure after the retries is an {@link EmbeddingUnavailableException}
 *       naming the endpoint URL (without credentials) and the last status; the key is never in a
 *       message or log line (the endpoints keep it out of theirs).</li>
 *   <li><b>Token bound:</b> the tokenizer is the server's, so inputs are bounded by an upper
 *       estimate: two special tokens plus one per non-whitespace code point. That bound holds for
 *       WordPiece (BERT, bge) and in practice for SentencePiece and BPE vocabularies on Chinese
 *       and English text (bge-m3, Qwen embedding models), whose tokens cover at least one
 *       character; {@link Options#maxInputTokens()} is the model's limit (512 by default, the
 *       chunker's budget stays far below it).</li>
 * </ul>
 */
public final class RemoteEmbedder implements Embedder {

  private static final Logger LOG = LoggerFactory.getLogger(RemoteEmbedder.class);

  /** Longest {@code Retry-After} honoured; a longer one is waited this long. */
  public static final Duration MAX_RETRY_AFTER = Duration.ofMinutes(2);

  /** Text of the probe request {@link #dimension()} sends when no dimension is known yet. */
  static final String PROBE_TEXT = "dimension probe";

  /**
   * How requests are sent.
   *
   * @param batchSize      texts per request, ≥ 1
   * @param concurrency    requests in flight at most, ≥ 1
   * @param maxRetries     further attempts of a failed request, ≥ 0
   * @param initialBackoff wait before the first retry (doubled each time)
   * @param maxBackoff     longest wait between two attempts, unless the server's {@code
   *                       Retry-After} says otherwise
   * @param maxInputTokens the model's input limit in tokens, ≥ 3
   * @param dimension      the expected vector length, or 0 for the first one seen
   */
  public record Options(int batchSize, int concurrency, int maxRetries, Duration initialBackoff,
      Duration maxBackoff, int maxInputTokens, int dimension) {

    /** 32 texts a request, 2 in flight, 4 retries from 500 ms to 10 s, 512 tokens. */
    public static final Options DEFAULTS = new Options(32, 2, 4, Duration.ofMillis(500),
        Duration.ofSeconds(10), 512, 0);

    public Options {
      if (batchSize < 1 || concurrency < 1 || maxRetries < 0 || maxInputTokens < 3
          || dimension < 0) {
        throw new IllegalArgumentException("remote embedding options out of range: batchSize "
            + batchSize + ", concurrency " + concurrency + ", maxRetries " + maxRetries
            + ", maxInputTokens " + maxInputTokens + ", dimension " + dimension);
      }
      Objects.requireNonNull(initialBackoff, "initialBackoff");
      Objects.requireNonNull(maxBackoff, "maxBackoff");
    }
  }

  private final String provider;
  private final String model;
  private final EmbeddingEndpoint endpoint;
  private final Options options;
  private final Semaphore inFlight;
  private final AtomicInteger dimension;
  private final ExecutorService pool;

  /**
   * @param provider provider id recorded in the manifest ({@code openai}, {@code ollama}, {@code
   *                 tei})
   * @param model    model id recorded in the manifest, e.g. {@code bge-m3}
   */
  public RemoteEmbedder(String provider, String model, EmbeddingEndpoint endpoint,
      Options options) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.model = Objects.requireNonNull(model, "model");
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.options = Objects.requireNonNull(options, "options");
    this.inFlight = new Semaphore(options.concurrency(), true);
    this.dimension = new AtomicInteger(options.dimension());
    this.pool = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "openbook-embed-remote");
      t.setDaemon(true);
      return t;
    });
  }

  @Override
  public String provider() {
    return provider;
  }

  @Override
  public String modelId() {
    return model;
  }

  /** The endpoint's URL, without credentials. */
  public String url() {
    return endpoint.url();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The configured dimension, else the length of the first vector seen, else that of a probe
   * request sent now.
   *
   * @throws EmbeddingUnavailableException if the probe fails
   */
  @Override
  public int dimension() {
    int d = dimension.get();
    if (d == 0) {
      embedAll(List.of(PROBE_TEXT));
      d = dimension.get();
    }
    return d;
  }

  /** {@code batchSize × concurrency}: one ingest call keeps every allowed request busy. */
  @Override
  public int ingestBatchSize() {
    return options.batchSize() * options.concurrency();
  }

  @Override
  public int maxInputTokens() {
    return options.maxInputTokens();
  }

  /** Upper estimate: 2 special tokens + one per non-whitespace code point (see class doc). */
  @Override
  public int countTokens(String text) {
    int n = 2;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      if (!Character.isWhitespace(cp)) {
        n++;
      }
      i += Character.charCount(cp);
    }
    return n;
  }

  /**
   * {@inheritDoc}
   *
   * @throws InputTooLongException         if a text is over {@link #maxInputTokens()} (nothing is
   *                                       sent)
   * @throws EmbeddingUnavailableException if a request failed after its retries, or the reply had
   *                                       the wrong number or length of vectors
   */
  @Override
  public List<float[]> embedAll(List<String> texts) {
    for (String t : texts) {
      int tokens = countTokens(t);
      if (tokens > options.maxInputTokens()) {
        throw new InputTooLongException(tokens, options.maxInputTokens(),
            t.length() <= 40 ? t : t.substring(0, 40) + "…");
      }
    }
    List<List<String>> batches = new ArrayList<>();
    for (int i = 0; i < texts.size(); i += options.batchSize()) {
      batches.add(texts.subList(i, Math.min(texts.size(), i + options.batchSize())));
    }
    if (batches.size() == 1) {
      return send(batches.get(0));
    }
    List<Future<List<float[]>>> futures = new ArrayList<>(batches.size());
    for (List<String> b : batches) {
      futures.add(pool.submit(() -> send(b)));
    }
    List<float[]> out = new ArrayList<>(texts.size());
    try {
      for (Future<List<float[]>> f : futures) {
        out.addAll(f.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddingUnavailableException(endpoint.url(),
          "embedding request to " + endpoint.url() + " interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new EmbeddingUnavailableException(endpoint.url(),
          "embedding request to " + endpoint.url() + " failed: " + e.getCause(), e.getCause());
    } finally {
      futures.forEach(f -> f.cancel(true));
    }
    return out;
  }

  /** One batch: within the concurrency bound, with retries, checked and normalised. */
  private List<float[]> send(List<String> batch) {
    List<float[]> raw;
    try {
      inFlight.acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EmbeddingUnavailableException(endpoint.url(),
          "embedding request to " + endpoint.url() + " interrupted", e);
    }
    try {
      raw = withRetries(batch);
    } finally {
      inFlight.release();
    }
    if (raw.size() != batch.size()) {
      throw new EmbeddingUnavailableException(endpoint.url(), "embedding endpoint "
          + endpoint.url() + " returned " + raw.size() + " vectors for " + batch.size()
          + " texts", null);
    }
    List<float[]> out = new ArrayList<>(raw.size());
    for (float[] v : raw) {
      // the first vector seen sets the dimension; every later one must match it
      int want = dimension.compareAndExchange(0, v.length);
      if (want == 0) {
        want = v.length;
      }
      if (v.length != want || v.length == 0) {
        throw new EmbeddingUnavailableException(endpoint.url(), "embedding endpoint "
            + endpoint.url() + " returned a vector of length " + v.length + " for model '"
            + model + "', expected " + want
            + (options.dimension() > 0 ? " (the configured dimension)" : " (the first one seen)"),
            null);
      }
      out.add(Vectors.normalize(v));
    }
    return out;
  }

  private List<float[]> withRetries(List<String> batch) {
    for (int attempt = 0; ; attempt++) {
      try {
        return endpoint.embed(batch);
      } catch (EndpointException e) {
        if (!e.retryable() || attempt >= options.maxRetries()) {
          throw new EmbeddingUnavailableException(endpoint.url(), "embedding endpoint "
              + endpoint.url() + " failed" + (attempt > 0 ? " after " + (attempt + 1)
              + " attempts" : "") + ": " + e.getMessage(), e);
        }
        Duration wait = e.retryAfter().isPresent()
            ? (e.retryAfter().get().compareTo(MAX_RETRY_AFTER) > 0 ? MAX_RETRY_AFTER
                : e.retryAfter().get())
            : backoff(attempt);
        LOG.warn("embedding endpoint {} {}; retry {}/{} in {} ms", endpoint.url(),
            e.status() == EndpointException.NO_RESPONSE ? "did not answer"
                : "answered HTTP " + e.status(), attempt + 1, options.maxRetries(),
            wait.toMillis());
        try {
          Thread.sleep(wait.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new EmbeddingUnavailableException(endpoint.url(),
              "embedding request to " + endpoint.url() + " interrupted", ie);
        }
      }
    }
  }

  /** {@code initialBackoff × 2^attempt}, at most {@code maxBackoff}. */
  Duration backoff(int attempt) {
    long ms = options.initialBackoff().toMillis() << Math.min(attempt, 30);
    return Duration.ofMillis(Math.min(ms < 0 ? Long.MAX_VALUE : ms,
        options.maxBackoff().toMillis()));
  }

  @Override
  public String toString() {
    return "RemoteEmbedder[" + provider + ", " + model + ", " + endpoint.url() + "]";
  }
}
