package org.openbook.engine;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.answer.AnswerService;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.Generator;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.RefusalPolicy;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.DocumentReader;
import org.openbook.document.Loaders;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.IndexStore;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestOptions;
import org.openbook.ingest.IngestReport;
import org.openbook.ingest.Indexer;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.OpenAiGenerator;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.Fusion;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.MinMaxFusion;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.RrfFusion;

/**
 * Wires the pipeline stages from the configuration: embedder, analysis, chunker, store,
 * retriever, answer service. One engine per command; close it to release the index.
 */
public final class OpenBook implements Closeable {

  /**
   * Gate-1 threshold on the best dense cosine (bge-small-zh-v1.5) when the config sets none;
   * see docs/BENCHMARKS.md for the calibration that chose it.
   */
  public static final double DEFAULT_GATE_THRESHOLD = 0.53;
  /** Fusion when the config names none; chosen on the evaluation sets (docs/BENCHMARKS.md). */
  public static final String DEFAULT_FUSION = "minmax";
  /**
   * Min-max weights when the config gives none: dense 0.3 / BM25 0.7, best or within 0.4 points
   * of R@1 of the best weight on CMRC 2018, DRCD, XQuAD zh and XQuAD en (docs/BENCHMARKS.md,
   * "Fusion comparison"); equal weights lose 2.6 (DRCD) and 7.1 (XQuAD en) points of R@1.
   */
  public static final MinMaxFusion DEFAULT_MINMAX = new MinMaxFusion(0.3, 0.7);
  /** Hits returned when neither {@code -k} nor the config says. */
  public static final int DEFAULT_TOP_K = 5;

  private final OpenBookConfig config;
  /** Which models embed chunks and questions, by language. */
  private final DenseRoutes routes;
  private final TextAnalysis analysis;
  /** Embedded Lucene or SolrCloud, as {@code store.type} says ({@link StoreFactory}). */
  private final IndexStore store;
  private final StructuredChunker chunker;
  private final Path index;
  /** Embedding cache under the index folder; only for ingest engines, else null. */
  private final EmbeddingCache cache;

  private OpenBook(OpenBookConfig config, DenseRoutes routes, Path index, boolean write,
      boolean reset) throws IOException {
    this.config = config;
    this.index = index;
    this.routes = routes;
    this.analysis = OpenBookAnalysis.defaultAnalysis();
    // A chunk must fit every model that embeds it.
    this.chunker = new StructuredChunker(config.chunking().settings(), routes::countTokens,
        routes.maxInputTokens());
    Embedder primary = routes.primary();
    IndexManifest expected = new IndexManifest(primary.modelId(), primary.dimension(),
        IndexManifest.COSINE, analysis.id(), chunker.settings().id(), 0, 0, routes.denseFields());
    this.store = StoreFactory.open(config.store(), index, expected, analysis,
        reset ? StoreFactory.Mode.RESET
            : write ? StoreFactory.Mode.WRITE : StoreFactory.Mode.READ,
        System.getenv());
    if (write && !reset) {
      requireSameChunker(store, expected);
    }
    EmbeddingCache c = null;
    if (write) {
      try {
        c = EmbeddingCache.open(index.resolve(EmbeddingCache.FOLDER_NAME));
      } catch (IOException | RuntimeException e) {
        store.close();
        throw e;
      }
    }
    this.cache = c;
  }

  /**
   * An incremental ingest must chunk as the index was chunked: unchanged files keep their old
   * chunks, so mixing budgets would leave the index half in one, half in the other.
   */
  private static void requireSameChunker(IndexStore store, IndexManifest expected)
      throws IOException {
    IndexManifest have = store.manifest();
    if (have.chunks() > 0 && !have.chunker().equals(expected.chunker())) {
      store.close();
      throw new IndexMismatchException("index was chunked with '" + have.chunker()
          + "', this run uses '" + expected.chunker() + "'\nRebuild it: openbook ingest <dir>"
          + " --index <path> --reset");
    }
  }

  /** An engine that can ingest into {@code index} (created if absent; emptied when reset). */
  public static OpenBook forIngest(Path index, OpenBookConfig config, boolean reset)
      throws IOException {
    return new OpenBook(config, DenseRoutes.defaults(), index, true, reset);
  }

  /** An engine over an existing index, for search and ask. */
  public static OpenBook forSearch(Path index, OpenBookConfig config) throws IOException {
    return new OpenBook(config, DenseRoutes.defaults(), index, false, false);
  }

  /**
   * As {@link #forIngest}/{@link #forSearch} with one given model for every language (tests,
   * benchmarks).
   */
  public static OpenBook open(Path index, OpenBookConfig config, Embedder embedder, boolean write,
      boolean reset) throws IOException {
    return new OpenBook(config, DenseRoutes.single(embedder), index, write, reset);
  }

  /** As {@link #forIngest}/{@link #forSearch} with given language routes (tools, benchmarks). */
  public static OpenBook open(Path index, OpenBookConfig config, DenseRoutes routes,
      boolean write, boolean reset) throws IOException {
    return new OpenBook(config, routes, index, write, reset);
  }

  /** The embedding models by language, as this engine ingests and searches. */
  public DenseRoutes routes() {
    return routes;
  }

  /** Ingests a folder incrementally (everything again after a reset) and commits. */
  public IngestReport ingest(Path root, IngestListener listener) throws IOException {
    if (index.toAbsolutePath().normalize().startsWith(root.toAbsolutePath().normalize())) {
      // the walk would read the index's own files as documents
      throw new IllegalArgumentException("the index folder " + index + " is inside the documents"
          + " folder " + root + "; keep it elsewhere");
    }
    long maxBytes = config.ingest().maxFileBytes() == null
        ? DocumentReader.DEFAULT_MAX_BYTES : config.ingest().maxFileBytes();
    var in = config.ingest();
    IngestOptions options = new IngestOptions(
        in.maxChunksPerDocument() == null
            ? IngestOptions.DEFAULT_MAX_CHUNKS_PER_DOCUMENT : in.maxChunksPerDocument(),
        in.commitEvery() == null ? IngestOptions.DEFAULT_COMMIT_EVERY : in.commitEvery(),
        cache);
    Indexer indexer = new Indexer(new DocumentReader(Loaders.defaults(), maxBytes), chunker,
        routes, options);
    return indexer.ingest(root, store, store, listener);
  }

  /** Chunks in the index. */
  public long count() throws IOException {
    return store.count();
  }

  /** The store (embedded Lucene or SolrCloud), for callers that need a capability directly. */
  public IndexStore store() {
    return store;
  }

  /**
   * The embedded store, for Lucene-only operations (tests, index inspection).
   *
   * @throws IllegalStateException if the configuration selects another backend
   */
  public LuceneChunkStore luceneStore() {
    if (store instanceof LuceneChunkStore lucene) {
      return lucene;
    }
    throw new IllegalStateException("the index is not the embedded Lucene store: " + store);
  }

  /** A query with the configured top-k and fetch-k; {@code topK} overrides when not null. */
  public Query query(String text, Principal principal, Integer topK) {
    int k = topK != null ? topK : config.retrieval().topKOr(DEFAULT_TOP_K);
    int fetchK = config.retrieval().fetchKOr(Query.DEFAULT_FETCH_K);
    return new Query(text, principal, k, Math.max(k, fetchK));
  }

  /** Hybrid retrieval with the configured fusion. */
  public Retriever retriever() {
    return new HybridRetriever(routes, store, store, fusion());
  }

  /**
   * The configured fusion: {@code retrieval.fusion} is {@code rrf} or {@code minmax}, default
   * {@value #DEFAULT_FUSION}; min-max weights default to {@link #DEFAULT_MINMAX}, RRF weights to
   * equal.
   *
   * @throws IllegalArgumentException for another fusion name
   */
  public Fusion fusion() {
    var r = config.retrieval();
    String name = r.fusion() == null ? DEFAULT_FUSION : r.fusion();
    return switch (name) {
      case "rrf" -> new RrfFusion(r.rrfK() == null ? RrfFusion.DEFAULT.k() : r.rrfK(),
          r.denseWeight() == null ? 1.0 : r.denseWeight(),
          r.sparseWeight() == null ? 1.0 : r.sparseWeight());
      case "minmax" -> new MinMaxFusion(
          r.denseWeight() == null ? DEFAULT_MINMAX.denseWeight() : r.denseWeight(),
          r.sparseWeight() == null ? DEFAULT_MINMAX.sparseWeight() : r.sparseWeight());
      default -> throw new IllegalArgumentException(
          "retrieval.fusion must be 'rrf' or 'minmax', got '" + name + "'");
    };
  }

  /** The gate-1 threshold in force. */
  public double gateThreshold() {
    Double t = config.gate().threshold();
    return t == null ? DEFAULT_GATE_THRESHOLD : t;
  }

  /** The ask pipeline with {@code generator}. */
  public AnswerService answerService(Generator generator) {
    return new AnswerService(retriever(), generator, gateThreshold(), RefusalPolicy.DEFAULT);
  }

  /**
   * The LLM when an endpoint is configured (environment first, then the config's {@code llm}
   * section), else the extractive generator.
   */
  public Generator defaultGenerator() {
    return llm()
        .<Generator>map(c -> new OpenAiGenerator(c, new PromptBuilder(RefusalPolicy.DEFAULT)))
        .orElseGet(() -> new ExtractiveGenerator(RefusalPolicy.DEFAULT));
  }

  /**
   * The LLM endpoint when one is configured (environment first, then the config's {@code llm}
   * section), else empty; used by {@code ask --agent} and the follow-up rewriter.
   */
  public java.util.Optional<LlmConfig> llm() {
    return llmConfig(System.getenv());
  }

  private java.util.Optional<LlmConfig> llmConfig(Map<String, String> env) {
    var fromEnv = LlmConfig.fromEnvironment(env);
    if (fromEnv.isPresent()) {
      return fromEnv;
    }
    var l = config.llm();
    if (l.baseUrl() == null || l.baseUrl().isBlank()) {
      return java.util.Optional.empty();
    }
    if (l.model() == null || l.model().isBlank()) {
      throw new IllegalArgumentException("config llm.model is required when llm.baseUrl is set");
    }
    String key = env.getOrDefault("OPENBOOK_LLM_API_KEY", l.apiKey());
    return java.util.Optional.of(new LlmConfig(l.baseUrl(), key, l.model(),
        l.timeoutSeconds() == null ? 60 : l.timeoutSeconds()));
  }

  @Override
  public void close() throws IOException {
    try {
      if (cache != null) {
        cache.close();
      }
    } finally {
      store.close();
    }
  }
}
