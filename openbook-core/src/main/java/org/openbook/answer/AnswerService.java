package org.openbook.answer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.SearchResult;

/**
 * The ask pipeline: retrieve once, gate 1, generate, gate 2, check citations.
 *
 * <ol>
 *   <li>Retrieve once ({@link Retriever#retrieve}).
 *   <li>Gate 1: no hits, or the best dense cosine is NaN or below the threshold →
 *       {@link AnswerStatus#REFUSED_NO_EVIDENCE} with the refusal sentence; the generator is not
 *       called.
 *   <li>Number the hits {@code [1]..[k]} in retrieval order ({@link Source#of}); this exact list
 *       goes to the generator and into the answer.
 *   <li>Gate 2: a reply that is the fixed refusal sentence → {@link AnswerStatus#REFUSED_BY_MODEL}
 *       (sources kept, no citations).
 *   <li>Otherwise {@link CitationChecker} and {@link SupportChecker} on the final text →
 *       {@link AnswerStatus#ANSWERED} (gate 2 and these checks are {@link ReplyChecker}).
 * </ol>
 *
 * Failures of retrieval or generation become {@link AnswerStatus#FAILED} with the reason in the
 * diagnostics; {@code ask} does not throw for them.
 */
public final class AnswerService implements Answerer {

  private final Retriever retriever;
  private final Generator generator;
  private final double threshold;
  private final RefusalPolicy refusal;
  private final ReplyChecker replies;

  /** A service with {@link SupportChecker#DEFAULT_THRESHOLD}. */
  public AnswerService(
      Retriever retriever, Generator generator, double threshold, RefusalPolicy refusal) {
    this(retriever, generator, threshold, refusal, SupportChecker.DEFAULT_THRESHOLD);
  }

  /**
   * @param retriever        finds the passages
   * @param generator        writes the answer from them
   * @param threshold        gate-1 cosine threshold in [-1, 1]: the best dense cosine must reach it
   * @param refusal          the refusal sentences
   * @param supportThreshold lexical support a citation needs, in [0, 1]
   * @throws IllegalArgumentException for a threshold out of range or NaN
   */
  public AnswerService(
      Retriever retriever,
      Generator generator,
      double threshold,
      RefusalPolicy refusal,
      double supportThreshold) {
    if (!(threshold >= -1 && threshold <= 1)) {
      throw new IllegalArgumentException("gate threshold must be a cosine in [-1, 1], got " + threshold);
    }
    this.retriever = retriever;
    this.generator = generator;
    this.threshold = threshold;
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
   * @param query  the question, principal and top-k
   * @param listener receives the sources (before generation) and then the text as it is produced: the generator's raw stream, or the refusal
   *     sentence once when gate 1 refuses. The raw stream may still contain out-of-range markers;
   *     the final {@link Answer#text()} is the checked text to display at the end.
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
          List.of());
    }
    long retrievalMillis = millisSince(t0);
    double best = retrieval.bestDenseScore();

    if (retrieval.hits().isEmpty() || !(best >= threshold)) {
      String sentence = refusal.sentenceFor(query.text());
      onText.accept(sentence);
      return new Answer(AnswerStatus.REFUSED_NO_EVIDENCE, sentence, List.of(), List.of(),
          diagnostics("", best, List.of(), List.of(), List.of(), retrievalMillis, 0, ""));
    }

    List<Source> sources = new ArrayList<>();
    for (int i = 0; i < retrieval.hits().size(); i++) {
      sources.add(Source.of(i + 1, retrieval.hits().get(i)));
    }

    listener.onSources(List.copyOf(sources));
    long t1 = System.nanoTime();
    String reply;
    try {
      reply = generator.generate(query.text(), sources, onText);
    } catch (GenerationException | RuntimeException e) {
      return failed(generator.id() + " failed: " + e.getMessage(), generator.id(), best,
          retrievalMillis, millisSince(t1), sources);
    }
    long generationMillis = millisSince(t1);
    if (reply == null || reply.isBlank()) {
      return failed(generator.id() + " returned an empty answer", generator.id(), best,
          retrievalMillis, generationMillis, sources);
    }

    return replies.check(reply, sources, diagnostics(generator.id(), best, List.of(), List.of(),
        List.of(), retrievalMillis, generationMillis, ""));
  }

  private Answer failed(String reason, String generatorId, double best, long retrievalMillis,
      long generationMillis, List<Source> sources) {
    return new Answer(AnswerStatus.FAILED, "", List.of(), sources,
        diagnostics(generatorId, best, List.of(), List.of(), List.of(), retrievalMillis,
            generationMillis, reason));
  }

  private AnswerDiagnostics diagnostics(String generatorId, double best, List<Integer> invalid,
      List<String> uncited, List<Integer> unsupported, long retrievalMillis,
      long generationMillis, String reason) {
    return new AnswerDiagnostics(generatorId, best, threshold, invalid, uncited, unsupported,
        retrievalMillis, generationMillis, reason, "", List.of());
  }

  private static long millisSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1_000_000;
  }
}
