package org.openbook.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import org.openbook.retrieve.Principal;

/**
 * Who sees the raw retrieval scores of a hit ({@code fusedScore}, {@code denseScore},
 * {@code sparseScore}, {@code rerankScore}) in {@code /v1/search}, {@code /v1/ask} sources and the
 * SSE {@code sources} event: the writers ({@code server.writers}) only, who tune and maintain
 * the corpus. BM25 computes its IDF over the whole index (every department), so a public
 * passage's {@code sparseScore} for a rare word drops when another department's document gains
 * that word, and the fused score of min-max fusion follows it; to everyone else the scores would
 * be a side channel into documents they cannot read. Ranks stay: they are computed among the
 * passages the caller may read. Stateless apart from the writer set; thread-safe.
 */
final class ScoreVisibility {

  /** The fields removed for callers who do not see scores. */
  static final List<String> RAW_SCORES =
      List.of("fusedScore", "denseScore", "sparseScore", "rerankScore");

  private final Set<String> writers;

  /** @param writers principal names that see scores ({@code server.writers}) */
  ScoreVisibility(Set<String> writers) {
    this.writers = Set.copyOf(writers);
  }

  /** Whether {@code who} sees raw scores. */
  boolean shows(Principal who) {
    return writers.contains(who.name());
  }

  /**
   * {@code hits} (an array of hit or source objects) without the raw scores unless {@code who}
   * sees them; changed in place and returned.
   */
  <T extends JsonNode> T apply(T hits, Principal who) {
    if (hits != null && !shows(who)) {
      for (JsonNode h : hits) {
        if (h instanceof ObjectNode o) {
          o.remove(RAW_SCORES);
        }
      }
    }
    return hits;
  }
}
