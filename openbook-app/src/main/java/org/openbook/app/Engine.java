package org.openbook.app;

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
import org.openbook.app.config.OpenBookConfig;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.DocumentReader;
import org.openbook.document.Loaders;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.index.IndexManifest;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.ingest.Indexer;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.OpenAiGenerator;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.RrfFusion;

/**
 * Wires the pipeline stages from the configuration: embedder, analysis, chunker, store,
 * retriever, answer service. One engine per command; close it to release the index.
 */
public final class Engine implements Closeable {

  /**
   * Gate-1 threshold on the best dense cosine (bge-small-zh-v1.5) when the config sets none;
   * see docs/BENCHMARKS.md for the calibration that chose it.
   */
  public static final double DEFAULT_GATE_THRESHOLD = 0.5;
  /** Hits returned when neither {@code -k} nor the config says. */
  public static final int DEFAULT_TOP_K = 5;

  private final OpenBookConfig config;
  private final Embedder embedder;
  private final TextAnalysis analysis;
  private final LuceneChunkStore store;
  private final StructuredChunker chunker;

  private Engine(OpenBookConfig config, Embedder embedder, Path index, boolean write,
      boolean reset) throws IOException {
    this.config = config;
    this.embedder = embedder;
    this.analysis = OpenBookAnalysis.defaultAnalysis();
    this.chunker = new StructuredChunker(config.chunking().settings(), embedder::countTokens,
        embedder.maxInputTokens());
    IndexManifest expected = new IndexManifest(embedder.modelId(), embedder.dimension(),
        IndexManifest.COSINE, analysis.id(), chunker.settings().id(), 0, 0);
    if (reset) {
      this.store = LuceneChunkStore.create(index, expected, analysis);
    } else if (write) {
      this.store = LuceneChunkStore.open(index, expected, analysis);
    } else {
      this.store = LuceneChunkStore.openExisting(index, expected, analysis);
    }
  }

  /** An engine that can ingest into {@code index} (created if absent; emptied when reset). */
  public static Engine forIngest(Path index, OpenBookConfig config, boolean reset)
      throws IOException {
    return new Engine(config, new BgeSmallZhEmbedder(), index, true, reset);
  }

  /** An engine over an existing index, for search and ask. */
  public static Engine forSearch(Path index, OpenBookConfig config) throws IOException {
    return new Engine(config, new BgeSmallZhEmbedder(), index, false, false);
  }

  /** As {@link #forIngest}/{@link #forSearch} with a given embedder (tests, benchmarks). */
  public static Engine open(Path index, OpenBookConfig config, Embedder embedder, boolean write,
      boolean reset) throws IOException {
    return new Engine(config, embedder, index, write, reset);
  }

  /** Ingests a folder incrementally (everything again after a reset) and commits. */
  public IngestReport ingest(Path root, IngestListener listener) throws IOException {
    long maxBytes = config.ingest().maxFileBytes() == null
        ? DocumentReader.DEFAULT_MAX_BYTES : config.ingest().maxFileBytes();
    Indexer indexer = new Indexer(new DocumentReader(Loaders.defaults(), maxBytes), chunker,
        embedder);
    return indexer.ingest(root, store, store, listener);
  }

  /** Chunks in the index. */
  public long count() throws IOException {
    return store.count();
  }

  /** The store, for callers that need a capability directly. */
  public LuceneChunkStore store() {
    return store;
  }

  /** A query with the configured top-k and fetch-k; {@code topK} overrides when not null. */
  public Query query(String text, Principal principal, Integer topK) {
    int k = topK != null ? topK : config.retrieval().topKOr(DEFAULT_TOP_K);
    int fetchK = config.retrieval().fetchKOr(Query.DEFAULT_FETCH_K);
    return new Query(text, principal, k, Math.max(k, fetchK));
  }

  /** Hybrid retrieval with the configured RRF settings. */
  public Retriever retriever() {
    var r = config.retrieval();
    RrfFusion fusion = new RrfFusion(
        r.rrfK() == null ? RrfFusion.DEFAULT.k() : r.rrfK(),
        r.denseWeight() == null ? RrfFusion.DEFAULT.denseWeight() : r.denseWeight(),
        r.sparseWeight() == null ? RrfFusion.DEFAULT.sparseWeight() : r.sparseWeight());
    return new HybridRetriever(embedder, store, store, fusion);
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
    return llmConfig(System.getenv())
        .<Generator>map(c -> new OpenAiGenerator(c, new PromptBuilder(RefusalPolicy.DEFAULT)))
        .orElseGet(() -> new ExtractiveGenerator(RefusalPolicy.DEFAULT));
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
    store.close();
  }
}
