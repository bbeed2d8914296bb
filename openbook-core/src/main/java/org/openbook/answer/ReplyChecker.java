package org.openbook.answer;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks every finished reply goes through, whichever way it was produced (one retrieval in
 * {@link AnswerService}, or several searches of an agent): gate 2 (the fixed refusal sentence →
 * {@link AnswerStatus#REFUSED_BY_MODEL}), then {@link CitationChecker} (out-of-range markers
 * removed and reported, uncited sentences listed) and {@link SupportChecker} (citations whose
 * passage does not support the claim reported). Stateless and thread-safe.
 */
public final class ReplyChecker {

  private final RefusalPolicy refusal;
  private final CitationChecker citations;
  private final SupportChecker support;

  /**
   * @param refusal the refusal sentences gate 2 detects
   * @param support the support check
   */
  public ReplyChecker(RefusalPolicy refusal, SupportChecker support) {
    this.refusal = refusal;
    this.citations = new CitationChecker(refusal);
    this.support = support;
  }

  /**
   * Checks a non-blank reply.
   *
   * @param reply   the generator's complete reply
   * @param sources the numbered sources the reply was written from, source {@code n} at index
   *                {@code n - 1}
   * @param base    diagnostics of the run so far (generator, scores, timings); the check lists
   *                replace its citation fields
   * @return {@code REFUSED_BY_MODEL} with the refusal sentence (and any explanation after it) and
   *     no citations, or
   *     {@code ANSWERED} with the checked text and the valid citations in order of first use
   */
  public Answer check(String reply, List<Source> sources, AnswerDiagnostics base) {
    String refused = refusal.match(reply);
    if (refused != null) {
      // Keep what follows the refusal sentence: the extractive gate says which term the
      // documents lack ("文档中没有关于 ERR_4519 的说明。"); markers are dropped with the citations.
      return new Answer(AnswerStatus.REFUSED_BY_MODEL, CitationMarkers.strip(reply).strip(),
          List.of(), sources,
          base.withChecks(List.of(), List.of(), List.of()));
    }
    CitationReport report = citations.check(reply, sources.size());
    SupportReport supported = support.check(report, sources);
    List<Citation> cited = new ArrayList<>();
    for (int n : report.valid()) {
      Source s = sources.get(n - 1);
      cited.add(new Citation(n, s.chunkId(), s.source(), supported.supported(n)));
    }
    return new Answer(AnswerStatus.ANSWERED, report.text(), cited, sources,
        base.withChecks(report.invalid(), report.uncitedSentences(),
            supported.unsupported()));
  }
}
