package org.openbook.engine.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.answer.EvidenceGate;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.document.DocumentReader;
import org.openbook.ingest.IngestOptions;
import org.openbook.llm.LlmConfig;
import org.openbook.retrieve.Fusion;
import org.openbook.retrieve.MinMaxFusion;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.RrfFusion;
import org.openbook.solr.SolrFailurePolicy;
import org.openbook.index.HnswGraph;
import org.openbook.index.VectorEncoding;
import org.openbook.solr.SolrStoreConfig;
import org.openbook.solr.SolrTls;

/**
 * Settings as read from {@code openbook.yaml} (or given to the builder): every field is optional
 * and may be null. {@link #resolve} turns them into the {@link Settings} in force, the only place
 * defaults are filled in. See the README's configuration reference.
 *
 * @param principals principal name → departments it may read ({@code public} is always added)
 * @param chunking   chunk budget
 * @param retrieval  top-k, fetch-k and fusion settings
 * @param gate       refusal gate settings
 * @param ingest     ingest limits
 * @param llm        OpenAI-compatible endpoint; environment variables override it
 * @param server     {@code openbook serve}: bearer tokens, writers, request limits
 * @param store      where the index lives: embedded Lucene (default) or a SolrCloud collection
 * @param rerank     the reranking stage between fusion and generation (default: none)
 * @param access     folder-level department rules ({@code access: {folders: {hr/: [hr]}}})
 * @param analysis   text analysis: the BM25 analyzer and the user's synonym file
 * @param embedding  the embedding models: query instructions and, per route, the provider
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record OpenBookConfig(
    @JsonProperty("principals") Map<String, List<String>> principals,
    @JsonProperty("chunking") Chunking chunking,
    @JsonProperty("retrieval") Retrieval retrieval,
    @JsonProperty("gate") Gate gate,
    @JsonProperty("ingest") Ingest ingest,
    @JsonProperty("llm") Llm llm,
    @JsonProperty("server") Server server,
    @JsonProperty("store") Store store,
    @JsonProperty("rerank") Rerank rerank,
    @JsonProperty("access") Access access,
    @JsonProperty("analysis") Analysis analysis,
    @JsonProperty("embedding") Embedding embedding) {

  public OpenBookConfig {
    principals = principals == null ? Map.of() : new LinkedHashMap<>(principals);
    chunking = chunking == null ? new Chunking(null, null, null, null) : chunking;
    retrieval = retrieval == null
        ? new Retrieval(null, null, null, null, null, null, null, null) : retrieval;
    gate = gate == null ? new Gate(null) : gate;
    ingest = ingest == null ? new Ingest(null, null, null) : ingest;
    access = access == null ? new Access(null, null) : access;
    llm = llm == null ? new Llm(null, null, null, null) : llm;
    server = server == null
        ? new Server(null, null, null, null, null, null, null, null, null) : server;
    store = store == null ? Store.LUCENE : store;
    rerank = rerank == null ? Rerank.NONE : rerank;
    analysis = analysis == null ? new Analysis(null, null) : analysis;
    embedding = embedding == null ? new Embedding(null) : embedding;
  }

  /** A configuration without an embedding section. */
  public OpenBookConfig(Map<String, List<String>> principals, Chunking chunking,
      Retrieval retrieval, Gate gate, Ingest ingest, Llm llm, Server server, Store store,
      Rerank rerank, Access access, Analysis analysis) {
    this(principals, chunking, retrieval, gate, ingest, llm, server, store, rerank, access,
        analysis, null);
  }

  /** A configuration without rerank, access or analysis sections. */
  public OpenBookConfig(Map<String, List<String>> principals, Chunking chunking,
      Retrieval retrieval, Gate gate, Ingest ingest, Llm llm, Server server, Store store) {
    this(principals, chunking, retrieval, gate, ingest, llm, server, store, null, null, null);
  }

  /**
   * This configuration with relative file paths ({@code analysis.synonyms}) resolved against
   * {@code dir}, the folder of the configuration file.
   */
  public OpenBookConfig withPathsRelativeTo(Path dir) {
    String syn = analysis.synonyms();
    if (syn == null || syn.isBlank() || dir == null || Path.of(syn).isAbsolute()) {
      return this;
    }
    return new OpenBookConfig(principals, chunking, retrieval, gate, ingest, llm, server, store,
        rerank, access,
        new Analysis(dir.resolve(syn).normalize().toString(), analysis.analyzer()), embedding);
  }

  /**
   * Folder-level access: every file under a folder (path relative to the documents folder, e.g.
   * {@code hr/}) belongs to the one department listed for it; front matter that names another
   * department makes the file a conflict, skipped (see {@link org.openbook.document.FolderAccess}).
   *
   * @param uploadsOnlyInRuledFolders {@code access.uploadsOnlyInRuledFolders}, default false:
   *     when true, {@code POST /v1/documents} takes files only into folders a rule covers, so a
   *     writer can never learn that a name is taken by a document it may not read
   */
  public record Access(@JsonProperty("folders") Map<String, List<String>> folders,
      @JsonProperty("uploadsOnlyInRuledFolders") Boolean uploadsOnlyInRuledFolders) {
    public Access {
      folders = folders == null ? Map.of() : new LinkedHashMap<>(folders);
    }

    /**
     * The rules.
     *
     * @throws IllegalArgumentException naming the folder when a rule is not one department
     */
    public org.openbook.document.FolderAccess rules() {
      return new org.openbook.document.FolderAccess(folders,
          Boolean.TRUE.equals(uploadsOnlyInRuledFolders));
    }
  }

  /** All defaults, no principals but the anonymous one. */
  public static OpenBookConfig defaults() {
    return new OpenBookConfig(null, null, null, null, null, null, null, null, null, null, null,
        null);
  }

  /**
   * This configuration with every default filled in and the environment applied: the one place
   * defaults live. Environment variables {@code OPENBOOK_LLM_BASE_URL}, {@code OPENBOOK_LLM_MODEL},
   * {@code OPENBOOK_LLM_API_KEY} override the {@code llm} section and
   * {@code OPENBOOK_SOLR_PASSWORD} the Solr password.
   *
   * @param env the environment ({@code System.getenv()} outside tests)
   * @return the settings in force, no nulls
   * @throws IllegalArgumentException naming the key whose value is invalid (a fusion name other
   *     than {@code rrf}/{@code minmax}, {@code llm.model} missing while {@code llm.baseUrl} is
   *     set, a Solr store without {@code solrUrls} or {@code zkHosts}, ...)
   */
  public Settings resolve(Map<String, String> env) {
    Map<String, Set<String>> depts = new LinkedHashMap<>();
    principals.forEach((name, list) -> depts.put(name, Settings.departments(list)));
    return new Settings(depts, chunking.settings(), retrieval.resolve(),
        gate.resolve(),
        ingest.resolve(), llm.resolve(env), server.resolve(), store.resolve(env),
        rerank.resolve(env), access.rules(),
        Optional.ofNullable(analysis.synonyms()).filter(p -> !p.isBlank()).map(Path::of),
        analysis.resolveAnalyzer(), analysis.named(), embedding.resolve(env));
  }

  /**
   * {@code embedding}: the dense models' query side and, per route, their provider.
   *
   * @param queryInstruction per model, a text prepended to every question before that model
   *     embeds it (never to chunks): {@code zh} for bge-small-zh-v1.5 (every question), {@code en}
   *     for bge-small-en-v1.5 (English questions). {@value #MODEL_CARD} stands for the model
   *     card's instruction ({@link org.openbook.embed.BgeSmallZhEmbedder#QUERY_INSTRUCTION},
   *     {@link org.openbook.embed.BgeSmallEnEmbedder#QUERY_INSTRUCTION}), an empty string for
   *     none; default none for both ({@link #DEFAULT_ZH}, {@link #DEFAULT_EN}, measured in
   *     docs/BENCHMARKS.md, "Query instruction"). Changing it needs no re-ingest (chunk vectors
   *     do not depend on it) but moves every question's cosine, so gate 1's {@code
   *     gate.threshold} was chosen for the default (0.512 by the same rule with the zh model
   *     card's instruction). It applies to the dense route (and so gate 1); gate 2 and sentence
   *     choice compare the plain question with sentences.
   * @param routes per dense route ({@code zh}: the primary field, {@code en}: the English one),
   *     where its vectors come from ({@link EmbeddingRouteConfig}); a route not listed is the
   *     in-process ONNX model, as before
   */
  public record Embedding(@JsonProperty("queryInstruction") Map<String, String> queryInstruction,
      @JsonProperty("routes") Map<String, EmbeddingRouteConfig> routes) {

    /** An embedding section with in-process models on both routes. */
    public Embedding(Map<String, String> queryInstruction) {
      this(queryInstruction, null);
    }

    /** Value meaning "the model card's instruction". */
    public static final String MODEL_CARD = "model-card";
    /** bge-small-zh's query instruction when the config names none. */
    public static final String DEFAULT_ZH = "";
    /** bge-small-en's query instruction when the config names none. */
    public static final String DEFAULT_EN = "";

    public Embedding {
      queryInstruction =
          queryInstruction == null ? Map.of() : new LinkedHashMap<>(queryInstruction);
      routes = routes == null ? Map.of() : new LinkedHashMap<>(routes);
    }

    /**
     * @throws IllegalArgumentException naming {@code embedding.queryInstruction} when it has a
     *     key other than {@code zh} and {@code en}
     */
    Settings.Embedding resolve(Map<String, String> env) {
      for (String key : queryInstruction.keySet()) {
        if (!key.equals("zh") && !key.equals("en")) {
          throw new IllegalArgumentException("embedding.queryInstruction has keys zh and en "
              + "(one per model), not '" + key + "'");
        }
      }
      for (String key : routes.keySet()) {
        if (!key.equals("zh") && !key.equals("en")) {
          throw new IllegalArgumentException("embedding.routes has keys zh and en (one per "
              + "dense route), not '" + key + "'");
        }
      }
      return new Settings.Embedding(
          instruction(queryInstruction.getOrDefault("zh", DEFAULT_ZH),
              org.openbook.embed.BgeSmallZhEmbedder.QUERY_INSTRUCTION),
          instruction(queryInstruction.getOrDefault("en", DEFAULT_EN),
              org.openbook.embed.BgeSmallEnEmbedder.QUERY_INSTRUCTION),
          route("zh", env), route("en", env));
    }

    private EmbeddingRoute route(String name, Map<String, String> env) {
      EmbeddingRouteConfig c = routes.get(name);
      return c == null ? EmbeddingRoute.onnx(name) : c.resolve(name, env);
    }

    private static String instruction(String value, String modelCard) {
      return value == null ? "" : value.equals(MODEL_CARD) ? modelCard : value;
    }
  }

  /**
   * Chunk budget in chars and rows per chunk of a long table (0 = no limit); defaults from
   * {@link ChunkerSettings#DEFAULT}.
   */
  public record Chunking(Integer maxChars, Integer overlapChars, Integer maxPrefixChars,
      Integer tableRowsPerChunk) {
    public ChunkerSettings settings() {
      ChunkerSettings d = ChunkerSettings.DEFAULT;
      return new ChunkerSettings(
          maxChars == null ? d.maxChars() : maxChars,
          overlapChars == null ? d.overlapChars() : overlapChars,
          maxPrefixChars == null ? d.maxPrefixChars() : maxPrefixChars,
          tableRowsPerChunk == null ? d.tableRowsPerChunk() : tableRowsPerChunk);
    }
  }

  /**
   * Retrieval settings.
   *
   * @param topK         hits returned / sources given to the generator (default 5)
   * @param fetchK       candidates per route before fusion (default 50)
   * @param rrfK         RRF constant (default 60, Cormack et al. 2009)
   * @param denseWeight  RRF weight of the dense route (default 1.0)
   * @param sparseWeight RRF weight of the BM25 route (default 1.0)
   * @param fusion       {@code rrf} or {@code minmax} (normalised-score fusion); see
   *                     docs/BENCHMARKS.md for the measurement behind the default
   * @param denseMinSpread min-max only: least width of the dense route's scale, in cosine
   *                     units (see {@link org.openbook.retrieve.MinMaxFusion})
   * @param sparseMinShare min-max only: least width of the BM25 route's scale, as a share of the
   *                     query's maximum attainable BM25 score
   */
  public record Retrieval(
      Integer topK, Integer fetchK, Double rrfK, Double denseWeight, Double sparseWeight,
      String fusion, Double denseMinSpread, Double sparseMinShare) {
    /** Hits returned when neither {@code -k} nor the config says. */
    public static final int DEFAULT_TOP_K = 5;
    /** Fusion when the config names none; chosen on the evaluation sets (docs/BENCHMARKS.md). */
    public static final String DEFAULT_FUSION = "minmax";
    /**
     * Min-max weights when the config gives none: dense 0.3 / BM25 0.7, best or within 0.4
     * points of R@1 of the best weight on CMRC 2018, DRCD, XQuAD zh and XQuAD en
     * (docs/BENCHMARKS.md, "Fusion comparison"); equal weights lose 2.6 (DRCD) and 7.1 (XQuAD
     * en) points of R@1. The BM25 scale spans at least 0.1 × the query's maximum attainable BM25
     * score, so a lone weak BM25 match cannot take the full weight (R35); 0.1 equals plain
     * min-max on XQuAD en (R@1 0.933, MRR@10 0.957) where 0.2 loses 0.4 points
     * (docs/BENCHMARKS.md, "Normalisation, identifier parts and minimum-spread fusion").
     */
    public static final MinMaxFusion DEFAULT_MINMAX = new MinMaxFusion(0.3, 0.7, 0, 0.1);

    Settings.Retrieval resolve() {
      int k = topK == null ? DEFAULT_TOP_K : topK;
      int fetch = fetchK == null ? Query.DEFAULT_FETCH_K : fetchK;
      if (k < 1 || fetch < 1) {
        throw new IllegalArgumentException("retrieval.topK and retrieval.fetchK must be >= 1, got "
            + k + " and " + fetch);
      }
      return new Settings.Retrieval(k, Math.max(k, fetch), resolveFusion());
    }

    /**
     * {@code rrf} or {@code minmax} (default {@value #DEFAULT_FUSION}); min-max weights default
     * to {@link #DEFAULT_MINMAX}, RRF weights to equal and its k to 60.
     */
    private Fusion resolveFusion() {
      String name = fusion == null ? DEFAULT_FUSION : fusion;
      return switch (name) {
        case "rrf" -> new RrfFusion(rrfK == null ? RrfFusion.DEFAULT.k() : rrfK,
            denseWeight == null ? 1.0 : denseWeight, sparseWeight == null ? 1.0 : sparseWeight);
        case "minmax" -> new MinMaxFusion(
            denseWeight == null ? DEFAULT_MINMAX.denseWeight() : denseWeight,
            sparseWeight == null ? DEFAULT_MINMAX.sparseWeight() : sparseWeight,
            denseMinSpread == null ? DEFAULT_MINMAX.denseMinSpread() : denseMinSpread,
            sparseMinShare == null ? DEFAULT_MINMAX.sparseMinShare() : sparseMinShare);
        default -> throw new IllegalArgumentException(
            "retrieval.fusion must be 'rrf' or 'minmax', got '" + name + "'");
      };
    }
  }

  /**
   * Gate 1 (see {@code org.openbook.answer.EvidenceGate}): refuse without calling the generator
   * unless the best dense cosine reaches {@code threshold} or a passage matches the question's
   * key terms lexically.
   *
   * @param threshold        dense cosine threshold (default {@value #DEFAULT_THRESHOLD})
   * @param lexicalThreshold IDF-weighted key-term share a passage must reach (default 0.8);
   *                         above 1 switches the lexical share off (identifier matches still
   *                         count)
   * @param lexical          false restores the dense-only rule (default true)
   */
  public record Gate(Double threshold, Double lexicalThreshold, Boolean lexical) {
    /**
     * Gate-1 threshold on the best dense cosine (bge-small-zh-v1.5) of the top-k sources when
     * the config sets none. Chosen on the CMRC 2018 hold-out (every 10th paragraph left out of
     * the index: 324 unanswerable, 2,895 answerable questions; {@code SquadBenchmark --holdout
     * 10}) with the two-signal rule at lexical share 0.8, on a 0.002 grid: the threshold with
     * the fewest false refusals (41, 1.4 %) whose refusal recall is no lower than the dense-only
     * rule's at the former default 0.53 (171 of 324, 0.528). 0.554–0.566 all keep recall
     * ≥ 0.528 at ≤ 2 % false refusals; 0.552 refuses one unanswerable question fewer; bug case
     * R35's paraphrase question (班车 for 通勤巴士) scores 0.558, so 0.56 would refuse it.
     * kb-demo, the office fixture and RGB were checked, not used to choose: see
     * docs/BENCHMARKS.md, "Gate 1 with two signals".
     */
    public static final double DEFAULT_THRESHOLD = 0.554;

    /** Only the dense threshold. */
    public Gate(Double threshold) {
      this(threshold, null, null);
    }

    Settings.Gate resolve() {
      return new Settings.Gate(threshold == null ? DEFAULT_THRESHOLD : threshold,
          lexicalThreshold == null ? EvidenceGate.DEFAULT_LEXICAL_THRESHOLD : lexicalThreshold,
          !Boolean.FALSE.equals(lexical));
    }
  }

  /**
   * Text analysis.
   *
   * @param synonyms path of a synonym file in the Solr/Elasticsearch format (relative to the
   *                 config file), applied to BM25 queries and to gate 2's key-term coverage;
   *                 re-read whenever an engine opens (ingest, serve, search, ask); null for none
   * @param analyzer how the BM25 route tokenises Han text: {@code unigram_bigram} (default),
   *                 {@code cjk_bigram} or {@code smartcn} ({@link OpenBookAnalysis.Strategy});
   *                 index-time and query-time alike, so it is recorded in the index manifest
   *                 and an index built with another analyzer is refused until rebuilt with
   *                 {@code --reset}; when it is not named, an existing index keeps the analyzer
   *                 it was built with
   */
  public record Analysis(String synonyms, String analyzer) {

    /**
     * The BM25 analyzer when the config names none: every Han character plus the overlapping
     * bigrams, the unigrams and bigrams of a run sharing the weight of its bigrams in a query
     * ({@link org.openbook.analysis.QueryTerms}). Level or better than character bigrams under
     * the shipped fusion on all four public sets (full sets) and on kb-demo's identifier
     * questions (docs/BENCHMARKS.md, "Default analyzer, on the full sets").
     */
    public static final OpenBookAnalysis.Strategy DEFAULT_ANALYZER =
        OpenBookAnalysis.Strategy.UNIGRAM_BIGRAM;

    /** Only a synonym file; the default analyzer. */
    public Analysis(String synonyms) {
      this(synonyms, null);
    }

    /** Whether {@code analysis.analyzer} is given (not absent or blank). */
    boolean named() {
      return analyzer != null && !analyzer.isBlank();
    }

    OpenBookAnalysis.Strategy resolveAnalyzer() {
      if (!named()) {
        return DEFAULT_ANALYZER;
      }
      try {
        return OpenBookAnalysis.Strategy.valueOf(analyzer.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("analysis.analyzer must be one of "
            + Arrays.stream(OpenBookAnalysis.Strategy.values())
                .map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "))
            + ", got '" + analyzer + "'");
      }
    }
  }

  /**
   * Ingest limits and loader options; a file over a limit is skipped and reported, never
   * truncated.
   *
   * @param maxFileBytes          largest file in bytes (default 50 MiB)
   * @param maxChunksPerDocument  most chunks one document may yield (default 10,000)
   * @param commitEvery           changed documents between intermediate commits (default 200)
   * @param ocr                   {@code auto} (default: OCR scanned PDF pages and images when the
   *                              {@code tesseract} binary is found) or {@code off}
   * @param ocrLanguages          Tesseract models, default {@code chi_sim+eng}
   * @param ocrDpi                render resolution of PDF pages for OCR, default 300
   * @param ocrMaxPages           most pages OCR'd per file, default 200
   * @param ocrPageTimeoutSeconds longest OCR time per page, default 120
   * @param hiddenSheets          {@code skip} (default) or {@code include}: hidden sheets, rows
   *                              and columns of spreadsheets
   * @param maxInflatedBytes      bytes a zip-based file may inflate to (default 100 MiB; see
   *                              {@link org.openbook.document.LoadLimits})
   * @param maxXmlNodes           XML elements plus attributes per file (default 4,000,000)
   * @param maxOcrPagePixels      pixels of one page rendered for OCR (default 40,000,000)
   * @param maxOcrPixels          pixels rendered for OCR per file (default 2,000,000,000)
   * @param ocrTimeoutSeconds     OCR time per file (default 600)
   */
  public record Ingest(Long maxFileBytes, Integer maxChunksPerDocument, Integer commitEvery,
      String ocr, String ocrLanguages, Integer ocrDpi, Integer ocrMaxPages,
      Integer ocrPageTimeoutSeconds, String hiddenSheets, Long maxInflatedBytes,
      Long maxXmlNodes, Long maxOcrPagePixels, Long maxOcrPixels, Integer ocrTimeoutSeconds) {

    /** Limits only; loader options at their defaults. */
    public Ingest(Long maxFileBytes, Integer maxChunksPerDocument, Integer commitEvery) {
      this(maxFileBytes, maxChunksPerDocument, commitEvery, null, null, null, null, null, null);
    }

    /** Without the per-file resource limits (all at their defaults). */
    public Ingest(Long maxFileBytes, Integer maxChunksPerDocument, Integer commitEvery,
        String ocr, String ocrLanguages, Integer ocrDpi, Integer ocrMaxPages,
        Integer ocrPageTimeoutSeconds, String hiddenSheets) {
      this(maxFileBytes, maxChunksPerDocument, commitEvery, ocr, ocrLanguages, ocrDpi,
          ocrMaxPages, ocrPageTimeoutSeconds, hiddenSheets, null, null, null, null, null);
    }

    /**
     * The loader options.
     *
     * @throws IllegalArgumentException naming the key when a value is out of range or unknown
     */
    Settings.Ingest resolve() {
      return new Settings.Ingest(
          maxFileBytes == null ? DocumentReader.DEFAULT_MAX_BYTES : maxFileBytes,
          maxChunksPerDocument == null
              ? IngestOptions.DEFAULT_MAX_CHUNKS_PER_DOCUMENT : maxChunksPerDocument,
          commitEvery == null ? IngestOptions.DEFAULT_COMMIT_EVERY : commitEvery,
          loaderSettings());
    }

    private org.openbook.document.LoadLimits limits() {
      var d = org.openbook.document.LoadLimits.DEFAULTS;
      return new org.openbook.document.LoadLimits(
          maxInflatedBytes == null ? d.maxInflatedBytes() : maxInflatedBytes,
          maxXmlNodes == null ? d.maxXmlNodes() : maxXmlNodes,
          maxOcrPagePixels == null ? d.maxOcrPagePixels() : maxOcrPagePixels,
          maxOcrPixels == null ? d.maxOcrPixels() : maxOcrPixels,
          ocrTimeoutSeconds == null ? d.ocrTimeout()
              : java.time.Duration.ofSeconds(ocrTimeoutSeconds));
    }

    private org.openbook.document.LoaderSettings loaderSettings() {
      var d = org.openbook.document.ocr.OcrSettings.DEFAULTS;
      var mode = switch (ocr == null ? "auto" : ocr.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "auto" -> org.openbook.document.ocr.OcrSettings.Mode.AUTO;
        case "off", "false" -> org.openbook.document.ocr.OcrSettings.Mode.OFF;
        default -> throw new IllegalArgumentException(
            "ingest.ocr must be auto or off, got '" + ocr + "'");
      };
      boolean include = switch (hiddenSheets == null ? "skip"
          : hiddenSheets.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "skip" -> false;
        case "include" -> true;
        default -> throw new IllegalArgumentException(
            "ingest.hiddenSheets must be skip or include, got '" + hiddenSheets + "'");
      };
      try {
        return new org.openbook.document.LoaderSettings(include,
            new org.openbook.document.ocr.OcrSettings(mode,
                ocrLanguages == null ? d.languages() : ocrLanguages,
                ocrDpi == null ? d.dpi() : ocrDpi,
                ocrMaxPages == null ? d.maxPages() : ocrMaxPages,
                ocrPageTimeoutSeconds == null ? d.pageTimeout()
                    : java.time.Duration.ofSeconds(ocrPageTimeoutSeconds),
                d.binary()), limits());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("ingest: " + e.getMessage(), e);
      }
    }
  }

  /**
   * OpenAI-compatible endpoint. The key is best given by environment variable.
   *
   * @param baseUrl        e.g. {@code https://api.deepseek.com/v1}
   * @param model          model name
   * @param apiKey         API key (prefer the environment variable)
   * @param timeoutSeconds request timeout
   */
  public record Llm(String baseUrl, String model, String apiKey, Integer timeoutSeconds) {
    /** The endpoint: the environment's when set, else this section's, else none. */
    Optional<LlmConfig> resolve(Map<String, String> env) {
      var fromEnv = LlmConfig.fromEnvironment(env);
      if (fromEnv.isPresent()) {
        return fromEnv;
      }
      if (baseUrl == null || baseUrl.isBlank()) {
        return Optional.empty();
      }
      if (model == null || model.isBlank()) {
        throw new IllegalArgumentException("config llm.model is required when llm.baseUrl is set");
      }
      return Optional.of(new LlmConfig(baseUrl, env.getOrDefault(LlmConfig.ENV_API_KEY, apiKey),
          model, timeoutSeconds == null ? LlmConfig.DEFAULT_TIMEOUT_SECONDS : timeoutSeconds));
    }
  }

  /**
   * The HTTP server ({@code openbook serve}). Every field is optional.
   *
   * @param tokens          bearer token → principal name (a key of {@code principals}, or a name
   *                        with no entry there, which reads {@code public} only); no tokens means
   *                        every {@code /v1} request is refused with 401; a name may not start
   *                        with {@code oidc:}, the namespace of token identities
   * @param writers         static principal names (of {@code tokens}) allowed to upload and
   *                        delete documents (default none); token (OIDC) users are granted by
   *                        {@code oidc.writers}, never by a name here
   * @param docsDir         folder the server keeps the corpus in; uploads are written there and
   *                        ingested from there (default: {@code <index>-docs} beside the index)
   * @param maxBodyBytes    largest JSON request body in bytes (default 65536)
   * @param maxUploadBytes  largest upload request in bytes, all files together (default 20 MiB)
   * @param maxK            largest {@code k} a request may ask for (default 50)
   * @param auditLog        file the audit lines are appended to; default: the
   *                        {@code openbook.audit} logger only
   * @param dataDir         folder for conversations and feedback (default: {@code <docs>-data}
   *                        beside the docs folder)
   * @param oidc            OIDC/JWT bearer tokens from an identity provider, or none
   * @param bodyTimeoutSeconds        longest a request body may take (default 30; see
   *                                  {@link ServerLimits})
   * @param minBodyBytesPerSecond     slowest accepted body rate (default 256; 0 = off)
   * @param maxConcurrentPerPrincipal requests in flight per principal (default 8)
   * @param quotas                    stored conversations, turns, ratings and jobs per principal
   */
  public record Server(
      Map<String, String> tokens,
      List<String> writers,
      String docsDir,
      Long maxBodyBytes,
      Long maxUploadBytes,
      Integer maxK,
      String auditLog,
      String dataDir,
      Oidc oidc,
      Integer bodyTimeoutSeconds,
      Long minBodyBytesPerSecond,
      Integer maxConcurrentPerPrincipal,
      ServerLimits.Quotas quotas) {

    /** Default largest JSON body: questions are short, 64 KiB is generous. */
    public static final long DEFAULT_MAX_BODY_BYTES = 64 * 1024;
    /** Default largest upload request. */
    public static final long DEFAULT_MAX_UPLOAD_BYTES = 20L * 1024 * 1024;
    /** Default largest k. */
    public static final int DEFAULT_MAX_K = 50;

    public Server {
      tokens = tokens == null ? Map.of() : Map.copyOf(tokens);
      writers = writers == null ? List.of() : List.copyOf(writers);
    }

    /** A server section with every limit at its default. */
    public Server(Map<String, String> tokens, List<String> writers, String docsDir,
        Long maxBodyBytes, Long maxUploadBytes, Integer maxK, String auditLog, String dataDir,
        Oidc oidc) {
      this(tokens, writers, docsDir, maxBodyBytes, maxUploadBytes, maxK, auditLog, dataDir, oidc,
          null, null, null, null);
    }

    Settings.Server resolve() {
      int k = maxK == null ? DEFAULT_MAX_K : maxK;
      if (k < 1) {
        throw new IllegalArgumentException("server.maxK must be >= 1, got " + k);
      }
      return new Settings.Server(tokens, Set.copyOf(writers),
          Optional.ofNullable(docsDir).map(Path::of),
          maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes,
          maxUploadBytes == null ? DEFAULT_MAX_UPLOAD_BYTES : maxUploadBytes, k,
          Optional.ofNullable(auditLog).map(Path::of),
          Optional.ofNullable(dataDir).map(Path::of), Optional.ofNullable(oidc),
          ServerLimits.resolve(bodyTimeoutSeconds, minBodyBytesPerSecond,
              maxConcurrentPerPrincipal, quotas));
    }
  }

  /**
   * OIDC / JWT access tokens ({@code server.oidc}). A token is accepted when its signature
   * verifies against a key of the issuer's JWKS (RS256/ES256 only), {@code iss} equals
   * {@code issuer}, {@code aud} contains {@code audience}, {@code sub} is present, and
   * {@code exp}/{@code nbf} hold within {@code clockSkewSeconds}.
   *
   * <p>A token's identity lives in its own namespace: the principal id is
   * {@code oidc:<issuer>#<sub>} (a {@code #} or {@code %} in the issuer percent-encoded), which
   * never equals a name of {@code server.tokens} or {@code server.writers}; the claim
   * {@code principalClaim} only gives the display name. Departments come from {@code groups}
   * (claim value → departments; the {@code principals} table is not consulted for tokens), and
   * writing is granted only by {@code writers}.
   *
   * @param issuer           expected {@code iss}, required
   * @param audience         expected {@code aud}, required
   * @param jwksUri          URL of the issuer's JSON Web Key Set, required
   * @param claim            claim holding the caller's groups (default {@code groups}), a string
   *                         or a list; a Keycloak path {@code /finance-team} also matches
   *                         {@code finance-team}
   * @param principalClaim   claim giving the display name (default {@code preferred_username},
   *                         falling back to {@code sub}); never used to decide access
   * @param clockSkewSeconds tolerance for {@code exp}/{@code nbf} (default 60)
   * @param groups           group (a value of {@code claim}, matched exactly) → departments it
   *                         reads; an unlisted group adds nothing (default: none, so token users
   *                         read {@code public} only)
   * @param writers          who of this issuer may upload and delete (default: nobody)
   */
  public record Oidc(
      String issuer,
      String audience,
      String jwksUri,
      String claim,
      String principalClaim,
      Integer clockSkewSeconds,
      Map<String, List<String>> groups,
      Grant writers) {

    public Oidc {
      claim = claim == null || claim.isBlank() ? "groups" : claim;
      principalClaim = principalClaim == null || principalClaim.isBlank()
          ? "preferred_username" : principalClaim;
      clockSkewSeconds = clockSkewSeconds == null ? 60 : clockSkewSeconds;
      // a YAML entry without a list is a null value: kept here, refused with its key on use
      groups = groups == null ? Map.of()
          : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(groups));
      writers = writers == null ? Grant.NONE : writers;
    }

    /** A section without group departments or writers (token users read public, write nothing). */
    public Oidc(String issuer, String audience, String jwksUri, String claim,
        String principalClaim, Integer clockSkewSeconds) {
      this(issuer, audience, jwksUri, claim, principalClaim, clockSkewSeconds, null, null);
    }

    /**
     * A right granted to identities of the issuer explicitly: to every member of one of
     * {@code groups} (values of the group claim, matched exactly) and to each {@code sub} of
     * {@code subjects}. Names are never compared with static principals.
     *
     * @param groups   group claim values, exact
     * @param subjects {@code sub} claim values of this issuer, exact
     */
    public record Grant(List<String> groups, List<String> subjects) {
      /** Granted to nobody. */
      public static final Grant NONE = new Grant(null, null);

      public Grant {
        groups = groups == null ? List.of() : List.copyOf(groups);
        subjects = subjects == null ? List.of() : List.copyOf(subjects);
      }
    }
  }

  /**
   * The index backend. {@code type: lucene} (default) keeps the index in the {@code --index}
   * folder; {@code type: solr} keeps it in a SolrCloud collection, and {@code --index} then only
   * holds local state (the embedding cache). Give either {@code solrUrls} or {@code zkHosts}.
   *
   * @param type       {@code lucene} or {@code solr}
   * @param solrUrls   Solr base URLs of live nodes, e.g. {@code http://solr1:8983/solr}
   * @param zkHosts    ZooKeeper {@code host:port} entries (instead of {@code solrUrls})
   * @param zkChroot   ZooKeeper chroot such as {@code /solr}, or none
   * @param collection collection name (default {@value #DEFAULT_COLLECTION})
   * @param shards     shards when the collection is created (default 2)
   * @param replicas   NRT replicas per shard when the collection is created (default 1)
   * @param user       basic-auth user, or none
   * @param password   basic-auth password; the environment variable {@code
   *                   OPENBOOK_SOLR_PASSWORD} overrides it (prefer that)
   * @param partialResults whether a search may answer from the shards that are up when some
   *                   shard has no live replica, with {@code diagnostics.partialResults} and a
   *                   warning (default false: such a search fails naming the missing shard)
   * @param retries    retries of a request that failed transiently, e.g. while a node restarts
   *                   (default 5, 0..20)
   * @param retryBackoffMillis wait before the first retry, doubled each time up to 8 s
   *                   (default 500)
   * @param tls        trust store (and client key store) for {@code https} Solr nodes
   * @param lucene     settings of the embedded Lucene index ({@code store.lucene})
   */
  public record Store(
      String type,
      List<String> solrUrls,
      List<String> zkHosts,
      String zkChroot,
      String collection,
      Integer shards,
      Integer replicas,
      String user,
      String password,
      Boolean partialResults,
      Integer retries,
      Long retryBackoffMillis,
      Tls tls,
      Lucene lucene) {

    /** The embedded Lucene index, the default. */
    public static final Store LUCENE =
        new Store(null, null, null, null, null, null, null, null, null);

    /** A store section without failure or TLS settings (their defaults apply). */
    public Store(String type, List<String> solrUrls, List<String> zkHosts, String zkChroot,
        String collection, Integer shards, Integer replicas, String user, String password) {
      this(type, solrUrls, zkHosts, zkChroot, collection, shards, replicas, user, password,
          null, null, null, null, null);
    }

    /** A store section without {@code lucene} settings (their defaults apply). */
    public Store(String type, List<String> solrUrls, List<String> zkHosts, String zkChroot,
        String collection, Integer shards, Integer replicas, String user, String password,
        Boolean partialResults, Integer retries, Long retryBackoffMillis, Tls tls) {
      this(type, solrUrls, zkHosts, zkChroot, collection, shards, replicas, user, password,
          partialResults, retries, retryBackoffMillis, tls, null);
    }

    /** Collection name when the config names none. */
    public static final String DEFAULT_COLLECTION = "openbook";

    public Store {
      type = type == null ? "lucene" : type.trim().toLowerCase(java.util.Locale.ROOT);
      if (!type.equals("lucene") && !type.equals("solr")) {
        throw new IllegalArgumentException(
            "store.type must be 'lucene' or 'solr', got '" + type + "'");
      }
      solrUrls = solrUrls == null ? List.of() : List.copyOf(solrUrls);
      zkHosts = zkHosts == null ? List.of() : List.copyOf(zkHosts);
    }

    /** Whether the index is a SolrCloud collection. */
    public boolean isSolr() {
      return type.equals("solr");
    }

    /** Environment variable that overrides {@code store.password}. */
    public static final String PASSWORD_ENV = "OPENBOOK_SOLR_PASSWORD";
    /** Environment variable that overrides {@code store.tls.trustStorePassword}. */
    public static final String TRUSTSTORE_PASSWORD_ENV = "OPENBOOK_SOLR_TRUSTSTORE_PASSWORD";
    /** Environment variable that overrides {@code store.tls.keyStorePassword}. */
    public static final String KEYSTORE_PASSWORD_ENV = "OPENBOOK_SOLR_KEYSTORE_PASSWORD";

    /**
     * The backend in force: shards default to 2 and replicas to 1 (used only when the collection
     * is created); {@value #PASSWORD_ENV} overrides the password, {@value
     * #TRUSTSTORE_PASSWORD_ENV} and {@value #KEYSTORE_PASSWORD_ENV} the TLS store passwords;
     * {@code partialResults}, {@code retries} and {@code retryBackoffMillis} default to {@link
     * SolrFailurePolicy#DEFAULT}.
     *
     * @throws IllegalArgumentException naming the {@code store.*} key that is missing or invalid
     */
    public Settings.Store resolve(Map<String, String> env) {
      VectorEncoding encoding = VectorEncoding.parse(lucene == null ? null
          : lucene.vectorEncoding(), "config store.lucene.vectorEncoding");
      Hnsw h = lucene == null || lucene.hnsw() == null ? Hnsw.DEFAULT : lucene.hnsw();
      if (!isSolr()) {
        return new Settings.Store(Optional.empty(), encoding, h.graph(), h.candidates(),
            h.pruning());
      }
      if (encoding != VectorEncoding.FLOAT32) {
        throw new IllegalArgumentException("config store.lucene.vectorEncoding: "
            + encoding.id() + " applies to the embedded Lucene index only, not store.type solr");
      }
      if (h.m() != null || h.beamWidth() != null || h.efSearch() != null
          || h.crossSegmentPruning() != null) {
        throw new IllegalArgumentException("config store.lucene.hnsw applies to the embedded"
            + " Lucene index only, not store.type solr");
      }
      try {
        SolrFailurePolicy failures = SolrFailurePolicy.DEFAULT;
        if (retries != null || retryBackoffMillis != null) {
          failures = failures.withRetries(retries == null ? failures.retries() : retries,
              retryBackoffMillis == null ? failures.firstBackoff()
                  : java.time.Duration.ofMillis(retryBackoffMillis));
        }
        if (partialResults != null) {
          failures = failures.withPartialResults(partialResults);
        }
        SolrTls solrTls = tls == null ? SolrTls.NONE : new SolrTls(tls.trustStore(),
            env.getOrDefault(TRUSTSTORE_PASSWORD_ENV, tls.trustStorePassword()), tls.keyStore(),
            env.getOrDefault(KEYSTORE_PASSWORD_ENV, tls.keyStorePassword()));
        return new Settings.Store(Optional.of(new SolrStoreConfig(solrUrls, zkHosts, zkChroot,
            collection == null ? DEFAULT_COLLECTION : collection, shards == null ? 2 : shards,
            replicas == null ? 1 : replicas, user, env.getOrDefault(PASSWORD_ENV, password),
            solrTls, failures)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("config " + e.getMessage()
            .replace("solr store: ", "store: ")
            .replace("(solrUrls)", "(store.solrUrls)").replace("(zkHosts)", "(store.zkHosts)"), e);
      }
    }

    /** Hides the password. */
    @Override
    public String toString() {
      return "Store[type=" + type + ", solrUrls=" + solrUrls + ", zkHosts=" + zkHosts
          + ", collection=" + collection + ", shards=" + shards + ", replicas=" + replicas
          + (user == null ? "" : ", user=" + user) + (password == null ? "" : ", password=***")
          + (partialResults == null ? "" : ", partialResults=" + partialResults)
          + (tls == null ? "" : ", tls.trustStore=" + tls.trustStore())
          + (lucene == null ? "" : ", lucene=" + lucene) + "]";
    }
  }

  /**
   * {@code store.lucene}: the embedded Lucene index.
   *
   * @param vectorEncoding how the HNSW vectors are stored: {@code float32} (default), {@code
   *                       int8} or {@code int4} (scalar-quantized; see {@link VectorEncoding}).
   *                       Recorded in the index; changing it needs {@code --reset}.
   */
  public record Lucene(String vectorEncoding, Hnsw hnsw) {

    /** A {@code store.lucene} section without {@code hnsw} (its defaults apply). */
    public Lucene(String vectorEncoding) {
      this(vectorEncoding, null);
    }
  }

  /**
   * {@code store.lucene.hnsw}: the HNSW graphs of the embedded index. Defaults and the
   * measurement behind them: docs/PERFORMANCE.md, section 5 (200k chunks of the scale benchmark).
   *
   * @param m         graph M, maximum connections per node and layer (default {@value
   *                  #DEFAULT_M}, Lucene's); recorded in the index, applies to an index built
   *                  with {@code --reset}; 1..512
   * @param beamWidth candidates kept while inserting, efConstruction (default {@value
   *                  #DEFAULT_BEAM_WIDTH}, Lucene's); recorded like {@code m}; 1..3200
   * @param efSearch  candidates of every dense search (the k of Lucene's kNN query, efSearch):
   *                  max(fetch-k, efSearch) nearest neighbours are searched for, the best
   *                  fetch-k kept (default {@value #DEFAULT_EF_SEARCH}); ≥ 1; search time only
   * @param crossSegmentPruning whether the segments' graph searches share one top-k and stop
   *                  early against it (Lucene 9.10+'s behaviour) or each segment is searched
   *                  for its own top-k (default {@value #DEFAULT_CROSS_SEGMENT_PRUNING}); search
   *                  time only
   */
  public record Hnsw(Integer m, Integer beamWidth, Integer efSearch,
      Boolean crossSegmentPruning) {
    /** Lucene 9.12's {@code DEFAULT_MAX_CONN}. */
    public static final int DEFAULT_M = 16;
    /** Lucene 9.12's {@code DEFAULT_BEAM_WIDTH}. */
    public static final int DEFAULT_BEAM_WIDTH = 100;
    /** The dense search's candidates when the config gives none (docs/PERFORMANCE.md, 5). */
    public static final int DEFAULT_EF_SEARCH = 50;
    /**
     * Cross-segment pruning when the config says nothing: off. At 200k chunks in 22 segments it
     * lifted dense recall@10 with filter {@code public} from 0.913 to 0.957, and with the
     * segments searched side by side the search still took 2.22× the query embedding at p50
     * (docs/PERFORMANCE.md, 5b and 5c).
     */
    public static final boolean DEFAULT_CROSS_SEGMENT_PRUNING = false;
    /** Every setting at its default. */
    public static final Hnsw DEFAULT = new Hnsw(null, null, null, null);

    /** The search-time pruning, default applied. */
    boolean pruning() {
      return crossSegmentPruning == null ? DEFAULT_CROSS_SEGMENT_PRUNING : crossSegmentPruning;
    }

    /** The graph parameters, defaults applied. */
    HnswGraph graph() {
      try {
        return new HnswGraph(m == null ? DEFAULT_M : m,
            beamWidth == null ? DEFAULT_BEAM_WIDTH : beamWidth);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("config store.lucene.hnsw: " + e.getMessage(), e);
      }
    }

    /** The search-time candidates, default applied. */
    int candidates() {
      int ef = efSearch == null ? DEFAULT_EF_SEARCH : efSearch;
      if (ef < 1) {
        throw new IllegalArgumentException(
            "config store.lucene.hnsw.efSearch must be >= 1, got " + ef);
      }
      return ef;
    }
  }

  /**
   * {@code store.tls}: TLS for {@code https} Solr nodes, passed to SolrJ. Passwords may also come
   * from {@code OPENBOOK_SOLR_TRUSTSTORE_PASSWORD} and {@code OPENBOOK_SOLR_KEYSTORE_PASSWORD}
   * (prefer those).
   *
   * @param trustStore         trust store file (JKS or PKCS12) with the CA of the Solr nodes
   * @param trustStorePassword its password
   * @param keyStore           client key store, only for clusters that require client
   *                           certificates (mutual TLS)
   * @param keyStorePassword   its password
   */
  public record Tls(
      String trustStore, String trustStorePassword, String keyStore, String keyStorePassword) {
    /** Hides the passwords. */
    @Override
    public String toString() {
      return "Tls[trustStore=" + trustStore + ", keyStore=" + keyStore + "]";
    }
  }

  /**
   * The reranking stage ({@code org.openbook.rerank}): the top {@code fetchK} fused candidates
   * are scored by a reranker and the top k kept in its order. A failing or slow reranker leaves
   * the fused order ({@code diagnostics.rerank = "skipped: …"}).
   *
   * @param type      {@code none} (default), {@code http} (cross-encoder server), {@code onnx}
   *                  (local cross-encoder file) or {@code llm} (the configured chat model,
   *                  listwise)
   * @param url       {@code http}: full endpoint URL, e.g. {@code http://localhost:8080/rerank}
   * @param api       {@code http}: {@code cohere} (default; also Jina, SiliconFlow, Xinference,
   *                  vLLM) or {@code tei} (Hugging Face Text Embeddings Inference)
   * @param model     {@code http}: model name sent to the server; {@code onnx}: path of the
   *                  {@code model.onnx} file
   * @param tokenizer {@code onnx}: path of the model's {@code tokenizer.json} (default: beside the
   *                  model file)
   * @param apiKey    {@code http}: bearer key; {@code OPENBOOK_RERANK_API_KEY} overrides it
   * @param fetchK    fused candidates reranked (default 20)
   * @param timeoutMs time limit of one reranker call in ms (default 5000)
   * @param threshold gate 1 on the rerank score, on the reranker's own scale: when set and the
   *                  reranker scored the top hit, that score must reach it (instead of the
   *                  cosine threshold); unset means the cosine gate only
   */
  public record Rerank(
      String type,
      String url,
      String api,
      String model,
      String tokenizer,
      String apiKey,
      Integer fetchK,
      Long timeoutMs,
      Double threshold) {

    /** No reranking stage. */
    public static final Rerank NONE = new Rerank(null, null, null, null, null, null, null, null,
        null);

    public Rerank {
      type = type == null || type.isBlank() ? "none" : type.strip().toLowerCase(java.util.Locale.ROOT);
      if (!List.of("none", "http", "onnx", "llm").contains(type)) {
        throw new IllegalArgumentException(
            "rerank.type must be none, http, onnx or llm, got '" + type + "'");
      }
      if (type.equals("http") && (url == null || url.isBlank())) {
        throw new IllegalArgumentException("rerank.url is required when rerank.type is http");
      }
      if (type.equals("onnx") && (model == null || model.isBlank())) {
        throw new IllegalArgumentException(
            "rerank.model (path of the model.onnx file) is required when rerank.type is onnx");
      }
      if (fetchK != null && fetchK < 1) {
        throw new IllegalArgumentException("rerank.fetchK must be >= 1, got " + fetchK);
      }
      if (timeoutMs != null && timeoutMs < 1) {
        throw new IllegalArgumentException("rerank.timeoutMs must be >= 1, got " + timeoutMs);
      }
      if (threshold != null && !Double.isFinite(threshold)) {
        throw new IllegalArgumentException("rerank.threshold must be a number, got " + threshold);
      }
    }

    /** Environment variable that overrides {@code rerank.apiKey}. */
    public static final String API_KEY_ENV = "OPENBOOK_RERANK_API_KEY";
    /** Fused candidates reranked when the config says none. */
    public static final int DEFAULT_FETCH_K = 20;
    /** Time limit of one reranker call when the config says none, in ms. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;

    /** Whether a reranking stage runs. */
    public boolean enabled() {
      return !type.equals("none");
    }

    Settings.Rerank resolve(Map<String, String> env) {
      return new Settings.Rerank(type, Optional.ofNullable(url), api == null ? "cohere" : api,
          Optional.ofNullable(model), Optional.ofNullable(tokenizer),
          Optional.ofNullable(env.getOrDefault(API_KEY_ENV, apiKey)),
          fetchK == null ? DEFAULT_FETCH_K : fetchK,
          timeoutMs == null ? DEFAULT_TIMEOUT_MILLIS : timeoutMs,
          threshold == null ? Double.NaN : threshold);
    }

    /** Hides the key. */
    @Override
    public String toString() {
      return "Rerank[type=" + type + ", url=" + url + ", api=" + api + ", model=" + model
          + ", fetchK=" + fetchK + ", timeoutMs=" + timeoutMs + ", threshold=" + threshold
          + (apiKey == null ? "" : ", apiKey=***") + "]";
    }
  }
}
