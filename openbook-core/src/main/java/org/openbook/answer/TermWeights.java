package org.openbook.answer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.TermStatistics;

/**
 * IDF weights of key terms from the index's document frequencies, so a match on a rare term
 * counts for more than one on a word every passage has. A term's document frequency is the
 * smallest of its tokens' (an upper bound of the chunks holding the whole term), and its weight
 * is BM25's IDF, {@code ln(1 + (N − df + 0.5) / (df + 0.5))} (Robertson–Spärck Jones as in
 * Lucene's {@code BM25Similarity}), ≥ 0. Without statistics every term weighs 1.
 *
 * <p>N and df are counted over the chunks of one {@link AccessFilter}, the asking principal's:
 * whether a word occurs in a department the caller cannot read must not change what the caller
 * is told. An instance caches its counts, so make one per question (counts then also follow
 * uploads and deletions). Thread-safe.
 */
public final class TermWeights {

  /** Every term weighs 1. */
  public static final TermWeights UNIFORM = new TermWeights(null, new AccessFilter(Set.of()));

  private final TermStatistics stats;
  private final AccessFilter scope;
  private final ConcurrentHashMap<String, Long> docFreqs = new ConcurrentHashMap<>();
  private volatile long docCount = -1;

  /**
   * @param stats the index's term statistics; null for uniform weights
   * @param scope the chunks counted: the filter of the principal the weights are for
   */
  public TermWeights(TermStatistics stats, AccessFilter scope) {
    this.stats = stats;
    this.scope = java.util.Objects.requireNonNull(scope, "scope");
  }

  /** The IDF of {@code term}, or 1 without statistics. */
  public double idf(KeyTerm term) {
    if (stats == null) {
      return 1.0;
    }
    long n = docCount();
    long df = docFreq(term);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Chunks holding every token of {@code term} at most (the smallest token frequency). */
  public long docFreq(KeyTerm term) {
    if (stats == null) {
      return 0;
    }
    long df = Long.MAX_VALUE;
    for (String t : term.tokens()) {
      df = Math.min(df, docFreqs.computeIfAbsent(t, this::lookUp));
    }
    return df;
  }

  /** Number of chunks in the scope (0 without statistics). */
  public long docCount() {
    if (stats == null) {
      return 0;
    }
    if (docCount < 0) {
      try {
        docCount = stats.docCount(scope);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the index's chunk count", e);
      }
    }
    return docCount;
  }

  private long lookUp(String token) {
    try {
      return stats.docFreq(token, scope);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the document frequency of '" + token + "'", e);
    }
  }
}
