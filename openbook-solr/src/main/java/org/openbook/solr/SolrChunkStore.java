package org.openbook.solr;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.client.solrj.util.ClientUtils;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;
import org.apache.solr.common.params.ShardParams;
import org.openbook.analysis.QueryTerms;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.DocumentEntry;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.DenseField;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;
import org.openbook.index.SearchCoverage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The distributed chunk store: one SolrCloud collection set up by {@link SolrAdmin}, reached
 * through SolrJ. Same contract as the embedded Lucene store:
 *
 * <ul>
 *   <li>BM25: text is analysed once, in OpenBook. The field {@code text_tokens} receives the
 *       token stream of embedText from {@link TextAnalysis#analyzer()} pre-analysed (terms and
 *       position increments, Solr's {@code PreAnalyzedField}), so terms and document lengths
 *       are those of the embedded store; the heading label goes the same way into {@code
 *       heading_tokens}. A query becomes {@link QueryTerms} (distinct tokens, identifiers
 *       boosted), each an optional clause on both fields, as in the embedded store. Similarity is BM25 (k1 = 1.2, b = 0.75) and
 *       {@code ExactStatsCache} makes term statistics global across shards, so scores equal
 *       those of one index holding the same chunks.</li>
 *   <li>Dense: a cosine {@code DenseVectorField} (HNSW); the query is {@code {!knn}} with
 *       {@code topK = rows = N} (topK applies per shard, the merge keeps the best N). Solr's
 *       score {@code (1 + cos) / 2} is converted back to the cosine.</li>
 *   <li>The {@link AccessFilter} is an {@code fq}, applied inside both routes before top-N (Solr
 *       runs filter queries as a pre-filter of the kNN search).</li>
 *   <li>The {@link IndexManifest} settings live in one document of kind {@code manifest},
 *       excluded from searches and counts; the counts are counted when asked.</li>
 *   <li><b>Replace without a gap.</b> A document is one nested block: a root of kind {@code
 *       document} (document id, content hash) with its chunks as children. {@link
 *       #replaceDocument} sends the whole block in one request; Solr routes it to one shard and
 *       indexes it with one Lucene {@code IndexWriter.updateDocuments} call, which deletes the old
 *       block and adds the new one atomically, so every searcher (on every replica, after any
 *       commit, by whichever writer) sees the document wholly old or wholly new. A writer that
 *       dies between two requests leaves every document whole; re-running the ingest finishes
 *       the work. Chosen over the alternatives: writing new chunks then deleting the old ones a
 *       new version no longer has is two requests, and a commit between them (by another writer,
 *       or after a crash) shows a mix of old and new chunks; a generation field needs the
 *       current generation of each document at query time, i.e. a join or a second lookup in
 *       every search, and still a cleanup request. Changes become visible at {@link #commit()}.
 *       Shards commit one after another, so a search during a commit may see one document's new
 *       version and another's old one, but never half a document.</li>
 *   <li>Node failures: every request is idempotent and retried with exponential backoff on
 *       transient failures; a search that some shard could not answer fails naming the shard,
 *       or, if allowed, answers from the rest and reports it ({@link SolrFailurePolicy}).</li>
 * </ul>
 * Thread-safe: SolrJ clients are, and the store keeps no other mutable state.
 */
public final class SolrChunkStore
    implements IndexStore {

  private static final Logger LOG = LoggerFactory.getLogger(SolrChunkStore.class);
  private static final String CHUNKS_ONLY = SolrFields.KIND + ":" + SolrFields.KIND_CHUNK;
  private static final String DOCUMENTS_ONLY = SolrFields.KIND + ":" + SolrFields.KIND_DOCUMENT;
  private static final int CURSOR_PAGE = 1000;
  /** Response header Solr sets when some shard did not answer a shards.tolerant request. */
  static final String PARTIAL_RESULTS_HEADER = "partialResults";
  /** Two clauses per token must stay under Solr's default maxBooleanClauses (1024). */
  static final int MAX_QUERY_TERMS = 511;

  private final SolrClient client;
  private final boolean ownsClient;
  private final String collection;
  private final IndexManifest settings;
  private final TextAnalysis analysis;
  private final SolrFailurePolicy failures;
  /** The basic-auth user, for error messages; null when anonymous or unknown. */
  private final String user;
  /** For index-time token streams; reuses its chain per thread, so sharing is safe. */
  private final Analyzer analyzer;

  private SolrChunkStore(SolrClient client, boolean ownsClient, String collection,
      IndexManifest settings, TextAnalysis analysis, SolrFailurePolicy failures, String user) {
    this.user = user;
    this.client = client;
    this.ownsClient = ownsClient;
    this.collection = collection;
    this.settings = settings;
    this.analysis = analysis;
    this.failures = failures;
    this.analyzer = analysis.analyzer();
  }

  /**
   * Opens the collection of {@code config}, creating it (configset, collection with the
   * configured shards and replicas) if the cluster has none of that name. The store owns the
   * client it creates and closes it in {@link #close()}.
   *
   * @param expected what this run embeds and analyses with (see {@link #open(SolrClient, String,
   *                 IndexManifest, TextAnalysis)})
   * @throws IndexMismatchException if the collection was built with other settings
   * @throws IOException naming the collection if Solr cannot be reached or refuses
   */
  public static SolrChunkStore open(SolrStoreConfig config, IndexManifest expected,
      TextAnalysis analysis) throws IOException {
    checkSettings(expected, analysis);
    SolrClient client = SolrAdmin.run("connect to " + config, config::newClient);
    try {
      SolrAdmin admin = new SolrAdmin(client);
      boolean exists;
      try {
        exists = admin.exists(config.collection());
      } catch (IOException e) {
        throw SolrAdmin.explain(config, e);
      }
      if (!exists) {
        admin.init(config.collection(), config.shards(), config.replicas(), expected);
      }
      return open(client, true, config.collection(), expected, analysis, config.failures(),
          config.user());
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /**
   * Opens the existing collection of {@code config} for searching, without creating anything;
   * the store owns its client and closes it in {@link #close()}.
   *
   * @throws IOException naming the collection (and how to create it) if the cluster has none of
   *     that name, or if Solr cannot be reached or refuses
   * @throws IndexMismatchException if the collection was built with other settings
   */
  public static SolrChunkStore openExisting(SolrStoreConfig config, IndexManifest expected,
      TextAnalysis analysis) throws IOException {
    checkSettings(expected, analysis);
    SolrClient client = SolrAdmin.run("connect to " + config, config::newClient);
    try {
      try {
        new SolrAdmin(client).exists(config.collection());
      } catch (IOException e) {
        throw SolrAdmin.explain(config, e);
      }
      return open(client, true, config.collection(), expected, analysis, config.failures(),
          config.user());
    } catch (IOException | RuntimeException e) {
      client.close();
      throw e;
    }
  }

  /**
   * The manifest stored in the collection of {@code config} (counts left at 0), or empty if
   * the collection or its manifest does not exist; reads only (the Solr counterpart of {@code
   * LuceneChunkStore.readManifest}).
   *
   * @throws IOException naming the collection if Solr cannot be reached or refuses
   */
  public static Optional<IndexManifest> readManifest(SolrStoreConfig config) throws IOException {
    try (SolrClient client = SolrAdmin.run("connect to " + config, config::newClient)) {
      SolrAdmin admin = new SolrAdmin(client);
      try {
        return admin.exists(config.collection())
            ? admin.storedManifest(config.collection()) : Optional.empty();
      } catch (IOException e) {
        throw SolrAdmin.explain(config, e);
      }
    }
  }

  /**
   * Opens an existing OpenBook collection through {@code client}, which stays the caller's to
   * close. An empty collection gets {@code expected} as its manifest.
   *
   * @param expected what this run embeds and analyses with: model, dimension, metric (must be
   *                 {@link IndexManifest#COSINE}), analyzer id (must equal {@code
   *                 analysis.id()}) and chunker; its counts are ignored
   * @throws IndexMismatchException if the collection was built with another model, dimension,
   *     metric or analyzer, or holds chunks but no manifest
   * @throws IllegalArgumentException if {@code expected} and {@code analysis} disagree
   * @throws IOException naming the collection if it does not exist or Solr refuses
   */
  public static SolrChunkStore open(SolrClient client, String collection,
      IndexManifest expected, TextAnalysis analysis) throws IOException {
    return open(client, collection, expected, analysis, SolrFailurePolicy.DEFAULT);
  }

  /**
   * As {@link #open(SolrClient, String, IndexManifest, TextAnalysis)} with a failure policy
   * (retries, partial results).
   */
  public static SolrChunkStore open(SolrClient client, String collection,
      IndexManifest expected, TextAnalysis analysis, SolrFailurePolicy failures)
      throws IOException {
    checkSettings(expected, analysis);
    return open(client, false, collection, expected, analysis, failures, null);
  }

  private static SolrChunkStore open(SolrClient client, boolean owns, String collection,
      IndexManifest expected, TextAnalysis analysis, SolrFailurePolicy failures, String user)
      throws IOException {
    Objects.requireNonNull(collection, "collection");
    Objects.requireNonNull(failures, "failures");
    SolrAdmin admin = new SolrAdmin(client);
    if (!admin.exists(collection)) {
      throw new IOException("Solr collection '" + collection + "' does not exist; create it with:"
          + " openbook solr init --collection " + collection);
    }
    SolrChunkStore store =
        new SolrChunkStore(client, owns, collection, expected, analysis, failures, user);
    try {
      SolrDocument manifestDoc = store.call("read manifest",
          () -> client.getById(collection, SolrFields.MANIFEST_ID));
      Optional<IndexManifest> stored =
          Optional.ofNullable(manifestDoc).map(m -> SolrFields.toManifest(m, 0, 0));
      long chunks = store.numFound("count", new SolrQuery("*:*").addFilterQuery(CHUNKS_ONLY),
          failures.partialResults());
      if (stored.isPresent() && SolrFields.layout(manifestDoc) == null) {
        if (chunks > 0) {
          throw new IndexMismatchException("Solr collection '" + collection + "' was written by"
              + " an earlier OpenBook (one Solr document per chunk, replaced by delete-then-add);"
              + " rebuild it in the document-block layout: openbook ingest <dir> --reset");
        }
        stored = Optional.empty(); // empty: its manifest is rewritten with the layout below
      }
      if (stored.isPresent()) {
        stored.get().requireCompatible(expected);
      } else if (chunks > 0) {
        throw new IndexMismatchException("Solr collection '" + collection + "' holds "
            + chunks + " chunks but no OpenBook manifest; reset it before use");
      } else {
        store.call("write manifest", () -> {
          client.add(collection, SolrFields.manifestDocument(expected));
          return client.commit(collection, true, true);
        });
      }
      return store;
    } catch (IOException | RuntimeException e) {
      store.analyzer.close(); // the client is the caller's (or closed by the public open)
      throw e;
    }
  }

  private static void checkSettings(IndexManifest expected, TextAnalysis analysis) {
    Objects.requireNonNull(expected, "expected");
    expected.requireUsable(analysis, "Solr");
  }

  /** The collection name. */
  public String collection() {
    return collection;
  }

  /**
   * The operator's view of the collection (see {@link SolrAdmin#status}), compared with the
   * settings this store was opened with; never throws for an unhealthy cluster.
   *
   * @throws IllegalStateException if the store was opened with a client that is not a cloud
   *     client (it cannot read the cluster state)
   */
  public SolrCollectionStatus status() {
    return new SolrAdmin(client).status(collection, settings);
  }

  /** The stored settings with the document and chunk counts of the committed index. */
  @Override
  public IndexManifest manifest() throws IOException {
    SolrDocument d = call("read manifest",
        () -> client.getById(collection, SolrFields.MANIFEST_ID));
    if (d == null) {
      throw new IndexMismatchException(
          "Solr collection '" + collection + "' lost its OpenBook manifest; reset it");
    }
    return SolrFields.toManifest(d, countDocuments(), count());
  }

  /**
   * Chunks in the committed index (document roots and the manifest are not counted).
   *
   * @throws IOException naming the shard if some shard does not answer (a count is never partial)
   */
  @Override
  public long count() throws IOException {
    return numFound("count", new SolrQuery("*:*").addFilterQuery(CHUNKS_ONLY), false);
  }

  /** Chunks {@code filter} allows (every chunk carries the BM25 token field). */
  @Override
  public long docCount(AccessFilter filter) throws IOException {
    if (filter.departments().isEmpty()) {
      return 0;
    }
    return numFound("count", new SolrQuery("*:*").addFilterQuery(CHUNKS_ONLY)
        .addFilterQuery(departments(filter)), false);
  }

  /**
   * Chunks {@code filter} allows whose BM25 token field holds {@code term}, as the
   * {@code numFound} of a filtered term query (exact across shards, unlike per-shard term
   * statistics, and blind to departments outside the filter).
   */
  @Override
  public long docFreq(String term, AccessFilter filter) throws IOException {
    if (filter.departments().isEmpty()) {
      return 0;
    }
    return numFound("document frequency", new SolrQuery(SolrFields.TEXT_TOKENS + ":"
        + ClientUtils.escapeQueryChars(term)).addFilterQuery(CHUNKS_ONLY)
        .addFilterQuery(departments(filter)), false);
  }

  private long countDocuments() throws IOException {
    return numFound("count documents",
        new SolrQuery("*:*").addFilterQuery(DOCUMENTS_ONLY), false);
  }

  private long numFound(String what, SolrQuery q, boolean mayBePartial) throws IOException {
    q.setRows(0);
    return query(what, q, mayBePartial).getResults().getNumFound();
  }

  /** The chunk with id {@code chunkId}, from the committed index. */
  @Override
  public Optional<Chunk> get(String chunkId) throws IOException {
    SolrQuery q = new SolrQuery(SolrFields.ID + ":" + ClientUtils.escapeQueryChars(chunkId))
        .addFilterQuery(CHUNKS_ONLY)
        .setFields(SolrFields.CHUNK_FL)
        .setRows(1);
    return query("get " + chunkId, q, failures.partialResults()).getResults().stream()
        .findFirst()
        .map(SolrFields::toChunk);
  }

  /** {@inheritDoc} The departments are a filter query of the id query. */
  @Override
  public Optional<Chunk> get(String chunkId, AccessFilter filter) throws IOException {
    if (filter.departments().isEmpty()) {
      return Optional.empty();  // nothing is readable; "dept:()" is no query
    }
    SolrQuery q = new SolrQuery(SolrFields.ID + ":" + ClientUtils.escapeQueryChars(chunkId))
        .addFilterQuery(CHUNKS_ONLY)
        .addFilterQuery(departments(filter))
        .setFields(SolrFields.CHUNK_FL)
        .setRows(1);
    return query("get " + chunkId, q, failures.partialResults()).getResults().stream()
        .findFirst()
        .map(SolrFields::toChunk);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@code topN < 1} or the vector's length differs from the
   *     collection's dimension, or a component is not finite
   */
  @Override
  public List<ScoredChunk> searchDense(float[] queryVector, int topN, AccessFilter filter)
      throws IOException {
    return searchVectors(SolrFields.VECTOR, null, settings.dimension(), queryVector, topN,
        filter);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException also if {@code topN < 1} or a component is not finite
   */
  @Override
  public List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
      AccessFilter filter) throws IOException {
    DenseField f = settings.denseField(field).orElseThrow(() -> new IllegalArgumentException(
        "the collection has no dense field '" + field + "'; it has " + settings.denseFields()));
    return searchVectors(SolrFields.vectorField(f.name()), f.name(), f.dimension(), queryVector,
        topN, filter);
  }

  /**
   * kNN over {@code solrField}; {@code denseField} (null for the primary field) restricts the
   * search and its exhaustiveness check to chunks that have a vector there.
   */
  private List<ScoredChunk> searchVectors(String solrField, String denseField, int dimension,
      float[] queryVector, int topN, AccessFilter filter) throws IOException {
    requireTopN(topN);
    String vector = vectorLiteral(queryVector, dimension);
    if (filter.departments().isEmpty()) {
      return List.of();
    }
    String hasVector = denseField == null ? null : SolrFields.DENSE_FIELDS + ":" + denseField;
    SolrQuery q = new SolrQuery("{!knn f=" + solrField + " topK=" + topN + "}" + vector);
    SolrQuery allowed = new SolrQuery("*:*").addFilterQuery(CHUNKS_ONLY)
        .addFilterQuery(departments(filter));
    if (hasVector != null) {
      q.addFilterQuery(hasVector);
      allowed.addFilterQuery(hasVector);
    }
    List<ScoredChunk> hits = search("dense search", q, topN, filter);
    if (hits.size() < topN && numFound("count allowed chunks", allowed,
        failures.partialResults()) > hits.size()) {
      // HNSW missed chunks the filter allows (a graph split by many identical vectors,
      // apache/lucene#12627): score every allowed chunk exactly, as the Lucene store does.
      // The two-argument vectorSimilarity uses the field's own similarity (SOLR-17164).
      hits = exactDense(solrField, hasVector, vector, topN, filter);
    }
    // Lucene's cosine score is (1 + cos) / 2; the SPI promises the cosine itself.
    return hits.stream()
        .map(h -> new ScoredChunk(h.chunk(), h.rank(), 2 * h.score() - 1))
        .toList();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The query's distinct tokens and weights come from {@link QueryTerms} (identifiers
   * boosted), shared with the embedded store; each is one optional clause on the text field and
   * one on the heading field (at most {@value #MAX_QUERY_TERMS} tokens, within Solr's default
   * limit of 1024 clauses; the rest are ignored). A query without tokens returns nothing.
   *
   * @throws IllegalArgumentException if {@code topN < 1}
   */
  @Override
  public List<ScoredChunk> searchSparse(String queryText, int topN, AccessFilter filter)
      throws IOException {
    requireTopN(topN);
    List<QueryTerms.WeightedTerm> terms = QueryTerms.of(analysis, queryText);
    if (terms.isEmpty() || filter.departments().isEmpty()) {
      return List.of();
    }
    StringBuilder clauses = new StringBuilder();
    for (QueryTerms.WeightedTerm t : terms.subList(0, Math.min(MAX_QUERY_TERMS, terms.size()))) {
      String term = ClientUtils.escapeQueryChars(t.term());
      String boost = t.weight() == 1.0f ? "" : "^" + t.weight();
      for (String field : new String[] {SolrFields.TEXT_TOKENS, SolrFields.HEADING_TOKENS}) {
        clauses.append(clauses.length() == 0 ? "" : " ")
            .append(field).append(':').append(term).append(boost);
      }
    }
    SolrQuery q = new SolrQuery("{!lucene q.op=OR sow=true}" + clauses);
    return search("sparse search", q, topN, filter).stream()
        .filter(h -> h.score() > 0)
        .toList();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The same bound as the embedded store, Σ weight × idf over the clauses of
   * {@link #searchSparse} with BM25's idf = ln(1 + (N − df + 0.5) / (df + 0.5)) (Robertson and
   * Zaragoza 2009; Lucene's {@code BM25Similarity}), N and df counted exactly across shards by
   * facet queries in one request: the min-max fusion of both stores then scales BM25 alike.
   */
  @Override
  public double maxSparseScore(String queryText) throws IOException {
    List<QueryTerms.WeightedTerm> terms = QueryTerms.of(analysis, queryText);
    if (terms.isEmpty()) {
      return 0;
    }
    terms = terms.subList(0, Math.min(MAX_QUERY_TERMS, terms.size()));
    String[] fields = {SolrFields.TEXT_TOKENS, SolrFields.HEADING_TOKENS};
    SolrQuery q = new SolrQuery("*:*").addFilterQuery(CHUNKS_ONLY).setRows(0).setFacet(true);
    for (String field : fields) {
      q.addFacetQuery(field + ":[* TO *]");
      for (QueryTerms.WeightedTerm t : terms) {
        q.addFacetQuery(field + ":" + ClientUtils.escapeQueryChars(t.term()));
      }
    }
    Map<String, Integer> counts = query("maximum BM25 score", q, false).getFacetQuery();
    double max = 0;
    for (String field : fields) {
      long docCount = counts.getOrDefault(field + ":[* TO *]", 0);
      if (docCount == 0) {
        continue;
      }
      for (QueryTerms.WeightedTerm t : terms) {
        long df = counts.getOrDefault(field + ":" + ClientUtils.escapeQueryChars(t.term()), 0);
        max += t.weight() * Math.log(1 + (docCount - df + 0.5) / (df + 0.5));
      }
    }
    return max;
  }

  /**
   * Every allowed chunk scored exactly against {@code queryVector}, with the field's similarity
   * (the same (1 + cos) / 2 score as the kNN query); the fallback of {@link #searchDense}.
   */
  List<ScoredChunk> exactDense(float[] queryVector, int topN, AccessFilter filter)
      throws IOException {
    return exactDense(SolrFields.VECTOR, null, vectorLiteral(queryVector, settings.dimension()),
        topN, filter);
  }

  private List<ScoredChunk> exactDense(String solrField, String hasVector, String vector,
      int topN, AccessFilter filter) throws IOException {
    SolrQuery q = new SolrQuery("{!func}vectorSimilarity(" + solrField + "," + vector + ")");
    if (hasVector != null) {
      q.addFilterQuery(hasVector);
    }
    return search("exact dense search", q, topN, filter);
  }

  private List<ScoredChunk> search(String what, SolrQuery q, int topN, AccessFilter filter)
      throws IOException {
    q.addFilterQuery(CHUNKS_ONLY)
        .addFilterQuery(departments(filter))
        .setFields(SolrFields.CHUNK_FL)
        .setRows(topN);
    List<SolrDocument> docs =
        new ArrayList<>(query(what, q, failures.partialResults()).getResults());
    // Solr already returns the merged list by descending score; sorting again keeps the SPI's
    // order explicit should a response ever come back unsorted.
    docs.sort(Comparator.comparingDouble(d -> -((Number) d.getFirstValue(SolrFields.SCORE))
        .doubleValue()));
    List<ScoredChunk> out = new ArrayList<>(docs.size());
    for (SolrDocument d : docs.subList(0, Math.min(topN, docs.size()))) {
      double score = ((Number) d.getFirstValue(SolrFields.SCORE)).doubleValue();
      out.add(new ScoredChunk(SolrFields.toChunk(d), out.size() + 1, score));
    }
    return out;
  }

  /** {@code dept:("a" OR "b")}, each department escaped. */
  private static String departments(AccessFilter filter) {
    return filter.departments().stream().sorted()
        .map(ClientUtils::escapeQueryChars)
        .collect(Collectors.joining(" OR ", SolrFields.DEPT + ":(", ")"));
  }

  private static String vectorLiteral(float[] v, int dimension) {
    if (v.length != dimension) {
      throw new IllegalArgumentException("query vector has " + v.length
          + " dimensions, the collection " + dimension);
    }
    StringBuilder s = new StringBuilder(v.length * 12).append('[');
    for (int i = 0; i < v.length; i++) {
      if (!Float.isFinite(v[i])) {
        throw new IllegalArgumentException("query vector component " + i + " is " + v[i]);
      }
      s.append(i == 0 ? "" : ",").append(v[i]);
    }
    return s.append(']').toString();
  }

  private static void requireTopN(int topN) {
    if (topN < 1) {
      throw new IllegalArgumentException("topN must be >= 1, was " + topN);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Read from the document roots with a cursor, so the answer is exact on any number of
   * shards.
   *
   * @throws IOException naming the shard if some shard does not answer: a partial catalog would
   *     make an ingest re-add (or miss deletions of) the documents on that shard
   */
  @Override
  public Map<String, String> documentHashes() throws IOException {
    Map<String, String> hashes = new LinkedHashMap<>();
    SolrQuery q = new SolrQuery("*:*")
        .addFilterQuery(DOCUMENTS_ONLY)
        .setFields(SolrFields.DOC_ID, SolrFields.CONTENT_HASH)
        .setSort(SolrFields.ID, SolrQuery.ORDER.asc)
        .setRows(CURSOR_PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query("list documents", q, false);
      for (SolrDocument d : r.getResults()) {
        Object hash = d.getFirstValue(SolrFields.CONTENT_HASH);
        hashes.put((String) d.getFirstValue(SolrFields.DOC_ID), hash == null ? "" : (String) hash);
      }
      if (cursor.equals(r.getNextCursorMark())) {
        return hashes;
      }
      cursor = r.getNextCursorMark();
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>One pass over the chunks (cursor-paged, stored fields only): department, title and hash
   * from each document's first chunk seen, the chunk count by counting.
   */
  @Override
  public List<DocumentEntry> documents() throws IOException {
    Map<String, DocumentEntry> docs = new java.util.TreeMap<>();
    SolrQuery q = new SolrQuery("*:*")
        .addFilterQuery(CHUNKS_ONLY)
        .setFields(SolrFields.ID, SolrFields.DOC_ID, SolrFields.CONTENT_HASH, SolrFields.DEPT,
            SolrFields.META_JSON)
        .setSort(SolrFields.ID, SolrQuery.ORDER.asc)
        .setRows(CURSOR_PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      q.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query("list documents", q, false);
      for (SolrDocument d : r.getResults()) {
        String docId = (String) d.getFirstValue(SolrFields.DOC_ID);
        docs.merge(docId, entry(docId, d), (a, b) -> new DocumentEntry(a.source(), a.dept(),
            a.title(), a.chunks() + 1, a.contentHash()));
      }
      if (cursor.equals(r.getNextCursorMark())) {
        return new ArrayList<>(docs.values());
      }
      cursor = r.getNextCursorMark();
    }
  }

  private static DocumentEntry entry(String docId, SolrDocument d) {
    Object hash = d.getFirstValue(SolrFields.CONTENT_HASH);
    Object dept = d.getFirstValue(SolrFields.DEPT);
    return new DocumentEntry(docId, dept == null ? "public" : (String) dept,
        SolrFields.meta(d).getOrDefault("title", ""), 1, hash == null ? "" : (String) hash);
  }

  /**
   * {@inheritDoc}
   *
   * <p>One request: the document's block (root plus chunks) replaces the previous block of the
   * same document atomically (see the class comment); no chunks means {@link #deleteDocument}.
   * Visible at {@link #commit()}. The document's content hash is its first chunk's {@code
   * contentHash} metadata.
   *
   * @throws IllegalArgumentException naming the chunk if a chunk belongs to another document, has
   *     the id reserved for the document's root, or its vector length differs from the
   *     collection's dimension; nothing is changed then
   */
  @Override
  public void replaceDocument(String docId, List<EmbeddedChunk> chunks) throws IOException {
    Objects.requireNonNull(docId, "docId");
    if (chunks.isEmpty()) {
      deleteDocument(docId);
      return;
    }
    String rootId = SolrFields.rootId(docId);
    List<SolrInputDocument> docs = new ArrayList<>(chunks.size());
    for (EmbeddedChunk ec : chunks) {
      Chunk c = ec.chunk();
      if (!docId.equals(c.docId())) {
        throw new IllegalArgumentException("chunk " + c.id() + " belongs to document '"
            + c.docId() + "', not '" + docId + "'");
      }
      if (c.id().equals(rootId)) {
        throw new IllegalArgumentException("chunk id " + c.id() + " is reserved for the root of"
            + " document '" + docId + "' in Solr");
      }
      if (ec.vector().length != settings.dimension()) {
        throw new IllegalArgumentException("chunk " + c.id() + ": vector has "
            + ec.vector().length + " dimensions, the collection " + settings.dimension());
      }
      requireDenseFields(ec);
      docs.add(SolrFields.toDocument(ec, analyzer));
    }
    Chunk head = chunks.stream().map(EmbeddedChunk::chunk)
        .min(Comparator.comparingInt(Chunk::ordinal)).orElseThrow();
    SolrInputDocument block = SolrFields.documentBlock(docId,
        head.meta().getOrDefault(SolrFields.CONTENT_HASH_META, ""), docs);
    try {
      call("write document " + docId, () -> client.add(collection, block));
    } catch (IOException e) {
      throw SolrSchema.explainUnknownField(collection, e);
    }
  }

  private void requireDenseFields(EmbeddedChunk ec) {
    for (Map.Entry<String, float[]> v : ec.denseVectors().entrySet()) {
      DenseField f = settings.denseField(v.getKey()).orElseThrow(() -> new IllegalArgumentException(
          "chunk " + ec.chunk().id() + ": the collection has no dense field '" + v.getKey() + "'"));
      if (v.getValue().length != f.dimension()) {
        throw new IllegalArgumentException("chunk " + ec.chunk().id() + ": field " + f.name()
            + " vector has " + v.getValue().length + " dimensions, the collection "
            + f.dimension());
      }
    }
  }

  /** Deletes the document's block (its root id; Solr deletes the children with it). */
  @Override
  public void deleteDocument(String docId) throws IOException {
    String rootId = SolrFields.rootId(Objects.requireNonNull(docId, "docId"));
    call("delete document " + docId, () -> client.deleteById(collection, rootId));
  }

  /** Hard commit on every shard, waiting for the new searchers to open. */
  @Override
  public void commit() throws IOException {
    call("commit", () -> client.commit(collection, true, true));
  }

  /** Closes the client if this store created it; uncommitted changes stay pending in Solr. */
  @Override
  public void close() throws IOException {
    analyzer.close();
    if (ownsClient) {
      client.close();
    }
  }

  /**
   * Runs a query with {@code shards.tolerant}, so a shard without a live replica does not fail
   * the whole request, then checks Solr's {@code partialResults} header: a partial answer is
   * reported ({@link SearchCoverage}, and a warning in the log) if {@code mayBePartial}, else
   * refused with an error naming the missing shards.
   */
  private QueryResponse query(String what, SolrQuery q, boolean mayBePartial) throws IOException {
    q.set(ShardParams.SHARDS_TOLERANT, true);
    // POST: a kNN query vector does not fit comfortably in a URL.
    QueryResponse r = call(what, () -> client.query(collection, q, SolrRequest.METHOD.POST));
    Object partial = r.getResponseHeader() == null
        ? null : r.getResponseHeader().get(PARTIAL_RESULTS_HEADER);
    if (Boolean.TRUE.equals(partial) || "true".equals(String.valueOf(partial))) {
      List<String> missing = SolrAdmin.unavailableShards(client, collection);
      String shards = missing.isEmpty() ? "a shard (unknown which)" : "shard(s) " + missing;
      if (!mayBePartial) {
        throw new IOException("Solr collection '" + collection + "': " + shards + " did not"
            + " answer (no live replica), so the " + what + " would be partial; bring the"
            + " node(s) back (openbook solr status shows the replica states)"
            + (failures.partialResults() ? "" : ", or set store.partialResults: true to search"
                + " the other shards, with a warning"));
      }
      LOG.warn("Solr collection '{}': {} did not answer; {} is partial", collection, shards,
          what);
      SearchCoverage.reportMissing(missing.isEmpty() ? List.of("unknown") : missing);
    }
    return r;
  }

  /**
   * Runs a SolrJ call, retrying transient failures as {@link SolrFailurePolicy} says.
   *
   * @throws IOException naming the collection, what was done, the attempts and the last cause
   */
  <T> T call(String what, SolrAdmin.SolrCall<T> call) throws IOException {
    int attempt = 0;
    long started = System.nanoTime();
    while (true) {
      try {
        return SolrAdmin.run(what + " in collection '" + collection + "'", call);
      } catch (IOException e) {
        int refused = SolrAdmin.httpStatus(e);
        if (refused == 401 || refused == 403) {
          throw SolrAdmin.refused(collection, user, what, refused, e);
        }
        if (!SolrAdmin.isTransient(e) || attempt == failures.retries()) {
          if (attempt == 0) {
            throw e;
          }
          throw new IOException(e.getMessage() + " (gave up after " + (attempt + 1)
              + " attempts over " + (System.nanoTime() - started) / 1_000_000 + " ms; the"
              + " cluster may be restarting a node: run again when every shard is active,"
              + " see openbook solr status)", e);
        }
        attempt++;
        Duration wait = failures.backoff(attempt);
        LOG.warn("Solr: {} in collection '{}' failed ({}); retry {} of {} in {} ms", what,
            collection, e.getMessage(), attempt, failures.retries(), wait.toMillis());
        try {
          Thread.sleep(wait.toMillis());
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted while retrying " + what);
        }
      }
    }
  }

  @Override
  public String toString() {
    return "SolrChunkStore[" + collection + ", " + settings + "]";
  }
}
