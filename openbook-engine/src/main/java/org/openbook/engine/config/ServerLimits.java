package org.openbook.engine.config;

import java.time.Duration;

/**
 * The resource limits of {@code openbook serve}: how long a request body may take, how many
 * requests one principal may have in flight, and how much one principal may keep stored. Each
 * limit is enforced before the work it bounds starts; see the "Limits and quotas" table of
 * {@code docs/SERVER.md}.
 *
 * @param bodyTimeout              longest time a JSON request body may take to arrive, and the
 *                                 longest a blocked body read may wait for the next byte (uploads
 *                                 too); over it → 408 and the connection is closed
 * @param minBodyBytesPerSecond    slowest accepted body data rate, bytes per second measured from
 *                                 the first body byte (Jetty's minimum request data rate); 0 = off
 * @param maxConcurrentPerPrincipal most {@code /v1} requests one principal may have in flight;
 *                                 one more → 429 with {@code Retry-After}
 * @param maxConversationsPerPrincipal most stored conversations per principal; one more → 429
 * @param maxTurnsPerConversation  most turns in one conversation; one more → 429
 * @param maxFeedbackPerPrincipal  most stored ratings per principal (re-rating a turn replaces
 *                                 its rating and is always allowed); one more → 429
 * @param maxJobsPerPrincipal      most upload jobs per principal kept in memory (queued, running
 *                                 or finished); a new upload while all are unfinished → 429, else
 *                                 the principal's oldest finished job is forgotten
 */
public record ServerLimits(Duration bodyTimeout, long minBodyBytesPerSecond,
    int maxConcurrentPerPrincipal, int maxConversationsPerPrincipal, int maxTurnsPerConversation,
    int maxFeedbackPerPrincipal, int maxJobsPerPrincipal) {

  /** Default body deadline: 30 s, the time a 64 KiB body needs at 2.2 KB/s. */
  public static final int DEFAULT_BODY_TIMEOUT_SECONDS = 30;
  /**
   * Default minimum body rate: 256 B/s (far below a 2G mobile link); a client trickling one byte
   * every 2 s is cut at its second byte. Jetty measures it from the first read, on every read, so
   * a low rate also keeps a small body from failing when the server pauses between two reads.
   */
  public static final long DEFAULT_MIN_BODY_BYTES_PER_SECOND = 256;
  /** Default requests in flight per principal: a page opens at most 3–4 at once. */
  public static final int DEFAULT_MAX_CONCURRENT_PER_PRINCIPAL = 8;
  /** Default stored conversations per principal (a year of daily use, a few MB). */
  public static final int DEFAULT_MAX_CONVERSATIONS = 1000;
  /** Default turns per conversation; the question rewriter reads only the last few anyway. */
  public static final int DEFAULT_MAX_TURNS = 200;
  /** Default stored ratings per principal. */
  public static final int DEFAULT_MAX_FEEDBACK = 5000;
  /** Default upload jobs kept per principal. */
  public static final int DEFAULT_MAX_JOBS = 100;

  /** Every limit at its default. */
  public static final ServerLimits DEFAULTS = new ServerLimits(
      Duration.ofSeconds(DEFAULT_BODY_TIMEOUT_SECONDS), DEFAULT_MIN_BODY_BYTES_PER_SECOND,
      DEFAULT_MAX_CONCURRENT_PER_PRINCIPAL, DEFAULT_MAX_CONVERSATIONS, DEFAULT_MAX_TURNS,
      DEFAULT_MAX_FEEDBACK, DEFAULT_MAX_JOBS);

  /** @throws IllegalArgumentException naming the configuration key of a value out of range */
  public ServerLimits {
    if (bodyTimeout == null || bodyTimeout.isNegative() || bodyTimeout.isZero()) {
      throw new IllegalArgumentException("server.bodyTimeoutSeconds must be >= 1, got "
          + bodyTimeout);
    }
    if (minBodyBytesPerSecond < 0) {
      throw new IllegalArgumentException("server.minBodyBytesPerSecond must be >= 0, got "
          + minBodyBytesPerSecond);
    }
    positive("server.maxConcurrentPerPrincipal", maxConcurrentPerPrincipal);
    positive("server.quotas.maxConversationsPerPrincipal", maxConversationsPerPrincipal);
    positive("server.quotas.maxTurnsPerConversation", maxTurnsPerConversation);
    positive("server.quotas.maxFeedbackPerPrincipal", maxFeedbackPerPrincipal);
    positive("server.quotas.maxJobsPerPrincipal", maxJobsPerPrincipal);
  }

  private static void positive(String key, int v) {
    if (v < 1) {
      throw new IllegalArgumentException(key + " must be >= 1, got " + v);
    }
  }

  /**
   * The per-principal storage quotas as written in {@code server.quotas}; every field optional.
   */
  public record Quotas(Integer maxConversationsPerPrincipal, Integer maxTurnsPerConversation,
      Integer maxFeedbackPerPrincipal, Integer maxJobsPerPrincipal) {}

  /** The limits in force for the given (possibly null) configuration values. */
  static ServerLimits resolve(Integer bodyTimeoutSeconds, Long minBodyBytesPerSecond,
      Integer maxConcurrentPerPrincipal, Quotas quotas) {
    Quotas q = quotas == null ? new Quotas(null, null, null, null) : quotas;
    return new ServerLimits(
        Duration.ofSeconds(bodyTimeoutSeconds == null ? DEFAULT_BODY_TIMEOUT_SECONDS
            : bodyTimeoutSeconds),
        minBodyBytesPerSecond == null ? DEFAULT_MIN_BODY_BYTES_PER_SECOND : minBodyBytesPerSecond,
        or(maxConcurrentPerPrincipal, DEFAULT_MAX_CONCURRENT_PER_PRINCIPAL),
        or(q.maxConversationsPerPrincipal(), DEFAULT_MAX_CONVERSATIONS),
        or(q.maxTurnsPerConversation(), DEFAULT_MAX_TURNS),
        or(q.maxFeedbackPerPrincipal(), DEFAULT_MAX_FEEDBACK),
        or(q.maxJobsPerPrincipal(), DEFAULT_MAX_JOBS));
  }

  private static int or(Integer v, int dflt) {
    return v == null ? dflt : v;
  }
}
