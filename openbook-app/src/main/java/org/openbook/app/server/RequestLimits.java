package org.openbook.app.server;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.BadMessageException;
import org.openbook.engine.config.ServerLimits;

/**
 * What keeps one client from holding the server's worker threads: a deadline and a minimum data
 * rate for request bodies, and a cap on the requests one principal has in flight.
 *
 * <ul>
 *   <li>Jetty's {@code HttpConfiguration}: {@code minRequestDataRate} (a body slower than
 *       {@link ServerLimits#minBodyBytesPerSecond()} since its first byte fails with 408) and the
 *       request idle timeout ({@link ServerLimits#bodyTimeout()}: a blocked read waiting that long
 *       for the next byte fails). Both apply to uploads too.</li>
 *   <li>{@link #body}: a JSON body must have arrived whole within the body timeout from the
 *       start of the request, however its bytes are spaced.</li>
 *   <li>{@link #enter}: at most {@link ServerLimits#maxConcurrentPerPrincipal()} requests per
 *       principal at once, checked right after authentication and before any body is read; one
 *       more is answered 429 with {@code Retry-After}. Unauthenticated requests never read a body
 *       (401 first), and {@code /healthz} needs no principal, so it stays served while one token
 *       holder floods the server.</li>
 * </ul>
 * Thread-safe.
 */
final class RequestLimits {
  /** Seconds a client refused with 429 is told to wait. */
  static final int RETRY_AFTER_SECONDS = 1;

  private final ServerLimits limits;
  private final ConcurrentHashMap<String, Integer> inFlight = new ConcurrentHashMap<>();

  RequestLimits(ServerLimits limits) {
    this.limits = limits;
  }

  /** Sets Jetty's body data rate and idle timeout. */
  void configure(JavalinConfig c) {
    c.jetty.modifyHttpConfiguration(h -> {
      h.setMinRequestDataRate(limits.minBodyBytesPerSecond());
      h.setIdleTimeout(limits.bodyTimeout().toMillis());
    });
  }

  /**
   * Counts one more request of {@code principal}.
   *
   * @return whether it may run; when false nothing was counted
   */
  boolean enter(String principal) {
    boolean[] ok = {false};
    inFlight.compute(principal, (k, n) -> {
      int now = n == null ? 0 : n;
      if (now >= limits.maxConcurrentPerPrincipal()) {
        return n;
      }
      ok[0] = true;
      return now + 1;
    });
    return ok[0];
  }

  /** Ends one request counted by {@link #enter}. */
  void exit(String principal) {
    inFlight.computeIfPresent(principal, (k, n) -> n <= 1 ? null : n - 1);
  }


  /** The 429 for a principal over {@link ServerLimits#maxConcurrentPerPrincipal()}. */
  ApiException tooManyRequests(Context ctx) {
    ctx.header("Retry-After", Integer.toString(RETRY_AFTER_SECONDS));
    return new ApiException(429, null, "too many requests in flight: at most "
        + limits.maxConcurrentPerPrincipal() + " at once per principal "
        + "(server.maxConcurrentPerPrincipal); retry after " + RETRY_AFTER_SECONDS + " s");
  }

  /**
   * The request body of {@code ctx}, failing with 408 once {@link ServerLimits#bodyTimeout()} has
   * passed since {@code startNanos}, or when Jetty cut it for its data rate or idle timeout.
   */
  InputStream body(Context ctx, long startNanos) {
    long deadline = startNanos + limits.bodyTimeout().toNanos();
    long declared = ctx.contentLength();
    return new FilterInputStream(ctx.bodyInputStream()) {
      /** Bytes of a declared length still to come; -1 for a chunked body. */
      private long remaining = declared;
      private final byte[] one = new byte[1];

      @Override
      public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (remaining == 0) {
          // Jetty checks the data rate since the first read on every read, also on one that
          // would only see the end: a late one (a GC pause) would fail a whole small body
          return -1;
        }
        check();
        try {
          int n = super.read(b, off, remaining > 0 ? (int) Math.min(len, remaining) : len);
          if (n > 0 && remaining > 0) {
            remaining -= n;
          }
          return n;
        } catch (BadMessageException | IOException e) {
          throw cut(ctx, e);
        }
      }

      private void check() {
        if (System.nanoTime() - deadline > 0) {
          throw timedOut(ctx);
        }
      }
    };
  }

  /**
   * The 408 for {@code e} when it is Jetty cutting a body for its data rate or idle timeout
   * (e.g. while it parses a multipart upload), else empty.
   */
  java.util.Optional<ApiException> slowBody(Context ctx, Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof BadMessageException b && b.getCode() == 408 || isTimeout(t)) {
        return java.util.Optional.of(timedOut(ctx));
      }
    }
    return java.util.Optional.empty();
  }

  private RuntimeException cut(Context ctx, Exception e) {
    boolean slow = e instanceof BadMessageException b ? b.getCode() == 408 : isTimeout(e);
    if (slow) {
      return timedOut(ctx);
    }
    return ApiException.badRequest("body", "cannot read request body: " + e.getMessage());
  }

  private ApiException timedOut(Context ctx) {
    // the rest of the body is not read, so the connection cannot be reused
    ctx.header("Connection", "close");
    return new ApiException(408, "body", "request body did not arrive within "
        + limits.bodyTimeout().toSeconds() + " s (server.bodyTimeoutSeconds) or slower than "
        + limits.minBodyBytesPerSecond() + " B/s (server.minBodyBytesPerSecond)");
  }

  private static boolean isTimeout(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof TimeoutException || t instanceof java.net.SocketTimeoutException
          || t instanceof java.io.InterruptedIOException) {
        return true;
      }
    }
    return false;
  }
}
