package org.openbook.solr;

import java.time.Duration;
import java.util.Objects;

/**
 * What the Solr store does when nodes fail.
 *
 * <ul>
 *   <li><b>Retries.</b> Every request the store makes is idempotent (a document block is written
 *       whole under its deterministic id, deletes are by id, commits and searches change nothing
 *       twice), so a request that failed transiently (no answer, HTTP 502/503/504, e.g. a node
 *       restarting or a shard without a leader for a moment) is sent again up to {@code retries}
 *       times, waiting {@code firstBackoff}, then twice as long each time, at most {@code
 *       maxBackoff} (exponential backoff; "Exponential Backoff And Jitter", AWS Architecture
 *       Blog, 2015, without the jitter: one writer per collection). Errors that a retry cannot
 *       fix (HTTP 4xx: bad request, authentication) fail at once. With the defaults a request
 *       gives up after 5 retries and 0.5 + 1 + 2 + 4 + 8 = 15.5 s of waiting.</li>
 *   <li><b>Partial results.</b> Searches ask Solr to answer from the shards it can reach
 *       ({@code shards.tolerant=true}) and read the {@code partialResults} response header. If a
 *       shard did not answer: with {@code partialResults = false} (default) the search fails with
 *       an error naming the missing shard; with {@code true} it returns what the other shards
 *       found and reports the missing shards ({@link org.openbook.index.SearchCoverage}), never
 *       silently.</li>
 * </ul>
 *
 * @param retries        retries after the first attempt, 0..20
 * @param firstBackoff   wait before the first retry, &gt; 0
 * @param maxBackoff     longest wait between two attempts, &ge; {@code firstBackoff}
 * @param partialResults whether a search may answer from part of the shards (with a warning)
 */
public record SolrFailurePolicy(
    int retries, Duration firstBackoff, Duration maxBackoff, boolean partialResults) {

  /** 5 retries from 0.5 s doubling to at most 8 s; partial results refused. */
  public static final SolrFailurePolicy DEFAULT =
      new SolrFailurePolicy(5, Duration.ofMillis(500), Duration.ofSeconds(8), false);

  /**
   * @throws IllegalArgumentException naming the value out of range
   */
  public SolrFailurePolicy {
    Objects.requireNonNull(firstBackoff, "firstBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (retries < 0 || retries > 20) {
      throw new IllegalArgumentException("solr store: retries must be 0..20, was " + retries);
    }
    if (firstBackoff.isNegative() || firstBackoff.isZero()) {
      throw new IllegalArgumentException(
          "solr store: retry backoff must be > 0, was " + firstBackoff.toMillis() + " ms");
    }
    if (maxBackoff.compareTo(firstBackoff) < 0) {
      throw new IllegalArgumentException("solr store: maximum backoff " + maxBackoff.toMillis()
          + " ms is below the first backoff " + firstBackoff.toMillis() + " ms");
    }
  }

  /** This policy with {@code partialResults}. */
  public SolrFailurePolicy withPartialResults(boolean partialResults) {
    return new SolrFailurePolicy(retries, firstBackoff, maxBackoff, partialResults);
  }

  /** This policy with {@code retries} retries starting at {@code firstBackoff}. */
  public SolrFailurePolicy withRetries(int retries, Duration firstBackoff) {
    return new SolrFailurePolicy(retries, firstBackoff,
        maxBackoff.compareTo(firstBackoff) < 0 ? firstBackoff : maxBackoff, partialResults);
  }

  /** The wait before retry number {@code retry} (1-based). */
  Duration backoff(int retry) {
    Duration d = firstBackoff;
    for (int i = 1; i < retry && d.compareTo(maxBackoff) < 0; i++) {
      d = d.multipliedBy(2);
    }
    return d.compareTo(maxBackoff) > 0 ? maxBackoff : d;
  }
}
