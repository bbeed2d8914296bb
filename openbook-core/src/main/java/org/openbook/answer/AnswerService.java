package org.openbook.answer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.SearchResult;

/**
 * The ask pipeline: retrieve once, gate 1, generate, gate 2, check citations.
 *
 * <ol>
 *   <li>Retrieve once ({@link Retriever#retrieve}).
 *   <li>Gate 1 ({@link EvidenceGate}): no hits, or neither the best dense cosine of the hits nor
 *       their lexical match with the question's key terms is evidence →
 *       {@link AnswerStatus#REFUSED_NO_EVIDENCE} with the refusal sentence; the generator is not
 *       called. The gate judges the top-k hits that become the sources, not a chunk outside them.
 *       With a rerank threshold set and the top hit scored by a reranker, the top rerank score
 *       must reach that threshold instead (a cross-encoder reads question and passage together, a
 *       sharper signal than the cosine of two separate embeddings); when the reranker was
 *       skipped, the evidence gate applies.
 *   <li>Number the hits {@code [1]..[k]} in retrieval order ({@link Source#of}); this exact list
 *       goes to the generator and into the answer.
 *   <li>Gate 2: a reply that is the fixed refusal sentence → {@link AnswerStatus#REFUSED_BY_MODEL}
 *       (sources kept, no citations).
 *   <li>Otherwise {@link CitationChecker} and {@link SupportChecker} on the final text →
 *       {@link AnswerStatus#ANSWERED} (gate 2 and these checks are {@link ReplyChecker}).
 *   <li>The gate judges what the answer uses (two-signal gate only): an answer whose cited
 *       sources, taken alone, would not pass gate 1 becomes
 *       {@link AnswerStatus#REFUSED_NO_EVIDENCE} (reason {@code cited passages are no evidence}),
 *       with the sources kept.
 * </ol>
 *
 * Failures of retrieval or generation become {@link AnswerStatus#FAILED} with the reason in the
 * diagnostics; {@code ask} does not throw for them.
 */
public final class AnswerService implements Answerer {

  private final Retriever retriever;
  private final Generator generator;
  private final EvidenceGate gate;
  private final double rerankThreshold;
  private final RefusalPolicy refusal;
  private final ReplyChecker replies;

  /** A service with the dense-only gate 1 and {@link SupportChecker#DEFAULT_THRESHOLD}. */
  public AnswerService(
      Retriever retriever, Generator generator, double threshold, RefusalPolicy refusal) {
    this(retriever, generator, threshold, refusal, SupportChecker.DEFAULT_THRESHOLD);
  }

  /**
   * A service with the dense-only gate 1.
   *
   * @param threshold gate-1 cosine threshold in [-1, 1]: the best dense cosine must reach it
   * @throws IllegalArgumentException for a threshold out of range or NaN
   */
  public AnswerService(
      Retriever retriever,
      Generator generator,
      double threshold,
      RefusalPolicy refusal,
      double supportThreshold) {
    this(retriever, generator, EvidenceGate.denseOnly(threshold), refusal, supportThreshold,
        Double.NaN);
  }

  /**
   * @param retriever        finds the passages
   * @param generator        writes the answer from them
   * @param gate             gate 1
   * @param refusal          the refusal sentences
   * @param supportThreshold lexical support a citation needs, in [0, 1]
   * @param rerankThreshold  the top hit's {@link Hit#rerankScore()} must reach it when a reranker
   *                         scored it; NaN for none (the evidence gate only). Its scale is the
   *                         reranker's own.
   */
  public AnswerService(
      Retriever retriever,
      Generator generator,
      EvidenceGate gate,
      RefusalPolicy refusal,
      double supportThreshold,
      double rerankThreshold) {
    this.retriever = retriever;
    this.generator = generator;
    this.gate = gate;
    this.rerankThreshold = rerankThreshold;
    this.refusal = refusal;
    this.replies = new ReplyChecker(refusal, new SupportChecker(supportThreshold));
  }

  /** Answers one question, streaming text to {@code onText}; see {@link #ask(Query, Listener)}. */
  public Answer ask(Query query, Consumer<String> onText) {
    return ask(query, new Listener() {
      @Override
      public void onText(String text) {
        onText.accept(text);
      }
    });
  }

  /**
   * Answers one question.
   *
   * @param query    the question, principal and top-k
   * @param listener receives the sources (before generation) and then the text as it is
   *     produced: the generator's raw stream, or the refusal sentence once when gate 1 refuses.
   *     The raw stream may still contain out-of-range markers; the final {@link Answer#text()} is
   *     the checked text to display at the end.
   * @return the answer; never null
   */
  @Override
  public Answer ask(Query query, Listener listener) {
    Consumer<String> onText = listener::onText;
    long t0 = System.nanoTime();
    SearchResult retrieval;
    try {
      retrieval = retriever.retrieve(query);
    } catch (IOException | RuntimeException e) {
      return failed("retrieval failed: " + e.getMessage(), "", Double.NaN, millisSince(t0), 0,
          List.of(), SearchResult.empty());
    }
    // the reranking stage is timed on its own (diagnostics.rerankMillis)
    long retrievalMillis = Math.max(0, millisSince(t0) - retrieval.rerankMillis());
    EvidenceGate.Verdict verdict;
    // one set of counts per question, for gate 1 here and for the cited passages below
    TermWeights weights = gate.weights(query.principal().filter());
    try {
      verdict = gate.judge(query.text(), retrieval.hits(), retrieval.bestDenseScore(), weights);
    } catch (RuntimeException e) {
      return failed("gate 1 failed: " + e.getMessage(), "", retrieval.bestDenseScore(),
          retrievalMillis, 0, List.of(), retrieval);
    }
    double best = verdict.bestDense();

    if (retrieval.hits().isEmpty() || !passes(retrieval, verdict)) {
      String sentence = refusal.sentenceFor(query.text());
      onText.accept(sentence);
      return new Answer(AnswerStatus.REFUSED_NO_EVIDENCE, sentence, List.of(), List.of(),
          diagnostics("", best, retrievalMillis, 0, "", retrieval)
              .withGate(verdict.bestLexical(), "none"));
    }

    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < retrieval.hits().size(); i++) {
      sources.add(Source.of(i + 1, retrieval.hits().get(i)));
    }

    listener.onSources(List.copyOf(sources));
    long t1 = System.nanoTime();
    String reply;
    try {
      reply = generator.generate(query.text(), sources, query.principal().filter(), onText);
    } catch (TruncatedReplyException e) {
      // Cut off by the model: what it wrote is not an answer, but is kept for diagnosis.
      return new Answer(AnswerStatus.FAILED, "", List.of(), sources,
          diagnostics(generator.id(), best, retrievalMillis, millisSince(t1),
              TruncatedReplyException.REASON, retrieval).withPartialText(e.partialText()));
    } catch (GenerationException | RuntimeException e) {
      return failed(generator.id() + " failed: " + e.getMessage(), generator.id(), best,
          retrievalMillis, millisSince(t1), sources, retrieval);
    }
    long generationMillis = millisSince(t1);
    if (reply == null || reply.isBlank()) {
      return failed(generator.id() + " returned an empty answer", generator.id(), best,
          retrievalMillis, generationMillis, sources, retrieval);
    }

    // Links a model copied from the sources are shown as text, never live (InertLinks).
    reply = InertLinks.of(reply);
    String signal = verdict.signal(gate.denseThreshold(), gate.lexicalThreshold());
    Answer answer = replies.check(reply, sources,
        diagnostics(generator.id(), best, retrievalMillis, generationMillis, "", retrieval)
            .withGate(verdict.bestLexical(), signal));
    // The dense-only rule (EvidenceGate.denseOnly) is kept as it was, for comparison.
    return answer.status() == AnswerStatus.ANSWERED && gate.lexical()
        ? judgeCited(query, answer, retrieval, weights) : answer;
  }

  /** Gate 1: the rerank score when the reranker scored the top hit, else the evidence gate. */
  private boolean passes(SearchResult retrieval, EvidenceGate.Verdict verdict) {
    double top = retrieval.hits().get(0).rerankScore();
    if (!Double.isNaN(rerankThreshold) && !Double.isNaN(top)) {
      return top >= rerankThreshold;
    }
    return verdict.passes();
  }

  /**
   * Gate 1 again on the sources the answer cites: an answer built only from passages that are no
   * evidence on their own (a common-word match ranked first) is refused, sources kept.
   */
  private Answer judgeCited(Query query, Answer answer, SearchResult retrieval,
      TermWeights weights) {
    String question = query.text();
    List<Hit> cited = new ArrayList<>();
    for (Citation c : answer.citations()) {
      cited.add(retrieval.hits().get(c.n() - 1));
    }
    if (cited.isEmpty()) {
      return answer;
    }
    // The dense fallback only applies when no hit carries a dense score (scripted retrievals).
    boolean anyDense = cited.stream().anyMatch(h -> !Double.isNaN(h.denseScore()));
    EvidenceGate.Verdict v = gate.judge(question, cited,
        anyDense ? Double.NaN : retrieval.bestDenseScore(), weights);
    if (v.passes()) {
      return answer;
    }
    String sentence = refusal.sentenceFor(question);
    return new Answer(AnswerStatus.REFUSED_NO_EVIDENCE, sentence, List.of(), answer.sources(),
        answer.diagnostics().withReason("cited passages are no evidence"));
  }

  private Answer failed(String reason, String generatorId, double best, long retrievalMillis,
      long generationMillis, List<Source> sources, SearchResult retrieval) {
    return new Answer(AnswerStatus.FAILED, "", List.of(), sources,
        diagnostics(generatorId, best, retrievalMillis, generationMillis, reason, retrieval));
  }

  private AnswerDiagnostics diagnostics(String generatorId, double best, long retrievalMillis,
      long generationMillis, String reason, SearchResult retrieval) {
    return new AnswerDiagnostics(generatorId, best, gate.denseThreshold(), List.of(), List.of(),
        List.of(), retrievalMillis, generationMillis, reason, "")
        .withRerank(retrieval.rerank(), retrieval.rerankMillis())
        .withMissingShards(retrieval.missingShards());
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
