package org.openbook.engine.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.retrieve.Principal;

/**
 * Settings read from {@code openbook.yaml}; every field is optional and falls back to the
 * documented default. See the README's configuration reference.
 *
 * @param principals principal name → departments it may read ({@code public} is always added)
 * @param chunking   chunk budget
 * @param retrieval  top-k, fetch-k and fusion settings
 * @param gate       refusal gate settings
 * @param ingest     ingest limits
 * @param llm        OpenAI-compatible endpoint; environment variables override it
 * @param server     {@code openbook serve}: bearer tokens, writers, request limits
 * @param store      where the index lives: embedded Lucene (default) or a SolrCloud collection
 * @param analysis   query-time analysis: the user's synonym file
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
    @JsonProperty("analysis") Analysis analysis) {

  public OpenBookConfig {
    principals = principals == null ? Map.of() : new LinkedHashMap<>(principals);
    chunking = chunking == null ? new Chunking(null, null, null) : chunking;
    retrieval = retrieval == null ? new Retrieval(null, null, null, null, null, null) : retrieval;
    gate = gate == null ? new Gate(null) : gate;
    ingest = ingest == null ? new Ingest(null, null, null) : ingest;
    llm = llm == null ? new Llm(null, null, null, null) : llm;
    server = server == null ? new Server(null, null, null, null, null, null, null) : server;
    store = store == null ? Store.LUCENE : store;
    analysis = analysis == null ? new Analysis(null) : analysis;
  }

  /** A configuration without an {@code analysis} section. */
  public OpenBookConfig(Map<String, List<String>> principals, Chunking chunking,
      Retrieval retrieval, Gate gate, Ingest ingest, Llm llm, Server server, Store store) {
    this(principals, chunking, retrieval, gate, ingest, llm, server, store, null);
  }

  /**
   * This configuration with relative file paths ({@code analysis.synonyms}) resolved against
   * {@code dir}, the folder of the configuration file.
   */
  public OpenBookConfig withPathsRelativeTo(java.nio.file.Path dir) {
    String syn = analysis.synonyms();
    if (syn == null || syn.isBlank() || dir == null || java.nio.file.Path.of(syn).isAbsolute()) {
      return this;
    }
    return new OpenBookConfig(principals, chunking, retrieval, gate, ingest, llm, server, store,
        new Analysis(dir.resolve(syn).normalize().toString()));
  }

  /** All defaults, no principals but the anonymous one. */
  public static OpenBookConfig defaults() {
    return new OpenBookConfig(null, null, null, null, null, null, null, null, null);
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
    List<String> depts = principals.get(name);
    if (depts == null) {
      throw new IllegalArgumentException("unknown principal '" + name + "'; known: "
          + (principals.isEmpty() ? "(none configured)" : String.join(", ", principals.keySet())));
    }
    // departments are lower-case ids, as the loaders store them (dept: Finance → finance)
    return new Principal(name, depts.stream().map(d -> d.trim().toLowerCase(java.util.Locale.ROOT))
        .collect(java.util.stream.Collectors.toSet()));
  }

  /** Chunk budget in chars; defaults from {@link ChunkerSettings#DEFAULT}. */
  public record Chunking(Integer maxChars, Integer overlapChars, Integer maxPrefixChars) {
    public ChunkerSettings settings() {
      ChunkerSettings d = ChunkerSettings.DEFAULT;
      return new ChunkerSettings(
          maxChars == null ? d.maxChars() : maxChars,
          overlapChars == null ? d.overlapChars() : overlapChars,
          maxPrefixChars == null ? d.maxPrefixChars() : maxPrefixChars);
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
   */
  public record Retrieval(
      Integer topK, Integer fetchK, Double rrfK, Double denseWeight, Double sparseWeight,
      String fusion) {
    public int topKOr(int dflt) {
      return topK == null ? dflt : topK;
    }

    public int fetchKOr(int dflt) {
      return fetchK == null ? dflt : fetchK;
    }
  }

  /**
   * Gate 1 (see {@code org.openbook.answer.EvidenceGate}): refuse without calling the generator
   * unless the best dense cosine reaches {@code threshold} or a passage matches the question's
   * key terms lexically.
   *
   * @param threshold        dense cosine threshold (default 0.53)
   * @param lexicalThreshold IDF-weighted key-term share a passage must reach (default 0.8);
   *                         above 1 switches the lexical share off (identifier matches still
   *                         count)
   * @param lexical          false restores the dense-only rule (default true)
   */
  public record Gate(Double threshold, Double lexicalThreshold, Boolean lexical) {
    /** Only the dense threshold. */
    public Gate(Double threshold) {
      this(threshold, null, null);
    }
  }

  /**
   * Query-time analysis.
   *
   * @param synonyms path of a synonym file in the Solr/Elasticsearch format (relative to the
   *                 config file), applied to BM25 queries and to gate 2's key-term coverage;
   *                 re-read whenever an engine opens (ingest, serve, search, ask); null for none
   */
  public record Analysis(String synonyms) {}

  /**
   * Ingest limits; a file over a limit is skipped and reported, never truncated.
   *
   * @param maxFileBytes         largest file in bytes (default 50 MiB)
   * @param maxChunksPerDocument most chunks one document may yield (default 10,000)
   * @param commitEvery          changed documents between intermediate commits (default 200)
   */
  public record Ingest(Long maxFileBytes, Integer maxChunksPerDocument, Integer commitEvery) {}

  /**
   * OpenAI-compatible endpoint. The key is best given by environment variable.
   *
   * @param baseUrl        e.g. {@code https://api.deepseek.com/v1}
   * @param model          model name
   * @param apiKey         API key (prefer the environment variable)
   * @param timeoutSeconds request timeout
   */
  public record Llm(String baseUrl, String model, String apiKey, Integer timeoutSeconds) {}

  /**
   * The HTTP server ({@code openbook serve}). Every field is optional.
   *
   * @param tokens          bearer token → principal name (a key of {@code principals}, or a name
   *                        with no entry there, which reads {@code public} only); no tokens means
   *                        every {@code /v1} request is refused with 401
   * @param writers         principal names allowed to upload and delete documents (default none)
   * @param docsDir         folder the server keeps the corpus in; uploads are written there and
   *                        ingested from there (default: {@code <index>-docs} beside the index)
   * @param maxBodyBytes    largest JSON request body in bytes (default 65536)
   * @param maxUploadBytes  largest upload request in bytes, all files together (default 20 MiB)
   * @param maxK            largest {@code k} a request may ask for (default 50)
   * @param auditLog        file the audit lines are appended to; default: the
   *                        {@code openbook.audit} logger only
   */
  public record Server(
      Map<String, String> tokens,
      List<String> writers,
      String docsDir,
      Long maxBodyBytes,
      Long maxUploadBytes,
      Integer maxK,
      String auditLog) {

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

    public long maxBodyBytesOr() {
      return maxBodyBytes == null ? DEFAULT_MAX_BODY_BYTES : maxBodyBytes;
    }

    public long maxUploadBytesOr() {
      return maxUploadBytes == null ? DEFAULT_MAX_UPLOAD_BYTES : maxUploadBytes;
    }

    public int maxKOr() {
      return maxK == null ? DEFAULT_MAX_K : maxK;
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
      String password) {

    /** The embedded Lucene index, the default. */
    public static final Store LUCENE =
        new Store(null, null, null, null, null, null, null, null, null);
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

    /** The collection name in force. */
    public String collectionOr() {
      return collection == null ? DEFAULT_COLLECTION : collection;
    }

    /** Hides the password. */
    @Override
    public String toString() {
      return "Store[type=" + type + ", solrUrls=" + solrUrls + ", zkHosts=" + zkHosts
          + ", collection=" + collection + ", shards=" + shards + ", replicas=" + replicas
          + (user == null ? "" : ", user=" + user) + (password == null ? "" : ", password=***")
          + "]";
    }
  }
}
