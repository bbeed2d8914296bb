package org.openbook.embed.remote;

import java.time.Duration;
import java.util.Optional;

/**
 * One failed request to an embedding endpoint, as an {@link EmbeddingEndpoint} reports it to
 * {@link RemoteEmbedder}, which decides whether to retry. The message names the endpoint and
 * never the key.
 */
public class EndpointException extends RuntimeException {

  /** Status of a failure without HTTP answer (refused, reset, timed out). */
  public static final int NO_RESPONSE = -1;

  private final int status;
  private final Duration retryAfter;

  /**
   * @param status     the HTTP status, or {@link #NO_RESPONSE}
   * @param retryAfter the server's {@code Retry-After}, or null
   */
  public EndpointException(String message, int status, Duration retryAfter, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.retryAfter = retryAfter;
  }

  /** HTTP status, or {@link #NO_RESPONSE}. */
  public int status() {
    return status;
  }

  /** How long the server asked to wait ({@code Retry-After}), if it did. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }

  /**
   * Whether trying again may help: no response (refused, reset, timeout), 408, 429 or a 5xx. A
   * 4xx other than those (a bad key, an unknown model, a rejected input) will fail again.
   */
  public boolean retryable() {
    return status == NO_RESPONSE || status == 408 || status == 429 || status >= 500;
  }

  /**
   * Reads a {@code Retry-After} header value: delay-seconds or an HTTP date (RFC 9110 10.2.3).
   *
   * @return the wait, or null when absent or unreadable
   */
  public static Duration parseRetryAfter(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.strip();
    try {
      return Duration.ofSeconds(Math.max(0, Long.parseLong(v)));
    } catch (NumberFormatException notSeconds) {
      try {
        var when = java.time.ZonedDateTime.parse(v,
            java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(java.time.Instant.now(), when.toInstant());
        return d.isNegative() ? Duration.ZERO : d;
      } catch (java.time.format.DateTimeParseException notDate) {
        return null;
      }
    }
  }
}
