package org.openbook.engine;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.QuestionText;
import org.openbook.analysis.Synonyms;
import org.openbook.analysis.TextAnalysis;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.Answerer;
import org.openbook.answer.EvidenceGate;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.Generator;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.RefusalPolicy;
import org.openbook.answer.SupportChecker;
import org.openbook.answer.TermCoverage;
import org.openbook.chunk.StructuredChunker;
import org.openbook.conversation.ConversationService;
import org.openbook.conversation.ConversationStore;
import org.openbook.conversation.JsonFileConversationStore;
import org.openbook.conversation.KeyTermCarryOver;
import org.openbook.conversation.QuestionRewriter;
import org.openbook.conversation.TurnAccess;
import org.openbook.document.DocumentReader;
import org.openbook.document.Loaders;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
import org.openbook.index.IndexManifest;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.IndexStore;
import org.openbook.ingest.Indexer;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestOptions;
import org.openbook.ingest.IngestReport;
import org.openbook.llm.AgenticAnswerer;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.LlmQuestionRewriter;
import org.openbook.llm.LlmReranker;
import org.openbook.llm.OpenAiGenerator;
import org.openbook.rerank.HttpReranker;
import org.openbook.rerank.Reranker;
import org.openbook.rerank.RerankingRetriever;
import org.openbook.rerank.ScoringModelReranker;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.SearchResult;

/**
 * OpenBook as a library: one knowledge base (an index plus its configuration) that ingests
 * folders and answers questions as a principal, with numbered citations or a refusal.
 *
 * <pre>{@code
 * try (OpenBook kb = OpenBook.builder().index(Path.of("/var/kb/index"))
 *     .config(ConfigLoader.read(Path.of("openbook.yaml"))).mode(OpenBook.Mode.WRITE).build()) {
 *   kb.ingest(Path.of("/srv/docs"));
 *   Answer a = kb.ask("年假可以顺延吗？", kb.principal("hr"), Answerer.Listener.NONE);
 * }
 * }</pre>
 *
 * <p>The builder resolves the configuration once ({@link OpenBookConfig#resolve}) and wires the
 * stages: embedding models (default in-process bge-small-zh-v1.5 for every text plus
 * bge-small-en-v1.5 for English, see {@link DenseRoutes}), store (embedded Lucene in the index
 * folder, or the SolrCloud collection of {@code store:}), hybrid retriever with the configured
 * fusion, and the answerer (the configured OpenAI-compatible LLM, else extractive answers). A
 * store opened in {@link Mode#WRITE} or {@link Mode#RESET} holds the index's single-writer lock
 * until {@link #close()}. Instances are safe for concurrent searches and asks; ingest runs one at
 * a time.
 */
public final class OpenBook implements Closeable {

  /** Folder under the index holding one JSON file per conversation. */
  public static final String CONVERSATIONS_FOLDER = "conversations";

  /** What the caller will do with the index. */
  public enum Mode {
    /** Search and ask over an existing index; nothing is created. */
    READ,
    /** Ingest incrementally (and search): the index is created if absent. */
    WRITE,
    /** Ingest from scratch: the index is emptied first ({@code --reset}); the embedding cache stays. */
    RESET;

    /** {@code RESET} when {@code reset}, else {@code WRITE} when {@code write}, else {@code READ}. */
    public static Mode of(boolean write, boolean reset) {
      return reset ? RESET : write ? WRITE : READ;
    }
  }

  private final Settings settings;
  /** Which models embed chunks and questions, by language. */
  private final DenseRoutes routes;
  private final TextAnalysis analysis;
  private final IndexStore store;
  private final StructuredChunker chunker;
  private final Path index;
  /** Embedding cache under the index folder; only when writing, else null. */
  private final EmbeddingCache cache;
  /** The reranking stage's model ({@code rerank:}), or null when none is configured. */
  private final Reranker reranker;
  /** The user's synonyms ({@code analysis.synonyms}), read when the engine opens. */
  private final Synonyms synonyms;
  /** Gate 1: dense cosine or lexical evidence, as configured. */
  private final EvidenceGate gate;
  private final Retriever retriever;
  private final Generator generator;
  private final AnswerService answerService;
  private final ConversationStore conversationStore;

  private OpenBook(Builder b) throws IOException {
    this.settings = b.config.resolve(b.env);
    // read before anything is opened or built that would need closing
    OpenBookAnalysis.Strategy analyzer = analyzer(settings, b.mode, b.index);
    // before the store is opened: a reranker that cannot be built must not leave a lock behind
    this.reranker = settings.rerank().enabled() ? newReranker(settings) : null;
    this.synonyms = settings.synonyms().map(Synonyms::load).orElse(Synonyms.NONE);
    this.index = b.index;
    // embedding.queryInstruction and embedding.routes apply to the configured models; routes or
    // a model given to the builder are used as given.
    this.routes = b.routes != null ? b.routes
        : b.embedder != null ? DenseRoutes.single(b.embedder)
        : ExpectedManifest.routes(settings);
    this.analysis = OpenBookAnalysis.of(analyzer);
    // A chunk must fit every model that embeds it.
    this.chunker = new StructuredChunker(settings.chunking(), routes::fitsTokens,
        routes.maxInputTokens());
    IndexManifest expected = ExpectedManifest.of(routes, analysis, settings);
    this.store = StoreFactory.open(settings.store(), index, expected, analysis, b.mode);
    EmbeddingCache c = null;
    try {
      if (b.mode == Mode.WRITE) {
        requireSameChunker(store, expected);
      }
      if (b.mode != Mode.READ) {
        c = EmbeddingCache.open(index.resolve(EmbeddingCache.FOLDER_NAME));
      }
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    this.cache = c;
    this.retriever = reranked(new HybridRetriever(routes, store, store,
        settings.retrieval().fusion(), HybridRetriever.Mode.HYBRID, synonyms));
    Settings.Gate g = settings.gate();
    this.gate = g.lexical()
        ? new EvidenceGate(g.threshold(), g.lexicalThreshold(), analysis, store)
        : EvidenceGate.denseOnly(g.threshold());
    this.generator = b.generator != null ? b.generator
        : settings.llm().<Generator>map(llm -> new OpenAiGenerator(llm,
            new PromptBuilder(RefusalPolicy.DEFAULT))).orElseGet(this::extractiveGenerator);
    this.answerService = new AnswerService(retriever, generator, gate, RefusalPolicy.DEFAULT,
        SupportChecker.DEFAULT_THRESHOLD, settings.rerank().threshold());
    this.conversationStore = b.conversations != null ? b.conversations
        : new JsonFileConversationStore(index.resolve(CONVERSATIONS_FOLDER));
  }

  /** A builder; {@link Builder#index} is required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The analyzer of this run: {@link Settings#analyzerFor} of the analyzer the existing index
   * records (none when resetting).
   */
  private static OpenBookAnalysis.Strategy analyzer(Settings settings, Mode mode, Path index)
      throws IOException {
    return settings.analyzerFor(settings.analyzerNamed() || mode == Mode.RESET ? Optional.empty()
        : StoreFactory.recordedAnalyzer(settings.store(), index));
  }

  /**
   * An incremental ingest must chunk as the index was chunked: unchanged files keep their old
   * chunks, so mixing budgets would leave the index half in one, half in the other.
   */
  private static void requireSameChunker(IndexStore store, IndexManifest expected)
      throws IOException {
    IndexManifest have = store.manifest();
    if (have.chunks() > 0 && !have.chunker().equals(expected.chunker())) {
      throw new IndexMismatchException("index was chunked with '" + have.chunker()
          + "', this run uses '" + expected.chunker() + "'\nRebuild it: openbook ingest <dir>"
          + " --index <path> --reset");
    }
  }

  /**
   * The reranker {@code rerank.type} names.
   *
   * @throws IllegalArgumentException naming the {@code rerank.*} field when it cannot be built (a
   *     missing ONNX file, {@code type: llm} without an LLM endpoint)
   */
  private static Reranker newReranker(Settings settings) {
    Settings.Rerank r = settings.rerank();
    return switch (r.type()) {
      case "http" -> new HttpReranker(r.url().orElseThrow(), HttpReranker.Api.parse(r.api()),
          r.model().orElse(null), r.apiKey().orElse(null), Duration.ofMillis(r.timeoutMs()));
      case "onnx" -> ScoringModelReranker.onnx(Path.of(r.model().orElseThrow()),
          r.tokenizer().map(Path::of).orElse(null), ScoringModelReranker.DEFAULT_MAX_LENGTH);
      case "llm" -> new LlmReranker(settings.llm().orElseThrow(() -> new IllegalArgumentException(
          "rerank.type llm needs an LLM endpoint (llm.baseUrl or " + LlmConfig.ENV_BASE_URL
              + ")")));
      default -> throw new IllegalArgumentException("no reranker for rerank.type " + r.type());
    };
  }

  /**
   * {@code fused} followed by the configured reranking stage, or {@code fused} itself when
   * {@code rerank.type} is {@code none}. Search, ask, the agent, the server and
   * {@code eval --configs hybrid+rerank} all go through here, so they rerank alike.
   */
  public Retriever reranked(Retriever fused) {
    if (reranker == null) {
      return fused;
    }
    return new RerankingRetriever(fused, reranker, settings.rerank().fetchK(),
        settings.rerank().timeoutMs());
  }

  /**
   * The extractive generator (no LLM) with gate 2 (key-term coverage with the synonyms and
   * coverage by meaning) and sentence choice by meaning, all with the loaded embedder.
   */
  public ExtractiveGenerator extractiveGenerator() {
    return new ExtractiveGenerator(RefusalPolicy.DEFAULT,
        new TermCoverage(analysis, store, synonyms, routes.primary(),
            TermCoverage.DEFAULT_MIN_COSINE),
        routes.primary());
  }

  /**
   * Gate 1 as configured: dense cosine ({@code gate.threshold}) or lexical evidence (identifier
   * match, or an IDF-weighted key-term share of {@code gate.lexicalThreshold});
   * {@code gate.lexical: false} gives the dense-only rule.
   */
  public EvidenceGate gate() {
    return gate;
  }

  /** The user's synonyms ({@code analysis.synonyms}; empty when none is configured). */
  public Synonyms synonyms() {
    return synonyms;
  }

  /** The configuration in force (every default filled in). */
  public Settings settings() {
    return settings;
  }

  /**
   * The principal called {@code name} in the configuration's {@code principals}; null or blank
   * is {@link Principal#ANONYMOUS}, which reads {@code public} only.
   *
   * @throws IllegalArgumentException naming the known principals when {@code name} is unknown
   */
  public Principal principal(String name) {
    return settings.principal(name);
  }

  /**
   * Ingests a folder incrementally (everything again after a reset) and commits: unchanged files
   * (by content hash) are not read, changed ones replace all their chunks, removed ones lose
   * theirs — the index mirrors {@code root}.
   *
   * @param root     the documents folder; must not contain the index folder
   * @param listener progress callbacks ({@link IngestListener#NONE} for none)
   * @return what was added, updated, removed and skipped (with reasons)
   * @throws IllegalStateException    if this instance was built in {@link Mode#READ}
   * @throws IllegalArgumentException if the index folder is inside {@code root}
   * @throws IOException              if the folder cannot be walked or the index written
   */
  public IngestReport ingest(Path root, IngestListener listener) throws IOException {
    return runIngest(root, null, listener, null);
  }

  /**
   * Ingests only {@code files} (paths under {@code root}) and commits: other sources are neither
   * read nor removed (see {@link Indexer#ingestFiles}), so the cost is that of those files.
   *
   * @throws IllegalStateException    if this instance was built in {@link Mode#READ}
   * @throws IllegalArgumentException naming a file that is not under {@code root}
   */
  public IngestReport ingest(Path root, List<Path> files, IngestListener listener)
      throws IOException {
    return runIngest(root, List.copyOf(files), listener, null);
  }

  /**
   * As {@link #ingest(Path, List, IngestListener)}, loading each changed file with
   * {@code loader} (e.g. documents the caller already loaded, so each is parsed once).
   */
  public IngestReport ingest(Path root, List<Path> files, Indexer.FileLoader loader,
      IngestListener listener) throws IOException {
    return runIngest(root, List.copyOf(files), listener, loader);
  }

  /**
   * Ingests {@code files} under {@code root}, or the whole folder when {@code files} is null,
   * loading with {@code loader}, or the configured loaders when it is null.
   */
  private IngestReport runIngest(Path root, List<Path> files, IngestListener listener,
      Indexer.FileLoader loader) throws IOException {
    if (cache == null) {
      throw new IllegalStateException("this OpenBook was opened read-only; build it with"
          + " mode(WRITE) or mode(RESET) to ingest");
    }
    if (index.toAbsolutePath().normalize().startsWith(root.toAbsolutePath().normalize())) {
      // the walk would read the index's own files as documents
      throw new IllegalArgumentException("the index folder " + index + " is inside the documents"
          + " folder " + root + "; keep it elsewhere");
    }
    var in = settings.ingest();
    IngestOptions options = new IngestOptions(in.maxChunksPerDocument(), in.commitEvery(), cache);
    Indexer indexer = new Indexer(new DocumentReader(Loaders.defaults(in.loaders()),
        in.maxFileBytes(), settings.access()), chunker, routes, options);
    return files == null ? indexer.ingest(root, store, store, listener)
        : indexer.ingestFiles(root, files, store, store, listener, loader);
  }

  /** {@link #ingest(Path, IngestListener)} without progress callbacks. */
  public IngestReport ingest(Path root) throws IOException {
    return ingest(root, IngestListener.NONE);
  }

  /**
   * A query as {@code principal} with the configured fetch-k.
   *
   * @param topK hits wanted, or null for the configured {@code retrieval.topK}
   * @throws IllegalArgumentException when {@code text} has nothing to search for or is not valid
   *     UTF-16 ({@link QuestionText}), naming the fault
   */
  public Query query(String text, Principal principal, Integer topK) {
    QuestionText.require(text);
    int k = topK != null ? topK : settings.retrieval().topK();
    return new Query(text, principal, k, Math.max(k, settings.retrieval().fetchK()));
  }

  /**
   * Hybrid retrieval only (no gate, no generation): the top {@code k} passages {@code principal}
   * may read, best first, each with its dense, BM25 and fused scores.
   *
   * @throws IOException if the store fails
   */
  public SearchResult search(String question, Principal principal, int k) throws IOException {
    return retriever.retrieve(query(question, principal, k));
  }

  /**
   * Answers one question as {@code principal}: retrieve once, gate 1, generate (LLM or
   * extractive), check citations. Never throws for retrieval or LLM failures: those are
   * {@code FAILED} answers with the reason in the diagnostics.
   *
   * @param listener receives the numbered sources, then the text as it is produced
   */
  public Answer ask(String question, Principal principal, Answerer.Listener listener) {
    return answerService.ask(query(question, principal, null), listener);
  }

  /**
   * Asks {@code question} as the next turn of conversation {@code conversationId}: a follow-up is
   * rewritten into a standalone question first (by the LLM when configured, else by carrying
   * over the previous question's key terms), and the turn is stored.
   *
   * @param conversationId 1–64 characters from {@code [A-Za-z0-9_-]}; a new id starts one
   * @throws IllegalArgumentException for an invalid id or one owned by another principal
   * @throws IOException if the conversation store fails
   */
  public Answer ask(String conversationId, String question, Principal principal,
      Answerer.Listener listener) throws IOException {
    return conversations(answerService).ask(conversationId, query(question, principal, null),
        listener);
  }

  /**
   * Answers with the tool-calling agent: the LLM searches the index itself (as
   * {@code principal}, up to {@link AgenticAnswerer.Budget#DEFAULT} searches) before answering;
   * its searches are in {@code diagnostics().agentTrace()}.
   *
   * @throws IllegalStateException when no LLM endpoint is configured
   */
  public Answer askAgent(String question, Principal principal, Answerer.Listener listener) {
    return agent().ask(query(question, principal, null), listener);
  }

  /** The default answerer: retrieve once, gate, generate, check. */
  public Answerer answerer() {
    return answerService;
  }

  /**
   * The tool-calling agent over this index.
   *
   * @throws IllegalStateException when no LLM endpoint is configured, naming the settings
   */
  public Answerer agent() {
    LlmConfig llm = settings.llm().orElseThrow(() -> new IllegalStateException(
        "the agent needs an LLM endpoint: set " + LlmConfig.ENV_BASE_URL + " and "
            + LlmConfig.ENV_MODEL + " (or llm.baseUrl and llm.model in the config)"));
    return new AgenticAnswerer(llm, retriever, settings.gate().threshold(),
        RefusalPolicy.DEFAULT, AgenticAnswerer.Budget.DEFAULT);
  }

  /**
   * Conversations answered by {@code answerer} and kept in this knowledge base's conversation
   * store; follow-ups are rewritten by the LLM when configured, else by key-term carry-over.
   */
  public ConversationService conversations(Answerer answerer) {
    return conversations(answerer, conversationStore);
  }

  /** As {@link #conversations(Answerer)}, with the turns kept in {@code store}. */
  public ConversationService conversations(Answerer answerer, ConversationStore store) {
    QuestionRewriter rewriter = settings.llm().<QuestionRewriter>map(LlmQuestionRewriter::new)
        .orElseGet(KeyTermCarryOver::new);
    // earlier turns from documents the asker can no longer read never reach the rewriter
    return new ConversationService(answerer, rewriter, store, new TurnAccess(this.store));
  }

  /** Id of the generator answers are written by ({@code extractive} or the LLM model). */
  public String generatorId() {
    return generator.id();
  }

  /** The hybrid retriever with the configured fusion and reranking stage. */
  public Retriever retriever() {
    return retriever;
  }

  /**
   * The primary embedding model, which embeds every chunk and question (gate 1's cosine); see
   * {@link #routes()} for the English route.
   */
  public Embedder embedder() {
    return routes.primary();
  }

  /** The embedding models by language, as this engine ingests and searches (evaluation variants). */
  public DenseRoutes routes() {
    return routes;
  }

  /**
   * What {@link #optimize} did.
   *
   * @param segmentsBefore index segments before the merge (each with an HNSW graph of its own)
   * @param segmentsAfter  segments after it, ≤ the requested maximum
   * @param chunks         chunks in the index (unchanged by the merge)
   * @param seconds        wall time of the merge and its commit
   */
  public record OptimizeResult(int segmentsBefore, int segmentsAfter, long chunks,
      double seconds) {}

  /**
   * Force-merges the embedded Lucene index down to at most {@code maxSegments} segments and
   * commits ({@code openbook optimize}): after a bulk ingest, fewer segments mean fewer HNSW
   * graphs per dense search, so a faster dense route. An explicit step rather than part of every
   * ingest: it rewrites the whole index (37 minutes for 200k chunks on the loaded 2-core
   * machine), and on a corpus full of near-duplicate passages the one merged graph found fewer
   * of the true neighbours (docs/PERFORMANCE.md, section 5b). Needs the {@link Mode#WRITE} lock.
   *
   * @param maxSegments ≥ 1 (1 for a read-mostly index)
   * @throws UnsupportedOperationException for a SolrCloud store (Solr merges on its own)
   * @throws IllegalStateException if the engine was opened {@link Mode#READ}
   * @throws IllegalArgumentException if {@code maxSegments < 1}
   * @throws IOException if the merge fails (the index keeps its last commit)
   */
  public OptimizeResult optimize(int maxSegments) throws IOException {
    if (!(store instanceof LuceneChunkStore lucene)) {
      throw new UnsupportedOperationException("optimize applies to the embedded Lucene index;"
          + " a SolrCloud collection merges its segments itself");
    }
    if (cache == null) {
      throw new IllegalStateException("optimize needs the index opened for writing");
    }
    long t0 = System.nanoTime();
    int before = lucene.segmentCount();
    lucene.forceMerge(maxSegments);
    return new OptimizeResult(before, lucene.segmentCount(), lucene.count(),
        (System.nanoTime() - t0) / 1e9);
  }

  /** The store (embedded Lucene or SolrCloud), for callers that need a capability directly. */
  public IndexStore store() {
    return store;
  }

  /** Chunks in the index. */
  public long count() throws IOException {
    return store.count();
  }

  @Override
  public void close() throws IOException {
    try {
      if (cache != null) {
        cache.close();
      }
      if (reranker instanceof AutoCloseable c) {
        c.close();
      }
    } catch (IOException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IOException("closing the reranker failed: " + e.getMessage(), e);
    } finally {
      store.close();
    }
  }

  /** Builds an {@link OpenBook}; every setting but the index has a default. */
  public static final class Builder {
    private Path index;
    private OpenBookConfig config = OpenBookConfig.defaults();
    private Map<String, String> env = System.getenv();
    private Embedder embedder;
    private DenseRoutes routes;
    private Generator generator;
    private ConversationStore conversations;
    private Mode mode = Mode.READ;

    private Builder() {}

    /**
     * The index folder: the Lucene index itself, or with {@code store: solr} only local state
     * (the embedding cache, conversations). Required.
     */
    public Builder index(Path index) {
      this.index = Objects.requireNonNull(index, "index");
      return this;
    }

    /** The configuration as read from YAML ({@code ConfigLoader}); default: all defaults. */
    public Builder config(OpenBookConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      return this;
    }

    /** The environment the LLM and Solr password variables are read from; default the process's. */
    public Builder environment(Map<String, String> env) {
      this.env = Map.copyOf(env);
      return this;
    }

    /**
     * One embedding model for every text, with no English route (tests, custom models); default
     * {@link DenseRoutes#defaults()}. It must match the index's. Questions reach it as they are
     * ({@code embedding.queryInstruction} applies to the default models only).
     */
    public Builder embedder(Embedder embedder) {
      this.embedder = embedder;
      return this;
    }

    /**
     * The embedding models by language (overrides {@link #embedder}); default
     * {@link DenseRoutes#defaults()}: bge-small-zh-v1.5 for every text, bge-small-en-v1.5 in
     * addition for English. They must match the index's (the manifest records every model).
     * Used as given, with their own {@link DenseRoutes#withQueryInstructions query instructions}
     * ({@code embedding.queryInstruction} applies to the default models only).
     */
    public Builder routes(DenseRoutes routes) {
      this.routes = routes;
      return this;
    }

    /** The generator; default the configured LLM, else extractive answers. */
    public Builder generator(Generator generator) {
      this.generator = generator;
      return this;
    }

    /** Where conversations are kept; default one JSON file each under the index folder. */
    public Builder conversations(ConversationStore conversations) {
      this.conversations = conversations;
      return this;
    }

    /** Read (default), write or reset. */
    public Builder mode(Mode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Opens the knowledge base.
     *
     * @throws IllegalStateException    if no index folder was given
     * @throws IllegalArgumentException naming the configuration key that is invalid
     * @throws IndexMismatchException   if the index was built with another model, analyzer or
     *     chunker (the message says how to rebuild)
     * @throws IOException if the index is missing ({@link Mode#READ}), locked by another ingest,
     *     or the SolrCloud collection cannot be reached
     */
    public OpenBook build() throws IOException {
      if (index == null) {
        throw new IllegalStateException("OpenBook.builder(): index(Path) is required");
      }
      return new OpenBook(this);
    }
  }
}
