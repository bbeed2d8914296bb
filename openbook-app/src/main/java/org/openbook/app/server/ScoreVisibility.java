package org.openbook.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Who sees the raw retrieval scores of a hit ({@code fusedScore}, {@code denseScore},
 * {@code sparseScore}, {@code rerankScore}) in {@code /v1/search}, {@code /v1/ask} sources and the
 * SSE {@code sources} event: writers only (a static principal in {@code server.writers}, or a
 * token identity granted by {@code server.oidc.writers}), who tune and maintain the corpus. BM25 computes its IDF over the whole index (every department), so a public
 * passage's {@code sparseScore} for a rare word drops when another department's document gains
 * that word, and the fused score of min-max fusion follows it; to everyone else the scores would
 * be a side channel into documents they cannot read. Ranks stay: they are computed among the
 * passages the caller may read. Stateless.
 */
final class ScoreVisibility {

  /** The fields removed from each hit or source for callers who do not see scores. */
  static final List<String> RAW_SCORES =
      List.of("fusedScore", "denseScore", "sparseScore", "rerankScore");

  /**
   * The summary scores removed from a reply and its {@code diagnostics}: the best cosine and the
   * gate's lexical evidence are the same quantities as a hit's scores under another name (the
   * threshold stays: it is configuration, not a score of any passage).
   */
  static final List<String> SUMMARY_SCORES = List.of("bestDenseScore", "bestLexicalEvidence");

  private ScoreVisibility() {}

  /**
   * {@code hits} (an array of hit or source objects) without the raw scores unless the caller
   * sees them; changed in place and returned.
   *
   * @param shows whether the caller is a writer (see {@link Identity#writer()})
   */
  static <T extends JsonNode> T apply(T hits, boolean shows) {
    if (hits != null && !shows) {
      for (JsonNode h : hits) {
        if (h instanceof ObjectNode o) {
          o.remove(RAW_SCORES);
        }
      }
    }
    return hits;
  }

  /**
   * A search or ask reply ({@code hits} or {@code sources}, and {@code diagnostics}) without any
   * raw score unless the caller sees them; changed in place and returned.
   *
   * @param shows whether the caller is a writer (see {@link Identity#writer()})
   */
  static ObjectNode applyToReply(ObjectNode reply, boolean shows) {
    if (!shows) {
      apply(reply.get("hits"), false);
      apply(reply.get("sources"), false);
      reply.remove(SUMMARY_SCORES);
      if (reply.get("diagnostics") instanceof ObjectNode d) {
        d.remove(SUMMARY_SCORES);
      }
    }
    return reply;
  }
}
