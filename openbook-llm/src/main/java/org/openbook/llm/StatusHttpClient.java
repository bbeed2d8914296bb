package org.openbook.llm;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A LangChain4j {@link HttpClient} on the JDK's client that keeps what LangChain4j's own drops
 * on a non-2xx answer: the {@code Retry-After} header ({@link StatusException}), so the remote
 * embedder's retries can honour it. Request/response only: the embedding API does not stream.
 */
final class StatusHttpClient implements HttpClient {

  /** Headers the JDK client sets itself and refuses from callers. */
  private static final Set<String> RESTRICTED =
      Set.of("connection", "content-length", "expect", "host", "upgrade");

  /** A non-2xx answer with its {@code Retry-After} value (null when absent). */
  static final class StatusException extends HttpException {
    private final String retryAfter;

    StatusException(int status, String body, String retryAfter) {
      super(status, body);
      this.retryAfter = retryAfter;
    }

    String retryAfter() {
      return retryAfter;
    }
  }

  private final java.net.http.HttpClient client;
  private final Duration readTimeout;

  private StatusHttpClient(Duration connectTimeout, Duration readTimeout) {
    java.net.http.HttpClient.Builder b = java.net.http.HttpClient.newBuilder()
        .version(java.net.http.HttpClient.Version.HTTP_1_1);
    if (connectTimeout != null) {
      b.connectTimeout(connectTimeout);
    }
    this.client = b.build();
    this.readTimeout = readTimeout;
  }

  /** A builder with both timeouts {@code timeout}. */
  static HttpClientBuilder builder(Duration timeout) {
    return new Builder().connectTimeout(timeout).readTimeout(timeout);
  }

  @Override
  public SuccessfulHttpResponse execute(HttpRequest request) {
    java.net.http.HttpRequest.Builder b = java.net.http.HttpRequest.newBuilder(
        URI.create(request.url()));
    if (readTimeout != null) {
      b.timeout(readTimeout);
    }
    request.headers().forEach((name, values) -> {
      if (!RESTRICTED.contains(name.toLowerCase(Locale.ROOT))) {
        values.forEach(v -> b.header(name, v));
      }
    });
    String body = request.body();
    b.method(request.method().name(), body == null
        ? java.net.http.HttpRequest.BodyPublishers.noBody()
        : java.net.http.HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    HttpResponse<String> r;
    try {
      r = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("request interrupted", e);
    }
    if (r.statusCode() / 100 != 2) {
      throw new StatusException(r.statusCode(), r.body(),
          r.headers().firstValue("Retry-After").orElse(null));
    }
    Map<String, List<String>> headers = r.headers().map();
    return SuccessfulHttpResponse.builder().statusCode(r.statusCode()).headers(headers)
        .body(r.body()).build();
  }

  @Override
  public void execute(HttpRequest request, ServerSentEventParser parser,
      ServerSentEventListener listener) {
    throw new UnsupportedOperationException("streaming is not used for embeddings");
  }

  private static final class Builder implements HttpClientBuilder {
    private Duration connectTimeout;
    private Duration readTimeout;

    @Override
    public Duration connectTimeout() {
      return connectTimeout;
    }

    @Override
    public HttpClientBuilder connectTimeout(Duration timeout) {
      this.connectTimeout = timeout;
      return this;
    }

    @Override
    public Duration readTimeout() {
      return readTimeout;
    }

    @Override
    public HttpClientBuilder readTimeout(Duration timeout) {
      this.readTimeout = timeout;
      return this;
    }

    @Override
    public HttpClient build() {
      return new StatusHttpClient(connectTimeout, readTimeout);
    }
  }
}
