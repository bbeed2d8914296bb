package org.openbook.index;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which parts of a distributed index a search could not reach. A store that may answer from part
 * of its shards (the Solr store with {@code store.partialResults: true}) reports the missing
 * shards here, on the thread that searches; a caller that wants to know wraps its searches in
 * {@link #track}. Searches of the embedded store are always complete and report nothing.
 *
 * <p>Thread-confined: a report reaches only a {@link #track} running on the same thread, so
 * concurrent requests of a server never see each other's reports. Outside {@link #track} a
 * report is dropped (the store logs a warning as well).
 */
public final class SearchCoverage {

  /** The result of a tracked search and the shards that did not answer (sorted, often empty). */
  public record Tracked<T>(T value, List<String> missingShards) {
    public Tracked {
      missingShards = List.copyOf(missingShards);
    }

    /** Whether some shard did not answer. */
    public boolean partial() {
      return !missingShards.isEmpty();
    }
  }

  /** A search that may throw. */
  @FunctionalInterface
  public interface Search<T> {
    T run() throws IOException;
  }

  private static final ThreadLocal<Set<String>> MISSING = new ThreadLocal<>();

  private SearchCoverage() {}

  /**
   * Runs {@code search} and collects the shards that stores report missing meanwhile. Nested
   * calls report to the outer one as well.
   */
  public static <T> Tracked<T> track(Search<T> search) throws IOException {
    Set<String> outer = MISSING.get();
    Set<String> mine = new TreeSet<>();
    MISSING.set(mine);
    try {
      T value = search.run();
      return new Tracked<>(value, List.copyOf(mine));
    } finally {
      MISSING.set(outer);
      if (outer != null) {
        outer.addAll(mine);
      }
    }
  }

  /** Called by a store whose search answered without {@code shards} (names such as shard2). */
  public static void reportMissing(Collection<String> shards) {
    Set<String> s = MISSING.get();
    if (s != null) {
      s.addAll(shards);
    }
  }
}
