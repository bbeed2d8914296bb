package org.openbook.engine.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.openbook.embed.remote.RemoteEmbedder;

/**
 * {@code embedding.routes.<route>} as read from {@code openbook.yaml}: which provider embeds the
 * route's chunks and questions. Every field is optional; without any the route is the in-process
 * ONNX model (bge-small-zh-v1.5 for {@code zh}, bge-small-en-v1.5 for {@code en}), as before.
 *
 * @param provider       {@code onnx} (default), {@code openai} (OpenAI-compatible {@code
 *                       /v1/embeddings}: OpenAI, vLLM, Xinference, LocalAI), {@code ollama}
 *                       ({@code /api/embed}), {@code tei} (Hugging Face Text Embeddings
 *                       Inference {@code /embed}); {@code none} drops the English route
 * @param url            remote: base URL — {@code openai}: ending in {@code /v1}; {@code
 *                       ollama}: e.g. {@code http://localhost:11434}; {@code tei}: e.g. {@code
 *                       http://localhost:8080}
 * @param model          remote: model id sent to the server (Ollama, OpenAI) and recorded in the
 *                       index manifest (all three), e.g. {@code bge-m3}; required
 * @param dimension      remote: expected vector length; default: the first one seen (one probe
 *                       request when the engine opens)
 * @param apiKey         remote: bearer key (prefer {@code apiKeyEnv})
 * @param apiKeyEnv      remote: name of the environment variable holding the key; it must be set
 *                       when named, and wins over {@code apiKey}
 * @param batchSize      remote: texts per request (default {@value #DEFAULT_BATCH_SIZE})
 * @param concurrency    remote: requests in flight at most (default {@value #DEFAULT_CONCURRENCY})
 * @param timeoutMs      remote: time limit of one request in ms (default {@value
 *                       #DEFAULT_TIMEOUT_MS})
 * @param maxRetries     remote: further attempts after a 408/429/5xx or no answer (default
 *                       {@value #DEFAULT_MAX_RETRIES})
 * @param backoffMs      remote: wait before the first retry in ms, doubled each time up to
 *                       {@code maxBackoffMs} (defaults {@value #DEFAULT_BACKOFF_MS} and {@value
 *                       #DEFAULT_MAX_BACKOFF_MS}); a {@code Retry-After} header wins
 * @param maxBackoffMs   remote: longest wait between two attempts in ms
 * @param maxInputTokens remote: the model's input limit in tokens (default {@value
 *                       #DEFAULT_MAX_INPUT_TOKENS}); inputs are bounded by an upper estimate,
 *                       never cut
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record EmbeddingRouteConfig(String provider, String url, String model, Integer dimension,
    String apiKey, String apiKeyEnv, Integer batchSize, Integer concurrency, Long timeoutMs,
    Integer maxRetries, Long backoffMs, Long maxBackoffMs, Integer maxInputTokens) {

  public static final int DEFAULT_BATCH_SIZE = 32;
  public static final int DEFAULT_CONCURRENCY = 2;
  public static final long DEFAULT_TIMEOUT_MS = 30_000;
  public static final int DEFAULT_MAX_RETRIES = 4;
  public static final long DEFAULT_BACKOFF_MS = 500;
  public static final long DEFAULT_MAX_BACKOFF_MS = 10_000;
  public static final int DEFAULT_MAX_INPUT_TOKENS = 512;

  private static final List<String> PROVIDERS = List.of(EmbeddingRoute.ONNX,
      EmbeddingRoute.OPENAI, EmbeddingRoute.OLLAMA, EmbeddingRoute.TEI, EmbeddingRoute.NONE);

  /**
   * The route in force.
   *
   * @param route {@code zh} or {@code en}
   * @param env   the environment, for {@code apiKeyEnv}
   * @throws IllegalArgumentException naming {@code embedding.routes.<route>.<field>} when a value
   *     is invalid or missing (a remote provider without {@code url} or {@code model}, {@code
   *     none} on {@code zh}, an unset {@code apiKeyEnv} variable, a number out of range)
   */
  EmbeddingRoute resolve(String route, Map<String, String> env) {
    String key = "embedding.routes." + route + ".";
    String p = provider == null || provider.isBlank() ? EmbeddingRoute.ONNX
        : provider.strip().toLowerCase(Locale.ROOT);
    if (!PROVIDERS.contains(p)) {
      throw new IllegalArgumentException(key + "provider must be one of " + PROVIDERS + ", got '"
          + provider + "'");
    }
    if (p.equals(EmbeddingRoute.NONE) && !route.equals("en")) {
      throw new IllegalArgumentException(key + "provider none is only for the en route: the "
          + route + " route holds every chunk");
    }
    if (p.equals(EmbeddingRoute.ONNX) || p.equals(EmbeddingRoute.NONE)) {
      if (url != null || model != null || apiKey != null || apiKeyEnv != null) {
        throw new IllegalArgumentException(key + "url, model and apiKey are for a remote "
            + "provider (openai, ollama, tei); provider is " + p);
      }
      return EmbeddingRoute.local(route, p);
    }
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(key + "url is required for provider " + p);
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException(key + "model is required for provider " + p
          + " (it is recorded in the index manifest)");
    }
    Optional<String> k = Optional.ofNullable(apiKey).filter(s -> !s.isBlank());
    if (apiKeyEnv != null && !apiKeyEnv.isBlank()) {
      String v = env.get(apiKeyEnv.strip());
      if (v == null || v.isBlank()) {
        throw new IllegalArgumentException(key + "apiKeyEnv names " + apiKeyEnv.strip()
            + ", which is not set");
      }
      k = Optional.of(v);
    }
    long timeout = positive(key + "timeoutMs", timeoutMs, DEFAULT_TIMEOUT_MS);
    RemoteEmbedder.Options options;
    try {
      options = new RemoteEmbedder.Options(
          (int) positive(key + "batchSize", batchSize == null ? null : (long) batchSize,
              DEFAULT_BATCH_SIZE),
          (int) positive(key + "concurrency", concurrency == null ? null : (long) concurrency,
              DEFAULT_CONCURRENCY),
          maxRetries == null ? DEFAULT_MAX_RETRIES : maxRetries,
          Duration.ofMillis(backoffMs == null ? DEFAULT_BACKOFF_MS : backoffMs),
          Duration.ofMillis(maxBackoffMs == null ? DEFAULT_MAX_BACKOFF_MS : maxBackoffMs),
          maxInputTokens == null ? DEFAULT_MAX_INPUT_TOKENS : maxInputTokens,
          dimension == null ? 0 : dimension);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + "*: " + e.getMessage(), e);
    }
    if (options.maxRetries() < 0 || (backoffMs != null && backoffMs < 0)
        || (maxBackoffMs != null && maxBackoffMs < 0)) {
      throw new IllegalArgumentException(key + "maxRetries, backoffMs and maxBackoffMs must be "
          + ">= 0");
    }
    return new EmbeddingRoute(route, p, Optional.of(url.strip()), model.strip(), k,
        Duration.ofMillis(timeout), options);
  }

  private static long positive(String key, Long value, long dflt) {
    if (value == null) {
      return dflt;
    }
    if (value < 1) {
      throw new IllegalArgumentException(key + " must be >= 1, got " + value);
    }
    return value;
  }

  /** Hides the key. */
  @Override
  public String toString() {
    return "EmbeddingRouteConfig[provider=" + provider + ", url="
        + (url == null ? null : org.openbook.embed.remote.HttpEmbeddingEndpoint.safe(url))
        + ", model=" + model + ", dimension=" + dimension
        + (apiKey == null ? "" : ", apiKey=***") + ", apiKeyEnv=" + apiKeyEnv + "]";
  }
}
