package org.openbook.engine.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.index.HnswGraph;
import org.openbook.index.VectorEncoding;
import org.openbook.llm.LlmConfig;
import org.openbook.retrieve.Fusion;
import org.openbook.retrieve.Principal;
import org.openbook.solr.SolrStoreConfig;

/**
 * The configuration in force: {@link OpenBookConfig} (what the YAML file or the builder said)
 * with every default filled in and the environment applied, by {@link OpenBookConfig#resolve}.
 * No component is null and no other class fills a default; absent optional things are
 * {@link Optional#empty()}.
 *
 * @param principals principal name → departments it may read, lower-case ({@code public} is
 *                   always readable and not listed)
 * @param chunking   chunk budget and overlap
 * @param retrieval  top-k, fetch-k and the fusion
 * @param gate       refusal gate 1
 * @param ingest     ingest limits
 * @param llm        the OpenAI-compatible endpoint, or empty for extractive answers
 * @param server     {@code openbook serve} settings
 * @param store      the index backend
 * @param rerank     the reranking stage between fusion and generation
 * @param access     folder-level department rules for files without their own
 * @param synonyms   the user's synonym file ({@code analysis.synonyms}, resolved against the
 *                   configuration file's folder), or empty
 * @param analyzer   the BM25 route's Han tokenisation ({@code analysis.analyzer}) for a new
 *                   index
 * @param analyzerNamed whether the configuration names {@code analysis.analyzer}; if it does not,
 *                   an existing index keeps the analyzer its manifest records (an index built
 *                   before the default changed opens as it was), see {@code
 *                   org.openbook.engine.OpenBook}
 * @param embedding  the dense models' query instructions ({@code embedding})
 */
public record Settings(
    Map<String, Set<String>> principals,
    ChunkerSettings chunking,
    Retrieval retrieval,
    Gate gate,
    Ingest ingest,
    Optional<LlmConfig> llm,
    Server server,
    Store store,
    Rerank rerank,
    org.openbook.document.FolderAccess access,
    Optional<Path> synonyms,
    OpenBookAnalysis.Strategy analyzer,
    boolean analyzerNamed,
    Embedding embedding) {

  public Settings {
    principals = Map.copyOf(principals);
  }

  /**
   * The analyzer to open an index with whose manifest records the analyzer id {@code recorded}
   * (empty: no index yet, or one being reset): {@link #analyzer()} when the configuration names
   * it or nothing is recorded; otherwise the recorded analyzer, so an index built under an
   * earlier default keeps opening as it was built. A recorded id this build does not know gives
   * {@link #analyzer()}, and the manifest check then refuses the index with the {@code --reset}
   * hint.
   */
  public OpenBookAnalysis.Strategy analyzerFor(Optional<String> recorded) {
    if (analyzerNamed || recorded.isEmpty()) {
      return analyzer;
    }
    try {
      return OpenBookAnalysis.forId(recorded.get()).strategy();
    } catch (IllegalArgumentException unknown) {
      return analyzer; // the manifest check names both ids and gives the --reset hint
    }
  }

  /**
   * The query side of the dense models ({@code embedding.queryInstruction}).
   *
   * @param zhQueryInstruction prepended to every question bge-small-zh embeds; "" for none
   * @param enQueryInstruction prepended to every question bge-small-en embeds; "" for none
   * @param zh                 where the primary route's vectors come from
   * @param en                 where the English route's vectors come from ({@code none}: no
   *                           English route)
   */
  public record Embedding(String zhQueryInstruction, String enQueryInstruction,
      EmbeddingRoute zh, EmbeddingRoute en) {

    /** In-process models on both routes. */
    public Embedding(String zhQueryInstruction, String enQueryInstruction) {
      this(zhQueryInstruction, enQueryInstruction, EmbeddingRoute.onnx("zh"),
          EmbeddingRoute.onnx("en"));
    }

    /** Whether both routes are today's in-process models. */
    public boolean inProcess() {
      return zh.provider().equals(EmbeddingRoute.ONNX) && en.provider().equals(EmbeddingRoute.ONNX);
    }
  }

  /**
   * The principal called {@code name}; {@code null} or blank gives {@link Principal#ANONYMOUS}
   * ({@code public} only).
   *
   * @throws IllegalArgumentException naming the known principals when {@code name} is unknown
   */
  public Principal principal(String name) {
    if (name == null || name.isBlank()) {
      return Principal.ANONYMOUS;
    }
    Set<String> depts = principals.get(name);
    if (depts == null) {
      throw new IllegalArgumentException("unknown principal '" + name + "'; known: "
          + (principals.isEmpty() ? "(none configured)"
              : principals.keySet().stream().sorted().collect(Collectors.joining(", "))));
    }
    return new Principal(name, depts);
  }

  /** Department ids as the loaders store them: trimmed, lower-case ({@code Finance} → {@code finance}). */
  public static Set<String> departments(List<String> names) {
    return names.stream().map(d -> d.trim().toLowerCase(Locale.ROOT))
        .collect(Collectors.toUnmodifiableSet());
  }

  /**
   * Retrieval settings.
   *
   * @param topK   hits returned / sources given to the generator, ≥ 1
   * @param fetchK candidates per route before fusion, ≥ topK
   * @param fusion how the dense and BM25 routes are combined
   */
  public record Retrieval(int topK, int fetchK, Fusion fusion) {}

  /**
   * Gate 1 ({@code org.openbook.answer.EvidenceGate}).
   *
   * @param threshold        the best dense cosine in [-1, 1] that is evidence on its own
   * @param lexicalThreshold the IDF-weighted key-term share of one passage that is evidence
   * @param lexical          whether lexical evidence counts (false: the dense-only rule)
   */
  public record Gate(double threshold, double lexicalThreshold, boolean lexical) {}

  /**
   * Ingest limits; a file over a limit is skipped and reported, never truncated.
   *
   * @param maxFileBytes         largest file, in bytes
   * @param maxChunksPerDocument most chunks one document may yield
   * @param commitEvery          changed documents between intermediate commits
   * @param loaders              loader options: OCR, hidden sheets
   */
  public record Ingest(long maxFileBytes, int maxChunksPerDocument, int commitEvery,
      org.openbook.document.LoaderSettings loaders) {}

  /**
   * {@code openbook serve}.
   *
   * @param tokens         bearer token → principal name
   * @param writers        principals allowed to upload and delete documents
   * @param docsDir        the corpus folder, or empty for {@code <index>-docs} beside the index
   * @param maxBodyBytes   largest JSON request body, in bytes
   * @param maxUploadBytes largest upload request, all files together, in bytes
   * @param maxK           largest {@code k} a request may ask for
   * @param auditLog       file the audit lines are appended to, or empty for the logger only
   * @param dataDir        folder for conversations and feedback, or empty for {@code <docs>-data}
   * @param oidc           JWT bearer tokens from an identity provider, or empty for none
   * @param limits         body deadlines, requests in flight and storage quotas per principal
   */
  public record Server(
      Map<String, String> tokens,
      Set<String> writers,
      Optional<Path> docsDir,
      long maxBodyBytes,
      long maxUploadBytes,
      int maxK,
      Optional<Path> auditLog,
      Optional<Path> dataDir,
      Optional<OpenBookConfig.Oidc> oidc,
      ServerLimits limits) {

    public Server {
      tokens = Map.copyOf(tokens);
      writers = Set.copyOf(writers);
    }
  }

  /**
   * The reranking stage ({@code org.openbook.rerank}); see {@link OpenBookConfig.Rerank}.
   *
   * @param type      {@code none}, {@code http}, {@code onnx} or {@code llm}
   * @param url       {@code http}: the endpoint URL
   * @param api       {@code http}: wire format, {@code cohere} or {@code tei}
   * @param model     {@code http}: model name; {@code onnx}: path of {@code model.onnx}
   * @param tokenizer {@code onnx}: path of {@code tokenizer.json}, or empty for beside the model
   * @param apiKey    {@code http}: bearer key (environment first), or empty
   * @param fetchK    fused candidates reranked, ≥ 1
   * @param timeoutMs time limit of one reranker call, ms ≥ 1
   * @param threshold gate 1 on the top rerank score, or NaN for the cosine gate only
   */
  public record Rerank(String type, Optional<String> url, String api, Optional<String> model,
      Optional<String> tokenizer, Optional<String> apiKey, int fetchK, long timeoutMs,
      double threshold) {
    /** Whether a reranking stage runs. */
    public boolean enabled() {
      return !type.equals("none");
    }
  }

  /**
   * The index backend.
   *
   * @param solr           the SolrCloud collection's settings (environment applied), or empty
   *                       for the embedded Lucene index in the {@code --index} folder
   * @param vectorEncoding how the embedded Lucene index stores its vectors (float32 for Solr)
   * @param hnsw           graph parameters of a new embedded Lucene index (an existing one keeps
   *                       its own); Lucene's defaults for Solr
   * @param efSearch       candidates of each dense search of the embedded Lucene index (≥ 1;
   *                       max(fetch-k, efSearch) are searched for, fetch-k kept)
   * @param crossSegmentPruning whether the embedded index's segment searches share one top-k
   *                       (see {@code OpenBookConfig.Hnsw})
   */
  public record Store(Optional<SolrStoreConfig> solr, VectorEncoding vectorEncoding,
      HnswGraph hnsw, int efSearch, boolean crossSegmentPruning) {
    public Store {
      if (efSearch < 1) {
        throw new IllegalArgumentException("efSearch must be >= 1, got " + efSearch);
      }
    }

    /** The embedded Lucene index with every default. */
    public static final Store LUCENE = new Store(Optional.empty(), VectorEncoding.FLOAT32);

    /** A store with float32 vectors and default HNSW settings. */
    public Store(Optional<SolrStoreConfig> solr) {
      this(solr, VectorEncoding.FLOAT32);
    }

    /** A store with default HNSW settings. */
    public Store(Optional<SolrStoreConfig> solr, VectorEncoding vectorEncoding) {
      this(solr, vectorEncoding, HnswGraph.LUCENE_DEFAULT,
          OpenBookConfig.Hnsw.DEFAULT_EF_SEARCH, OpenBookConfig.Hnsw.DEFAULT_CROSS_SEGMENT_PRUNING);
    }

    /** Whether the index is a SolrCloud collection. */
    public boolean isSolr() {
      return solr.isPresent();
    }
  }
}
