package org.openbook.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.EvidenceGate;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.Generator;
import org.openbook.answer.SupportChecker;
import org.openbook.answer.RefusalPolicy;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;

/**
 * Runs labelled cases ({@link EvalCase}) through a {@link RetrieverVariant}.
 *
 * <p>Per case: one retrieval for the top 10 (ranking metrics, timed), then — for configurations
 * with a dense route — one {@link AnswerService#ask} with the offline
 * {@link ExtractiveGenerator} and {@code answerTopK} sources; a status {@code REFUSED_*} counts as
 * refused. Gate 1 is therefore measured exactly as {@code openbook ask} applies it. An answered
 * case with {@code answer_contains} fragments is also checked for them ({@link AnswerContains}).
 */
public final class CaseEvaluator {

  /** Ranking depth for the metrics (Recall@10, MRR@10, nDCG@10). */
  public static final int DEPTH = 10;

  private final Function<String, Principal> principals;
  private final EvidenceGate gate;
  private final Supplier<Generator> generator;
  private final int answerTopK;
  private final int fetchK;
  private final double rerankThreshold;

  /**
   * @param principals    principal name (null = anonymous) to principal; throws for unknown
   * @param gateThreshold gate-1 cosine threshold in [-1, 1]
   * @param answerTopK    sources given to the generator, ≥ 1
   * @param fetchK        candidates per route, ≥ {@value #DEPTH}
   */
  public CaseEvaluator(Function<String, Principal> principals, double gateThreshold,
      int answerTopK, int fetchK) {
    this(principals, EvidenceGate.denseOnly(gateThreshold),
        () -> new ExtractiveGenerator(RefusalPolicy.DEFAULT), answerTopK, fetchK, Double.NaN);
  }

  /**
   * @param principals principal name (null = anonymous) to principal; throws for unknown
   * @param gate       gate 1 as {@code openbook ask} applies it
   * @param generator  the offline generator (with gate 2) as {@code openbook ask} uses it
   * @param answerTopK sources given to the generator, ≥ 1
   * @param fetchK     candidates per route, ≥ {@value #DEPTH}
   * @param rerankThreshold gate-1 threshold on the top rerank score for configurations that
   *                   rerank ({@link AnswerService}), or NaN for none
   */
  public CaseEvaluator(Function<String, Principal> principals, EvidenceGate gate,
      Supplier<Generator> generator, int answerTopK, int fetchK, double rerankThreshold) {
    this.rerankThreshold = rerankThreshold;
    this.principals = principals;
    this.gate = gate;
    this.generator = generator;
    this.answerTopK = answerTopK;
    this.fetchK = Math.max(fetchK, DEPTH);
  }

  /**
   * Evaluates one configuration.
   *
   * @param onCase called after each case (progress)
   * @throws UncheckedIOException if retrieval fails
   * @throws IllegalArgumentException if a case names an unknown principal
   */
  public ConfigResult run(RetrieverVariant config, List<EvalCase> cases, Runnable onCase) {
    List<QueryOutcome> outcomes = new ArrayList<>(cases.size());
    AnswerService answers = new AnswerService(config.retriever(), generator.get(), gate,
        RefusalPolicy.DEFAULT, SupportChecker.DEFAULT_THRESHOLD, rerankThreshold);
    if (!cases.isEmpty()) {
      // One untimed query first, so class loading and JIT do not land in the first latency.
      retrieve(config, cases.get(0), principal(cases.get(0)));
    }
    for (EvalCase c : cases) {
      Principal who = principal(c);
      long t0 = System.nanoTime();
      SearchResult r = retrieve(config, c, who);
      double millis = (System.nanoTime() - t0) / 1e6;
      List<Chunk> ranking = r.hits().stream().map(Hit::chunk).toList();
      Boolean refused = null;
      Boolean holdsAll = null;
      if (config.hasDense()) {
        Answer a = answers.ask(new Query(c.question(), who, answerTopK, fetchK), t -> { });
        refused = a.status() == AnswerStatus.REFUSED_NO_EVIDENCE
            || a.status() == AnswerStatus.REFUSED_BY_MODEL;
        if (!c.expectRefuse() && !c.answerContains().isEmpty()) {
          holdsAll = !refused && AnswerContains.holdsAll(a.text(), c.answerContains());
        }
      }
      outcomes.add(new QueryOutcome(c.id(), c.type(), c.judge(ranking), millis, c.expectRefuse(),
          refused, r.rerank().isEmpty() ? Double.NaN : r.rerankMillis(), holdsAll));
      onCase.run();
    }
    return ConfigResult.summarize(config.name(), config.description(), outcomes);
  }

  private SearchResult retrieve(RetrieverVariant config, EvalCase c, Principal who) {
    try {
      return config.retriever().retrieve(new Query(c.question(), who, DEPTH, fetchK));
    } catch (IOException e) {
      throw new UncheckedIOException("retrieval failed for case " + c.id(), e);
    }
  }

  private Principal principal(EvalCase c) {
    try {
      return principals.apply(c.principal());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("case " + c.id() + ": " + e.getMessage(), e);
    }
  }
}
