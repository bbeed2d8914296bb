package org.openbook.embed.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.openbook.embed.EmbeddingUnavailableException;
import org.openbook.embed.InputTooLongException;

/** {@link RemoteEmbedder}'s batching, concurrency bound, retries and checks, over a fake endpoint. */
class RemoteEmbedderTest {

  private static final String URL = "http://127.0.0.1:9/embed";

  /** An endpoint answering by {@code answer(requestNo, texts)}; records the batches. */
  private static final class Fake implements EmbeddingEndpoint {
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final List<List<String>> batches = Collections.synchronizedList(new ArrayList<>());
    final List<Long> times = Collections.synchronizedList(new ArrayList<>());
    final java.util.function.BiFunction<Integer, List<String>, List<float[]>> answer;

    Fake(java.util.function.BiFunction<Integer, List<String>, List<float[]>> answer) {
      this.answer = answer;
    }

    @Override
    public String url() {
      return URL;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      int n = requests.incrementAndGet();
      times.add(System.nanoTime());
      maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
      try {
        batches.add(List.copyOf(texts));
        return answer.apply(n, texts);
      } finally {
        inFlight.decrementAndGet();
      }
    }
  }

  private static List<float[]> vectors(List<String> texts, int dim) {
    return texts.stream().map(t -> {
      float[] v = new float[dim];
      v[Math.floorMod(t.hashCode(), dim)] = 3;
      v[0] += 4;
      return v;
    }).toList();
  }

  private static RemoteEmbedder embedder(Fake fake, int batch, int concurrency, int retries,
      int dimension) {
    return new RemoteEmbedder("tei", "bge-m3", fake, new RemoteEmbedder.Options(batch,
        concurrency, retries, Duration.ofMillis(20), Duration.ofMillis(50), 512, dimension));
  }

  private static List<String> texts(int n) {
    return IntStream.range(0, n).mapToObj(i -> "text " + i).toList();
  }

  @Test
  void should_batch_keep_order_normalise_and_bound_requests_in_flight() {
    Fake fake = new Fake((n, t) -> {
      try {
        Thread.sleep(30);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      return vectors(t, 8);
    });
    RemoteEmbedder e = embedder(fake, 3, 2, 0, 8);
    List<String> in = texts(13);
    List<float[]> out = e.embedAll(in);

    assertThat(fake.batches).hasSize(5).allSatisfy(b -> assertThat(b.size()).isLessThanOrEqualTo(3));
    assertThat(fake.maxInFlight.get()).isEqualTo(2);
    assertThat(out).hasSize(13);
    for (int i = 0; i < 13; i++) {
      float[] want = vectors(List.of(in.get(i)), 8).get(0);
      double norm = 0;
      for (int j = 0; j < 8; j++) {
        norm += out.get(i)[j] * out.get(i)[j];
      }
      assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
      assertThat(out.get(i)[0] / out.get(i)[Math.floorMod(in.get(i).hashCode(), 8)])
          .isCloseTo(want[0] / want[Math.floorMod(in.get(i).hashCode(), 8)],
              org.assertj.core.data.Offset.offset(1e-4f));
    }
    assertThat(e.ingestBatchSize()).isEqualTo(6);
  }

  @Test
  void should_retry_429_and_5xx_waiting_retry_after_or_exponential_backoff() {
    Fake fake = new Fake((n, t) -> {
      if (n == 1) {
        throw new EndpointException(URL + " answered HTTP 429", 429, Duration.ofMillis(300), null);
      }
      if (n == 2 || n == 3) {
        throw new EndpointException(URL + " answered HTTP 502", 502, null, null);
      }
      return vectors(t, 4);
    });
    RemoteEmbedder e = embedder(fake, 8, 1, 4, 4);
    List<float[]> out = e.embedAll(texts(2));

    assertThat(out).hasSize(2);
    assertThat(fake.requests.get()).isEqualTo(4);
    long ms12 = (fake.times.get(1) - fake.times.get(0)) / 1_000_000;
    long ms23 = (fake.times.get(2) - fake.times.get(1)) / 1_000_000;
    long ms34 = (fake.times.get(3) - fake.times.get(2)) / 1_000_000;
    assertThat(ms12).as("Retry-After 300 ms honoured").isGreaterThanOrEqualTo(290);
    assertThat(ms23).as("backoff 20 ms × 2^1").isGreaterThanOrEqualTo(38);
    assertThat(ms34).as("backoff 20 ms × 2^2, capped at 50 ms").isGreaterThanOrEqualTo(48);
    assertThat(List.of(e.backoff(0), e.backoff(1), e.backoff(2), e.backoff(62))).containsExactly(
        Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(50), Duration.ofMillis(50));
  }

  @Test
  void should_fail_at_once_on_a_client_error_and_after_the_retries_on_a_server_error() {
    Fake unauthorized = new Fake((n, t) -> {
      throw new EndpointException(URL + " answered HTTP 401: bad key", 401, null, null);
    });
    assertThatThrownBy(() -> embedder(unauthorized, 8, 1, 4, 4).embedAll(texts(1)))
        .isInstanceOf(EmbeddingUnavailableException.class).hasMessageContaining(URL)
        .hasMessageContaining("HTTP 401");
    assertThat(unauthorized.requests.get()).isEqualTo(1);

    Fake down = new Fake((n, t) -> {
      throw new EndpointException(URL + " unreachable", EndpointException.NO_RESPONSE, null, null);
    });
    assertThatThrownBy(() -> embedder(down, 8, 1, 2, 4).embedAll(texts(1)))
        .isInstanceOf(EmbeddingUnavailableException.class)
        .hasMessageContaining(URL).hasMessageContaining("after 3 attempts")
        .satisfies(e -> assertThat(((EmbeddingUnavailableException) e).endpoint()).isEqualTo(URL));
    assertThat(down.requests.get()).isEqualTo(3);
  }

  @Test
  void should_check_every_vector_against_the_configured_or_first_seen_dimension() {
    Fake wrong = new Fake((n, t) -> vectors(t, 5));
    assertThatThrownBy(() -> embedder(wrong, 8, 1, 0, 4).embedAll(texts(2)))
        .isInstanceOf(EmbeddingUnavailableException.class).hasMessageContaining(URL)
        .hasMessageContaining("length 5").hasMessageContaining("expected 4");

    // none configured: the first vector seen sets it (the probe, when asked first)
    Fake growing = new Fake((n, t) -> vectors(t, n == 1 ? 6 : 7));
    RemoteEmbedder e = embedder(growing, 8, 1, 0, 0);
    assertThat(e.dimension()).isEqualTo(6);
    assertThat(growing.batches.get(0)).containsExactly(RemoteEmbedder.PROBE_TEXT);
    assertThatThrownBy(() -> e.embedAll(texts(1))).hasMessageContaining("length 7")
        .hasMessageContaining("expected 6");

    Fake short_ = new Fake((n, t) -> vectors(t.subList(0, 1), 4));
    assertThatThrownBy(() -> embedder(short_, 8, 1, 0, 4).embedAll(texts(2)))
        .hasMessageContaining("1 vectors for 2 texts").hasMessageContaining(URL);
  }

  @Test
  void should_reject_an_over_long_input_without_sending_it() {
    Fake fake = new Fake((n, t) -> vectors(t, 4));
    RemoteEmbedder e = new RemoteEmbedder("ollama", "m", fake, new RemoteEmbedder.Options(8, 1,
        0, Duration.ZERO, Duration.ZERO, 10, 4));
    assertThat(e.countTokens("一二 三")).isEqualTo(5);
    assertThatThrownBy(() -> e.embedAll(List.of("short", "一二三四五六七八九"))).isInstanceOf(
        InputTooLongException.class);
    assertThat(fake.requests.get()).isZero();
  }

  @Test
  void should_read_retry_after_as_seconds_or_http_date() {
    assertThat(EndpointException.parseRetryAfter("7")).isEqualTo(Duration.ofSeconds(7));
    assertThat(EndpointException.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT"))
        .isEqualTo(Duration.ZERO);
    assertThat(EndpointException.parseRetryAfter("soon")).isNull();
    assertThat(EndpointException.parseRetryAfter(null)).isNull();
    assertThat(new EndpointException("x", 429, null, null).retryable()).isTrue();
    assertThat(new EndpointException("x", 503, null, null).retryable()).isTrue();
    assertThat(new EndpointException("x", 400, null, null).retryable()).isFalse();
  }

  @Test
  void should_show_urls_without_credentials() {
    assertThat(HttpEmbeddingEndpoint.safe("https://user:s3cret@gpu.example:8443/v1?key=s3cret"))
        .isEqualTo("https://gpu.example:8443/v1");
    assertThat(new HttpEmbeddingEndpoint(HttpEmbeddingEndpoint.Api.OLLAMA,
        "http://u:p@127.0.0.1:11434/", "m", "sk-1", Duration.ofSeconds(1)).url())
        .isEqualTo("http://127.0.0.1:11434/api/embed");
    assertThat(new HttpEmbeddingEndpoint(HttpEmbeddingEndpoint.Api.TEI,
        "http://127.0.0.1:8080/embed", "m", "sk-1", Duration.ofSeconds(1)).toString())
        .doesNotContain("sk-1");
  }

}
