package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 4: slow request bodies and requests in flight per principal. Every attack here is
 * bounded (at most 40 connections on 127.0.0.1, a few seconds each); timing bounds are generous.
 */
class SlowBodyTest {
  @TempDir static Path root;
  @TempDir static Path rateRoot;
  @TempDir static Path stalledRoot;
  /** Deadline 3 s, rate check off (so the deadline alone cuts), 4 requests per principal. */
  static TestServer s;
  /** Minimum rate 200 B/s, deadline long, 4 requests per principal. */
  static TestServer rate;
  /**
   * No rate check and a long deadline, 4 requests per principal: requests stay in flight however
   * slowly a loaded machine reads them (a rate check would cut a stalled body and free its slot).
   */
  static TestServer stalled;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1, null, """
          bodyTimeoutSeconds: 3
          minBodyBytesPerSecond: 0
          maxConcurrentPerPrincipal: 4
        """);
    rate = new TestServer(rateRoot, 0.1, null, """
          bodyTimeoutSeconds: 60
          minBodyBytesPerSecond: 200
          maxConcurrentPerPrincipal: 4
        """);
    stalled = new TestServer(stalledRoot, 0.1, null, """
          bodyTimeoutSeconds: 120
          minBodyBytesPerSecond: 0
          maxConcurrentPerPrincipal: 4
        """);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
    rate.close();
    stalled.close();
  }

  /** A connection that sent a request head (a body under the 2 KiB limit) and trickles it. */
  static final class Slow implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final InputStream in;

    Slow(int port, String path, String token, boolean chunked) throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(15_000);
      out = socket.getOutputStream();
      in = socket.getInputStream();
      String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
          + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: 2000\r\n") + "\r\n";
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      // Jetty dispatches a request with a body only once its first byte is there
      trickle(chunked);
    }

    /** Sends one body byte; false when the server has closed the connection. */
    boolean trickle(boolean chunked) {
      try {
        out.write(chunked ? "1\r\n \r\n".getBytes(StandardCharsets.US_ASCII) : new byte[] {' '});
        out.flush();
        return true;
      } catch (IOException e) {
        return false;
      }
    }

    /** The status line's code, or -1 when the connection was closed without a response. */
    int status() {
      try {
        byte[] buf = new byte[12];
        int n = in.readNBytes(buf, 0, 12);
        String line = new String(buf, 0, n, StandardCharsets.US_ASCII);
        return line.startsWith("HTTP/1.1 ") ? Integer.parseInt(line.substring(9, 12)) : -1;
      } catch (IOException | NumberFormatException e) {
        return -1;
      }
    }

    /** Whether the server answered something already (without blocking). */
    boolean answered() throws IOException {
      return in.available() > 0;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /**
   * Trickles one byte every {@code gapMillis} until the server answers or closes, at most 10 s.
   *
   * @return the status (-1: closed without one) and the seconds it took
   */
  private static double[] trickleUntilCut(int port, String path, boolean chunked, long gapMillis)
      throws Exception {
    long t0 = System.nanoTime();
    try (Slow c = new Slow(port, path, "tok-visitor", chunked)) {
      while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10)) {
        if (c.answered() || !c.trickle(chunked)) {
          break;
        }
        Thread.sleep(gapMillis);
      }
      int status = c.status();
      return new double[] {status, (System.nanoTime() - t0) / 1e9};
    }
  }

  @Test
  void i30_4_should_cut_a_search_body_trickling_past_the_deadline_with_408() throws Exception {
    double[] r = trickleUntilCut(s.server.port(), "/v1/search", false, 200);

    assertThat(r[0]).isIn(408.0, -1.0);
    assertThat(r[1]).isLessThan(10.0);
  }

  @Test
  void i30_4_should_cut_a_chunked_ask_body_trickling_past_the_deadline() throws Exception {
    double[] r = trickleUntilCut(s.server.port(), "/v1/ask", true, 200);

    assertThat(r[0]).isIn(408.0, -1.0);
    assertThat(r[1]).isLessThan(10.0);
  }

  @Test
  void i30_4_should_cut_a_body_below_the_minimum_data_rate_long_before_the_deadline()
      throws Exception {
    // one byte every 500 ms is 2 B/s against a minimum of 200 B/s; the deadline is 60 s
    double[] search = trickleUntilCut(rate.server.port(), "/v1/search", false, 500);
    double[] chunked = trickleUntilCut(rate.server.port(), "/v1/ask", true, 500);

    assertThat(search[0]).isIn(408.0, -1.0);
    assertThat(search[1]).isLessThan(10.0);
    assertThat(chunked[0]).isIn(408.0, -1.0);
    assertThat(chunked[1]).isLessThan(10.0);
  }

  @Test
  void i30_4_should_cut_a_multipart_upload_trickling_below_the_minimum_rate() throws Exception {
    // the same kind on the upload route, whose body Jetty's multipart parser reads
    long t0 = System.nanoTime();
    int status;
    try (Socket c = new Socket("127.0.0.1", rate.server.port())) {
      c.setSoTimeout(15_000);
      OutputStream out = c.getOutputStream();
      String part = "--b0\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.md\""
          + "\r\n\r\n# A\n";
      out.write(("POST /v1/documents HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer tok-admin\r\nContent-Type: multipart/form-data; boundary=b0"
          + "\r\nContent-Length: 2000\r\n\r\n" + part).getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = c.getInputStream();
      while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10) && in.available() == 0) {
        try {
          out.write('x');
          out.flush();
        } catch (IOException closed) {
          break;
        }
        Thread.sleep(500);
      }
      byte[] head = in.readNBytes(12);
      String line = new String(head, StandardCharsets.US_ASCII);
      status = line.startsWith("HTTP/1.1 ") ? Integer.parseInt(line.substring(9, 12)) : -1;
    } catch (IOException e) {
      status = -1;
    }

    assertThat(status).isIn(408, -1);
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10.0);
    assertThat(rate.get("/healthz", null).statusCode()).isEqualTo(200);
  }

  @Test
  void i30_4_should_refuse_a_fifth_request_of_one_principal_with_429_while_others_are_served()
      throws Exception {
    List<Slow> held = new ArrayList<>();
    try {
      // one byte each and then silence: no rate check, the 120 s deadline is far
      for (int i = 0; i < 4; i++) {
        held.add(new Slow(stalled.server.port(), "/v1/search", "tok-visitor", false));
      }
      // the four are counted once their heads are read; wait until the fifth is refused
      HttpResponse<String> fifth = null;
      long t0 = System.nanoTime();
      while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(30)) {
        fifth = stalled.post("/v1/search", "tok-visitor", q("returns"));
        if (fifth.statusCode() == 429) {
          break;
        }
        Thread.sleep(20);
      }
      HttpResponse<String> other = stalled.post("/v1/search", "tok-hr", q("returns"));
      HttpResponse<String> me = stalled.get("/v1/me", "tok-visitor");

      assertThat(fifth.statusCode()).isEqualTo(429);
      assertThat(fifth.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(json(fifth).at("/error/status").asInt()).isEqualTo(429);
      assertThat(json(fifth).at("/error/message").asText())
          .contains("server.maxConcurrentPerPrincipal", "4");
      assertThat(json(fifth).at("/error/requestId").asText()).isNotBlank();
      assertThat(me.statusCode()).isEqualTo(429); // every /v1 route counts, not only search
      assertThat(other.statusCode()).isEqualTo(200);
      assertThat(stalled.get("/healthz", null).statusCode()).isEqualTo(200);
    } finally {
      for (Slow c : held) {
        c.close();
      }
    }
    // the held requests end (client gone) and their slots are given back
    assertThat(awaitStatus(stalled, "tok-visitor", 200)).isEqualTo(200);
  }

  @Test
  void i30_4_should_keep_healthz_and_search_answering_during_and_after_40_slow_connections()
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(40);
    try {
      List<Future<double[]>> attack = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        boolean chunked = i % 2 == 1;
        attack.add(pool.submit(() -> trickleUntilCut(s.server.port(), "/v1/search", chunked,
            300)));
      }
      Thread.sleep(500);
      long t0 = System.nanoTime();
      HttpResponse<String> health = s.get("/healthz", null);
      HttpResponse<String> search = s.post("/v1/search", "tok-hr", q("Annual leave"));
      double seconds = (System.nanoTime() - t0) / 1e9;

      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(search.statusCode()).isEqualTo(200);
      assertThat(seconds).isLessThan(10.0);
      int refused = 0;
      for (Future<double[]> f : attack) {
        double[] r = f.get(30, TimeUnit.SECONDS);
        assertThat(r[0]).isIn(408.0, 429.0, -1.0);
        assertThat(r[1]).isLessThan(10.0);
        refused += r[0] == 429.0 ? 1 : 0;
      }
      // at most 4 of the 40 were let in to trickle; the rest were refused before their body
      assertThat(refused).isGreaterThanOrEqualTo(36);
    } finally {
      pool.shutdownNow();
    }
    assertThat(awaitStatus(s, "tok-visitor", 200)).isEqualTo(200);
    assertThat(s.get("/healthz", null).statusCode()).isEqualTo(200);
  }

  /** Searches as {@code token} until the status is {@code want} (at most 10 s); the last one. */
  private static int awaitStatus(TestServer s, String token, int want) throws Exception {
    long t0 = System.nanoTime();
    int last;
    do {
      last = s.post("/v1/search", token, q("returns")).statusCode();
      if (last == want) {
        return last;
      }
      Thread.sleep(50);
    } while (System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10));
    return last;
  }
}
