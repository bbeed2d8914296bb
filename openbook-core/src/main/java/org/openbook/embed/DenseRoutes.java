package org.openbook.embed;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.openbook.index.DenseField;

/**
 * Which embedding models embed a text, by its {@link LanguageDetector detected language}; the
 * same rule for chunks at ingest and for questions at search, so a question is compared only
 * with vectors of its own model.
 *
 * <ul>
 *   <li>The <b>primary</b> model (bge-small-zh-v1.5 in the product) embeds every text, Chinese
 *       and English: its field holds every chunk, so a Chinese question reaches English passages
 *       (cross-language) and gate 1 always has the same cosine scale. Traditional Chinese is
 *       folded to Simplified first when {@code foldTraditional} ({@link ChineseFolding}).
 *   <li>The <b>English</b> model (bge-small-en-v1.5), when present, also embeds every
 *       <em>chunk</em> into the {@link #ENGLISH} field, and every <em>question</em> detected as
 *       {@link Language#EN}.
 * </ul>
 *
 * An English question is thus searched in both fields and a Chinese question in the primary
 * field only (the English model does not help Chinese questions). Chinese chunks get an English
 * vector too because, measured, English questions find Chinese passages better through it
 * (XQuAD en→zh dense R@1 0.350 against 0.138 with the Chinese model, 0.392 merged). Chosen by the
 * XQuAD and DRCD measurements in docs/BENCHMARKS.md ("Language-aware dense routes").
 *
 * <p><b>Query instructions</b> ({@link #withQueryInstructions}): a text prepended to a
 * <em>question</em> before a model embeds it, never to a chunk, as the BGE models are trained for
 * asymmetric retrieval (short query, long passage); the instructions of the model cards are
 * {@link BgeSmallZhEmbedder#QUERY_INSTRUCTION} and {@link BgeSmallEnEmbedder#QUERY_INSTRUCTION}.
 * None by default (measured in docs/BENCHMARKS.md, "Query instruction"). Chunk vectors do not
 * depend on it, so an index serves questions with or without one; but the question's cosines,
 * hence gate 1's scale, do.
 */
public final class DenseRoutes {

  /** Name of the English model's dense field. */
  public static final String ENGLISH = "en";

  private final Embedder primary;
  private final Embedder english;
  private final boolean foldTraditional;
  private final boolean concurrentQueries;
  /** Prepended to a question for the primary / English model; "" for none. */
  private final String primaryInstruction;
  private final String englishInstruction;

  private DenseRoutes(Embedder primary, Embedder english, boolean foldTraditional,
      boolean concurrentQueries) {
    this(primary, english, foldTraditional, concurrentQueries, "", "");
  }

  private DenseRoutes(Embedder primary, Embedder english, boolean foldTraditional,
      boolean concurrentQueries, String primaryInstruction, String englishInstruction) {
    // null only for callers that never run the dense route (BM25-only evaluation)
    this.primary = primary;
    this.english = english;
    this.foldTraditional = foldTraditional;
    this.concurrentQueries = concurrentQueries;
    this.primaryInstruction = Objects.requireNonNull(primaryInstruction, "primaryInstruction");
    this.englishInstruction = Objects.requireNonNull(englishInstruction, "englishInstruction");
  }

  /** One model for every text, unchanged input (tests, custom models). */
  public static DenseRoutes single(Embedder model) {
    return new DenseRoutes(model, null, false, false);
  }

  /**
   * The Chinese model alone for every text, Traditional folded to Simplified: exactly what the
   * {@link #bilingual} routes do for a Chinese question (it searches the primary field only), at
   * the cost of one model (benchmarks of Chinese question sets; an index without English route).
   */
  public static DenseRoutes chinese(Embedder chinese) {
    return new DenseRoutes(Objects.requireNonNull(chinese, "chinese"), null, true, false);
  }

  /**
   * The product's routes: {@code chinese} for every text (Traditional folded to Simplified),
   * {@code english} in addition for English texts.
   */
  public static DenseRoutes bilingual(Embedder chinese, Embedder english) {
    return new DenseRoutes(chinese, Objects.requireNonNull(english, "english"), true, true);
  }

  /** The default models: {@link BgeSmallZhEmbedder} and {@link BgeSmallEnEmbedder}. */
  public static DenseRoutes defaults() {
    return bilingual(new BgeSmallZhEmbedder(), new BgeSmallEnEmbedder());
  }

  /** These routes with every model answering from {@code cache} first. */
  public DenseRoutes cached(EmbeddingCache cache) {
    return new DenseRoutes(new CachingEmbedder(primary, cache),
        english == null ? null : new CachingEmbedder(english, cache), foldTraditional,
        concurrentQueries, primaryInstruction, englishInstruction);
  }

  /**
   * These routes with query instructions: {@code primary} is prepended to every question the
   * primary model embeds, {@code english} to every question the English model embeds (ignored
   * without an English model); chunks are embedded unchanged. An empty string means none. The
   * embedding cache keys the instructed text, so instructed and plain question vectors never mix.
   *
   * @param primary e.g. {@link BgeSmallZhEmbedder#QUERY_INSTRUCTION}, or ""
   * @param english e.g. {@link BgeSmallEnEmbedder#QUERY_INSTRUCTION}, or ""
   */
  public DenseRoutes withQueryInstructions(String primary, String english) {
    return new DenseRoutes(this.primary, this.english, foldTraditional, concurrentQueries,
        primary, english);
  }

  /** The instruction prepended to questions for the primary model ("" for none). */
  public String primaryInstruction() {
    return primaryInstruction;
  }

  /** The instruction prepended to questions for the English model ("" for none). */
  public String englishInstruction() {
    return englishInstruction;
  }

  /**
   * These routes with an English question embedded by the two models one after the other
   * instead of at the same time (the latency benchmark's baseline).
   */
  public DenseRoutes sequentialQueries() {
    return new DenseRoutes(primary, english, foldTraditional, false, primaryInstruction,
        englishInstruction);
  }

  /** The model of the primary field. */
  public Embedder primary() {
    return primary;
  }

  /** The English model, if this has one. */
  public Optional<Embedder> english() {
    return Optional.ofNullable(english);
  }

  /** The dense fields besides the primary one, for the index manifest. */
  public List<DenseField> denseFields() {
    return english == null ? List.of()
        : List.of(new DenseField(ENGLISH, english.modelId(), english.dimension(),
            english.provider()));
  }

  /** Whether a question {@code text} is also embedded by the English model. */
  public boolean routesToEnglish(String text) {
    return english != null && LanguageDetector.detect(text) == Language.EN;
  }

  /**
   * Most tokens a chunk {@code text} takes in any model that embeds it; the chunker keeps this
   * at most {@link #maxInputTokens()}.
   */
  public int countTokens(String text) {
    int n = primary.countTokens(primaryInput(text));
    return english != null ? Math.max(n, english.countTokens(text)) : n;
  }

  /**
   * Whether a chunk {@code text} takes at most {@code limit} tokens in every model that embeds
   * it: {@code countTokens(text) <= limit}, without tokenizing when a bound settles it ({@link
   * Embedder#fitsTokens}).
   */
  public boolean fitsTokens(String text, int limit) {
    return primary.fitsTokens(primaryInput(text), limit)
        && (english == null || english.fitsTokens(text, limit));
  }

  /**
   * Texts per ingest embedding call the models ask for ({@link Embedder#ingestBatchSize()}): the
   * smallest non-zero request, or 0 when none asks (the pipeline's default).
   */
  public int ingestBatchSize() {
    int p = primary.ingestBatchSize();
    int e = english == null ? 0 : english.ingestBatchSize();
    return p == 0 ? e : e == 0 ? p : Math.min(p, e);
  }

  /** The smallest input limit of the models. */
  public int maxInputTokens() {
    return english == null ? primary.maxInputTokens()
        : Math.min(primary.maxInputTokens(), english.maxInputTokens());
  }

  /**
   * Embeds chunk texts: every text with the primary model and, when there is one, with the
   * English model; one batch per model.
   *
   * @return per text, in order: the primary vector and the further vectors by field name
   * @throws InputTooLongException if a text exceeds a model's limit (nothing is truncated)
   */
  public List<RoutedVectors> embedAll(List<String> texts) {
    return embed(texts, true);
  }

  /**
   * Embeds a question: with the primary model and, when it is English, also with the English
   * model, the two at the same time (the English one on a pooled daemon thread: a question's
   * latency is then about that of the slower model, not their sum; docs/BENCHMARKS.md,
   * "Language-aware dense routes"). Each model reads the question's {@link BoundedInput bounded
   * form} for its own limit, so an over-long question never fails; the model's query
   * instruction, if any, is prepended before bounding (so it is kept).
   */
  public RoutedVectors embedQuery(String text) {
    if (!concurrentQueries || !routesToEnglish(text)) {
      return embed(List.of(text), false).get(0);
    }
    CompletableFuture<float[]> en = CompletableFuture.supplyAsync(
        () -> english.embed(englishQueryInput(text)), QueryThreads.POOL);
    float[] p = primary.embed(primaryQueryInput(text));
    return new RoutedVectors(p, Map.of(ENGLISH, QueryThreads.join(en)));
  }

  /**
   * Embeds questions in one batch per model, exactly as {@link #embedQuery} embeds each (same
   * instructed, bounded inputs, so a cache filled here answers {@code embedQuery}).
   *
   * @return per question, in order, its vectors
   */
  public List<RoutedVectors> embedQueries(List<String> texts) {
    return embed(texts, false);
  }

  private List<RoutedVectors> embed(List<String> texts, boolean chunks) {
    List<float[]> p = primary.embedAll(texts.stream()
        .map(t -> chunks ? primaryInput(t) : primaryQueryInput(t))
        .toList());
    List<Integer> englishIdx = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      if (english != null && (chunks || routesToEnglish(texts.get(i)))) {
        englishIdx.add(i);
      }
    }
    List<float[]> e = englishIdx.isEmpty() ? List.of()
        : english.embedAll(englishIdx.stream().map(texts::get)
            .map(t -> chunks ? t : englishQueryInput(t)).toList());
    List<Map<String, float[]>> extra = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      extra.add(new HashMap<>());
    }
    for (int j = 0; j < englishIdx.size(); j++) {
      extra.get(englishIdx.get(j)).put(ENGLISH, e.get(j));
    }
    List<RoutedVectors> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      out.add(new RoutedVectors(p.get(i), extra.get(i)));
    }
    return out;
  }


  /** What the primary model reads for a question: instruction + folded text, bounded. */
  private String primaryQueryInput(String text) {
    return BoundedInput.of(primaryInstruction + primaryInput(text), primary);
  }

  /** What the English model reads for a question: instruction + text, bounded. */
  private String englishQueryInput(String text) {
    return BoundedInput.of(englishInstruction + text, english);
  }

  /** The text the primary model reads: folded to Simplified when it is Traditional. */
  public String primaryInput(String text) {
    return foldTraditional ? ChineseFolding.toSimplifiedIfTraditional(text) : text;
  }

  /**
   * The vectors of one text.
   *
   * @param primary L2-normalised primary-model vector
   * @param fields  L2-normalised vectors of further fields, by {@link DenseField#name()}
   */
  public record RoutedVectors(float[] primary, Map<String, float[]> fields) {
    public RoutedVectors {
      Objects.requireNonNull(primary, "primary");
      fields = Map.copyOf(fields);
    }
  }

}
