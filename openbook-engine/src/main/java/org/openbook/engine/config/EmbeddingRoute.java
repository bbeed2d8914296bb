package org.openbook.engine.config;

import java.time.Duration;
import java.util.Optional;
import org.openbook.embed.remote.RemoteEmbedder;

/**
 * Where one dense route's vectors come from, resolved from {@code embedding.routes.<route>}
 * ({@link EmbeddingRouteConfig}): the in-process ONNX model (default), a remote endpoint, or
 * (English route only) no route at all.
 *
 * @param route    {@code zh} (the primary field {@code vector}) or {@code en} ({@code vector_en})
 * @param provider {@code onnx}, {@code openai}, {@code ollama}, {@code tei} or {@code none}
 * @param url      remote: the server's base URL (may hold no credentials the messages would show:
 *                 they print it without user info)
 * @param model    remote: model id sent to the server and recorded in the manifest
 * @param apiKey   remote: bearer key, or empty; never printed
 * @param timeout  remote: time limit of one request
 * @param options  remote: batching, concurrency, retries, input limit, dimension
 */
public record EmbeddingRoute(String route, String provider, Optional<String> url, String model,
    Optional<String> apiKey, Duration timeout, RemoteEmbedder.Options options) {

  /** Provider ids. */
  public static final String ONNX = "onnx";
  public static final String OPENAI = "openai";
  public static final String OLLAMA = "ollama";
  public static final String TEI = "tei";
  public static final String NONE = "none";

  /** The in-process model of {@code route}. */
  public static EmbeddingRoute onnx(String route) {
    return local(route, ONNX);
  }

  /** A route that sends nothing anywhere: {@code provider} is {@link #ONNX} or {@link #NONE}. */
  static EmbeddingRoute local(String route, String provider) {
    return new EmbeddingRoute(route, provider, Optional.empty(), "", Optional.empty(),
        Duration.ofMillis(EmbeddingRouteConfig.DEFAULT_TIMEOUT_MS), RemoteEmbedder.Options.DEFAULTS);
  }

  /** Whether the vectors come from a remote endpoint. */
  public boolean remote() {
    return !provider.equals(ONNX) && !provider.equals(NONE);
  }

  /** Hides the key. */
  @Override
  public String toString() {
    return "EmbeddingRoute[" + route + ", " + provider
        + url.map(u -> ", " + org.openbook.embed.remote.HttpEmbeddingEndpoint.safe(u)).orElse("")
        + (model.isEmpty() ? "" : ", " + model) + (apiKey.isPresent() ? ", apiKey=***" : "")
        + "]";
  }
}
