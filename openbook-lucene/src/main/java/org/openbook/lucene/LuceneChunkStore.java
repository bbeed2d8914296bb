package org.openbook.lucene;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import org.openbook.analysis.QueryTerms;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.DenseField;
import org.openbook.index.DocumentEntry;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;

/**
 * The embedded chunk store: one Lucene index directory holding, per chunk, a BM25 text field, an
 * HNSW vector field and the stored chunk (layout in {@link ChunkFields}).
 *
 * <ul>
 *   <li>BM25 is Lucene's {@link BM25Similarity} (k1 = 1.2, b = 0.75) over the chunk's embedText,
 *       analysed by the {@link TextAnalysis} the store was opened with; queries use the same
 *       analysis.</li>
 *   <li>Vectors are stored L2-normalised with DOT_PRODUCT, so the dense score is the cosine
 *       similarity; it is converted back from Lucene's {@code (1 + cos) / 2}.</li>
 *   <li>The {@link AccessFilter} is a pre-filter inside both routes (inside the HNSW search and a
 *       FILTER clause of the BM25 query), so it applies before top-N.</li>
 *   <li>The {@link IndexManifest} is commit user data, committed atomically with the chunks.</li>
 *   <li>The IndexWriter opens lazily on the first write, so a store used only for searching does
 *       not take the index's write lock. Changes become visible at {@link #commit()}; {@link
 *       #close()} discards uncommitted changes.</li>
 * </ul>
 * Searches are thread-safe and may run while another thread writes (a {@link SearcherManager}
 * serves the last commit); writes are serialised.
 */
public final class LuceneChunkStore
    implements IndexStore {

  private enum OpenMode { CREATE_OR_OPEN, EXISTING, RESET }

  private final Path dir;
  private final Directory directory;
  private final TextAnalysis analysis;
  private final IndexManifest settings;
  private final SearcherManager searchers;
  private final AtomicLong denseQueries = new AtomicLong();
  private final AtomicLong denseSegments = new AtomicLong();
  private final AtomicLong exactSegments = new AtomicLong();
  private final AtomicLong fallbacks = new AtomicLong();
  private final AtomicLong fallbackNanos = new AtomicLong();
  private volatile IndexManifest committed;
  /** Candidates of each HNSW search; 0 = as many as the caller's top-N (Lucene's k). */
  private volatile int efSearch;
  /** Whether segment graph searches share one top-k (Lucene's default), see CountingKnnQuery. */
  private volatile boolean crossSegmentPruning = true;
  private IndexWriter writer;

  /**
   * Threads on which one query's segments are searched side by side (Lucene's {@link
   * IndexSearcher#IndexSearcher(org.apache.lucene.index.IndexReader, Executor) searcher
   * executor}: the HNSW search of each segment, and BM25 over slices of segments). An index of
   * many segments is one graph search per segment, so on a machine with spare cores a query's
   * dense route takes about the time of its slowest slice instead of the sum (docs/PERFORMANCE.md,
   * "Routes and segments in parallel"). One pool of daemon threads, as many as cores, for every
   * store of the JVM.
   */
  private static final Executor SEGMENT_THREADS = Executors.newFixedThreadPool(
      Runtime.getRuntime().availableProcessors(), r -> {
        Thread t = new Thread(r, "openbook-segment-search");
        t.setDaemon(true);
        return t;
      });

  private static final SearcherFactory SEGMENT_SEARCHERS = new SearcherFactory() {
    @Override
    public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
      return new IndexSearcher(reader, SEGMENT_THREADS);
    }
  };

  private LuceneChunkStore(Path dir, Directory directory, IndexManifest settings,
      TextAnalysis analysis) throws IOException {
    this.dir = dir;
    this.directory = directory;
    this.settings = settings;
    this.analysis = analysis;
    this.searchers = new SearcherManager(directory, SEGMENT_SEARCHERS);
    this.committed = searchedManifest();
  }

  /**
   * The manifest of the commit the current searcher reads, not of the latest commit: a writer in
   * another process may commit in between, and manifest and searches must describe the same
   * snapshot.
   */
  private IndexManifest searchedManifest() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return ManifestCodec.read(
          ((DirectoryReader) s.getIndexReader()).getIndexCommit().getUserData(), dir);
    } finally {
      searchers.release(s);
    }
  }

  /**
   * Moves searches and {@link #manifest()} to the latest commit, e.g. one made by an ingest in
   * another process; until then they keep serving the snapshot they had (a reader never sees a
   * half-written ingest). Blocks while another refresh runs.
   *
   * @return whether a newer commit was found
   */
  public synchronized boolean refresh() throws IOException {
    searchers.maybeRefreshBlocking();
    IndexManifest now = searchedManifest();
    boolean changed = !now.equals(committed);
    committed = now;
    return changed;
  }

  /**
   * Opens the index at {@code dir}, creating an empty one (and the folder) if there is none.
   *
   * @param expected what this run embeds and analyses with: model, dimension, metric (must be
   *                 {@link IndexManifest#COSINE}), analyzer id (must equal {@code
   *                 analysis.id()}) and chunker; its counts are ignored; its {@link
   *                 IndexManifest#hnsw() HNSW graph parameters} apply to a new index only (an
   *                 existing one keeps its own, see {@link org.openbook.index.HnswGraph})
   * @throws IndexMismatchException if the index was built with another model, dimension, metric
   *     or analyzer (the message says how to rebuild with {@code --reset})
   * @throws FileAlreadyExistsException if {@code dir} holds other files but no index
   * @throws IOException if the index cannot be read or created
   */
  public static LuceneChunkStore open(Path dir, IndexManifest expected, TextAnalysis analysis)
      throws IOException {
    return open(dir, expected, analysis, OpenMode.CREATE_OR_OPEN, UnaryOperator.identity());
  }

  /**
   * Opens an existing index, e.g. for searching; never creates one.
   *
   * @throws NoSuchFileException if {@code dir} holds no index (the message says how to build one)
   * @throws IndexMismatchException as for {@link #open}
   */
  public static LuceneChunkStore openExisting(Path dir, IndexManifest expected,
      TextAnalysis analysis) throws IOException {
    return open(dir, expected, analysis, OpenMode.EXISTING, UnaryOperator.identity());
  }

  /**
   * As {@link #openExisting}, with every directory operation of the store going through {@code
   * wrapper}'s directory: the fault hook of the contract tests, which kill the writer at each
   * file operation to show that a reader only ever sees whole commits.
   */
  static LuceneChunkStore openExisting(Path dir, IndexManifest expected, TextAnalysis analysis,
      UnaryOperator<Directory> wrapper) throws IOException {
    return open(dir, expected, analysis, OpenMode.EXISTING, wrapper);
  }

  /**
   * Creates a fresh, empty index at {@code dir}, replacing an existing one ({@code --reset}).
   * Lucene replaces the old index in one commit; files that are not Lucene's are not touched.
   *
   * @throws FileAlreadyExistsException if {@code dir} holds other files but no index
   */
  public static LuceneChunkStore create(Path dir, IndexManifest expected, TextAnalysis analysis)
      throws IOException {
    return open(dir, expected, analysis, OpenMode.RESET, UnaryOperator.identity());
  }

  /**
   * The manifest committed in the index at {@code dir}, or empty if it holds no index. Opens
   * nothing for writing.
   *
   * @throws IndexMismatchException if the index has no readable OpenBook manifest
   */
  public static Optional<IndexManifest> readManifest(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (FSDirectory d = FSDirectory.open(dir)) {
      return DirectoryReader.indexExists(d)
          ? Optional.of(IndexFolder.readManifest(d, dir))
          : Optional.empty();
    }
  }

  private static LuceneChunkStore open(Path dir, IndexManifest expected, TextAnalysis analysis,
      OpenMode mode, UnaryOperator<Directory> wrapper) throws IOException {
    Objects.requireNonNull(dir, "dir");
    checkSettings(expected, analysis);
    if (mode == OpenMode.EXISTING && !Files.isDirectory(dir)) {
      throw IndexFolder.noIndex(dir);
    }
    Files.createDirectories(dir);
    Directory directory = wrapper.apply(FSDirectory.open(dir));
    try {
      boolean exists = DirectoryReader.indexExists(directory);
      if (!exists && mode == OpenMode.EXISTING) {
        throw IndexFolder.noIndex(dir);
      }
      if (!exists) {
        IndexFolder.refuseForeignFiles(dir);
      }
      IndexManifest effective = expected;
      if (!exists || mode == OpenMode.RESET) {
        IndexFolder.initialise(directory, dir, expected, analysis);
      } else {
        IndexManifest onDisk = IndexFolder.readManifest(directory, dir);
        onDisk.requireCompatible(expected);
        // the index keeps the graph parameters it was built with (HnswGraph): one graph kind
        effective = expected.withHnsw(onDisk.hnsw());
      }
      return new LuceneChunkStore(dir, directory, effective, analysis);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(directory);
      throw e;
    }
  }

  private static void checkSettings(IndexManifest expected, TextAnalysis analysis) {
    Objects.requireNonNull(expected, "expected");
    expected.requireUsable(analysis, "Lucene");
    int max = KnnVectorsFormat.DEFAULT_MAX_DIMENSIONS;
    if (expected.dimension() < 1 || expected.dimension() > max) {
      throw new IllegalArgumentException(
          "dimension " + expected.dimension() + " is outside 1.." + max);
    }
    for (DenseField f : expected.denseFields()) {
      if (f.dimension() > max) {
        throw new IllegalArgumentException("dense field '" + f.name() + "': dimension "
            + f.dimension() + " is outside 1.." + max);
      }
    }
  }

  /** The index folder. */
  public Path path() {
    return dir;
  }

  /** The committed manifest, with the document and chunk counts of the last commit. */
  @Override
  public IndexManifest manifest() {
    return committed;
  }

  @Override
  public long count() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return s.getIndexReader().numDocs();
    } finally {
      searchers.release(s);
    }
  }

  /**
   * Chunks with a BM25 text field that {@code filter} allows, in the searched snapshot (a count
   * query: deleted chunks do not count).
   */
  @Override
  public long docCount(AccessFilter filter) throws IOException {
    return countAllowed(new FieldExistsQuery(ChunkFields.TEXT), filter);
  }

  /**
   * Chunks {@code filter} allows whose BM25 text field holds {@code term}: a count query, so,
   * unlike Lucene's index-wide {@code docFreq} (which BM25's own IDF uses), it says nothing about
   * departments outside the filter.
   */
  @Override
  public long docFreq(String term, AccessFilter filter) throws IOException {
    return countAllowed(new TermQuery(new Term(ChunkFields.TEXT, term)), filter);
  }

  private long countAllowed(Query what, AccessFilter filter) throws IOException {
    if (filter.departments().isEmpty()) {
      return 0;
    }
    Query q = new BooleanQuery.Builder().add(what, BooleanClause.Occur.FILTER)
        .add(departments(filter), BooleanClause.Occur.FILTER).build();
    IndexSearcher s = searchers.acquire();
    try {
      return s.count(q);
    } finally {
      searchers.release(s);
    }
  }

  @Override
  public Optional<Chunk> get(String chunkId) throws IOException {
    List<ScoredChunk> hit = search(new TermQuery(new Term(ChunkFields.ID, chunkId)), 1, false);
    return hit.stream().findFirst().map(ScoredChunk::chunk);
  }

  /** {@inheritDoc} The departments are a filter clause of the id query. */
  @Override
  public Optional<Chunk> get(String chunkId, AccessFilter filter) throws IOException {
    Query q = new BooleanQuery.Builder()
        .add(new TermQuery(new Term(ChunkFields.ID, chunkId)), BooleanClause.Occur.MUST)
        .add(departments(filter), BooleanClause.Occur.FILTER)
        .build();
    return search(q, 1, false).stream().findFirst().map(ScoredChunk::chunk);
  }

  /**
   * Ids of every chunk in the last commit this store sees, sorted; with {@link #count()} and the
   * dense and BM25 routes it lets tests and tools check that the routes agree.
   */
  public List<String> chunkIds() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return List.copyOf(IndexStats.liveTerms(s.getIndexReader(), ChunkFields.ID));
    } finally {
      searchers.release(s);
    }
  }

  /**
   * Takes the index's write lock now instead of at the first write, so that a second ingest
   * fails before it does any work. Idempotent.
   *
   * @throws IOException "another ingest is writing to &lt;path&gt;" when another writer (in this
   *     or another process) holds the lock
   */
  public synchronized void lockForWriting() throws IOException {
    writer();
  }

  /** Ids of the documents with at least one chunk in the last commit, sorted. */
  public List<String> documentIds() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return List.copyOf(IndexStats.liveTerms(s.getIndexReader(), ChunkFields.DOC_ID));
    } finally {
      searchers.release(s);
    }
  }

  /**
   * Every document id of the last commit mapped to the {@code contentHash} meta of its chunks
   * (the empty string if they have none), sorted by id.
   */
  @Override
  public Map<String, String> documentHashes() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return Collections.unmodifiableMap(IndexStats.contentHashes(s.getIndexReader()));
    } finally {
      searchers.release(s);
    }
  }

  /** {@inheritDoc} Read from the last commit's stored chunk metadata. */
  @Override
  public List<DocumentEntry> documents() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return List.copyOf(IndexStats.documents(s.getIndexReader()));
    } finally {
      searchers.release(s);
    }
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException if {@code topN < 1} or the vector's length differs from the
   *     index dimension, or it is zero or not finite
   */
  @Override
  public List<ScoredChunk> searchDense(float[] queryVector, int topN, AccessFilter filter)
      throws IOException {
    return searchVectors(ChunkFields.VECTOR, settings.dimension(), "query", queryVector, topN,
        filter);
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException also if {@code topN < 1}, or the vector is zero or not
   *     finite
   */
  @Override
  public List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
      AccessFilter filter) throws IOException {
    DenseField f = settings.denseField(field).orElseThrow(() -> new IllegalArgumentException(
        "the index has no dense field '" + field + "'; it has " + settings.denseFields()));
    return searchVectors(ChunkFields.vectorField(f.name()), f.dimension(), "query (" + field + ")",
        queryVector, topN, filter);
  }

  private List<ScoredChunk> searchVectors(String luceneField, int dimension, String what,
      float[] queryVector, int topN, AccessFilter filter) throws IOException {
    requireTopN(topN);
    float[] unit = ChunkFields.unitVector(queryVector, dimension, what);
    if (filter.departments().isEmpty()) {
      return List.of();
    }
    // Only chunks with a vector in this field count (not every chunk has a secondary vector).
    Query allowed = new BooleanQuery.Builder()
        .add(departments(filter), BooleanClause.Occur.FILTER)
        .add(new FieldExistsQuery(luceneField), BooleanClause.Occur.FILTER)
        .build();
    IndexSearcher s = searchers.acquire();
    try {
      denseQueries.incrementAndGet();
      denseSegments.addAndGet(s.getIndexReader().leaves().size());
      int k = candidates(topN);
      ScoreDoc[] docs = s.search(
          new CountingKnnQuery(luceneField, unit, k, allowed, exactSegments,
              crossSegmentPruning), k).scoreDocs;
      if (docs.length > topN) {
        docs = java.util.Arrays.copyOf(docs, topN); // sorted by score: the best topN
      }
      if (docs.length < topN && s.count(allowed) > docs.length) {
        // HNSW missed documents the filter allows (e.g. a graph split by duplicate vectors)
        long t0 = System.nanoTime();
        docs = ExactVectorSearch.topN(s, luceneField, allowed, unit, topN);
        fallbacks.incrementAndGet();
        fallbackNanos.addAndGet(System.nanoTime() - t0);
      }
      return toScored(s, docs, true);
    } finally {
      searchers.release(s);
    }
  }

  /**
   * Sets how many nearest neighbours each later dense search asks the HNSW graphs for (the k of
   * Lucene's {@code KnnFloatVectorQuery}, "efSearch" in the HNSW paper): {@code max(topN,
   * efSearch)}, of which the best {@code topN} are returned. A larger value explores more of each
   * graph, so recall rises and so does the search time; only the returned {@code topN} chunks are
   * read. Until set, the search asks for exactly {@code topN}. Thread-safe; searches already
   * running keep their value.
   *
   * @param efSearch ≥ 1
   * @throws IllegalArgumentException if {@code efSearch < 1}
   */
  public void setEfSearch(int efSearch) {
    if (efSearch < 1) {
      throw new IllegalArgumentException("efSearch must be >= 1, got " + efSearch);
    }
    this.efSearch = efSearch;
  }

  /**
   * Whether the HNSW searches of the index's segments share one global top-k and stop early
   * against it (Lucene 9.10+'s default, {@code true} until set) or each search its own graph for
   * the full top-k ({@code false}): more of the true neighbours on an index of many segments, at
   * more graph visits per search (measured in docs/PERFORMANCE.md, section 5). Thread-safe.
   */
  public void setCrossSegmentPruning(boolean crossSegmentPruning) {
    this.crossSegmentPruning = crossSegmentPruning;
  }

  /** The value of {@link #setCrossSegmentPruning}. */
  public boolean crossSegmentPruning() {
    return crossSegmentPruning;
  }

  /** The value of {@link #setEfSearch}, 0 if never set. */
  public int efSearch() {
    return efSearch;
  }

  /** The candidates of a dense search for {@code topN} hits, see {@link #setEfSearch}. */
  public int candidates(int topN) {
    return Math.max(topN, efSearch);
  }

  /** How the dense searches of this store ran since it was opened (counts only; thread-safe). */
  public DenseSearchStats denseStats() {
    return new DenseSearchStats(denseQueries.get(), denseSegments.get(), exactSegments.get(),
        fallbacks.get(), fallbackNanos.get());
  }

  /**
   * {@inheritDoc}
   *
   * <p>The query is analysed like the chunks; each distinct token is one optional term clause
   * (at most {@link IndexSearcher#getMaxClauseCount()} - 1 of them, the rest ignored), at least one
   * must match. A query without tokens returns nothing.
   *
   * @throws IllegalArgumentException if {@code topN < 1}
   */
  @Override
  public List<ScoredChunk> searchSparse(String queryText, int topN, AccessFilter filter)
      throws IOException {
    requireTopN(topN);
    List<TermClause> clauses = termClauses(queryText);
    if (clauses.isEmpty() || filter.departments().isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    for (TermClause c : clauses) {
      Query term = new TermQuery(c.term());
      q.add(c.weight() == 1.0f ? term : new BoostQuery(term, c.weight()),
          BooleanClause.Occur.SHOULD);
    }
    q.add(departments(filter), BooleanClause.Occur.FILTER);
    // Without this a FILTER clause alone would match every permitted chunk with score 0.
    q.setMinimumNumberShouldMatch(1);
    return search(q.build(), topN, false).stream().filter(h -> h.score() > 0).toList();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Computed from the same term clauses as {@link #searchSparse} and the index-wide term
   * statistics BM25 uses: {@code Σ weight · ln(1 + (N − df + 0.5) / (df + 0.5))}, N = chunks
   * with the field, df = chunks with the term in it (0 for a term in none).
   */
  @Override
  public double maxSparseScore(String queryText) throws IOException {
    List<TermClause> clauses = termClauses(queryText);
    IndexSearcher s = searchers.acquire();
    try {
      double max = 0;
      for (TermClause c : clauses) {
        long docCount = s.getIndexReader().getDocCount(c.term().field());
        if (docCount == 0) {
          continue;
        }
        long docFreq = s.getIndexReader().docFreq(c.term());
        max += c.weight() * Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
      }
      return max;
    } finally {
      searchers.release(s);
    }
  }

  /** One optional term clause of a BM25 query, with its weight. */
  private record TermClause(Term term, float weight) {}

  /**
   * The BM25 query's clauses for {@code queryText}: each {@link QueryTerms} term on the text
   * field and on the heading field, within Lucene's clause limit (one clause is kept for the
   * department filter).
   */
  private List<TermClause> termClauses(String queryText) {
    List<TermClause> out = new ArrayList<>();
    int room = IndexSearcher.getMaxClauseCount() - 1;
    for (QueryTerms.WeightedTerm t : QueryTerms.of(analysis, queryText)) {
      // A term found in the heading path scores again: a passage whose heading names the
      // query's subject (e.g. "ERR_4517") beats one that mentions it in passing.
      for (String field : new String[] {ChunkFields.TEXT, ChunkFields.HEADING}) {
        if (room-- <= 0) {
          return out;
        }
        out.add(new TermClause(new Term(field, t.term()), t.weight()));
      }
    }
    return out;
  }

  private static void requireTopN(int topN) {
    if (topN < 1) {
      throw new IllegalArgumentException("topN must be >= 1, was " + topN);
    }
  }

  private static Query departments(AccessFilter filter) {
    List<BytesRef> depts = filter.departments().stream().map(BytesRef::new).toList();
    return new TermInSetQuery(ChunkFields.DEPT, depts);
  }

  private List<ScoredChunk> search(Query query, int topN, boolean dense) throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return toScored(s, s.search(query, topN).scoreDocs, dense);
    } finally {
      searchers.release(s);
    }
  }

  private static List<ScoredChunk> toScored(IndexSearcher s, ScoreDoc[] docs, boolean dense)
      throws IOException {
    StoredFields stored = s.storedFields();
    List<ScoredChunk> out = new ArrayList<>(docs.length);
    for (int i = 0; i < docs.length; i++) {
      Chunk chunk = ChunkFields.toChunk(stored.document(docs[i].doc));
      double score = dense ? ChunkFields.cosineFromScore(docs[i].score) : docs[i].score;
      out.add(new ScoredChunk(chunk, i + 1, score));
    }
    return out;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Deletion of the old chunks and addition of the new ones are one atomic Lucene update.
   *
   * @throws IllegalArgumentException naming the chunk if a chunk belongs to another document or
   *     its vector is unusable (see {@link #searchDense}); nothing is changed then
   */
  @Override
  public synchronized void replaceDocument(String docId, List<EmbeddedChunk> chunks)
      throws IOException {
    Objects.requireNonNull(docId, "docId");
    List<Document> docs = new ArrayList<>(chunks.size());
    for (EmbeddedChunk ec : chunks) {
      if (!docId.equals(ec.chunk().docId())) {
        throw new IllegalArgumentException("chunk " + ec.chunk().id() + " belongs to document '"
            + ec.chunk().docId() + "', not '" + docId + "'");
      }
      docs.add(ChunkFields.toDocument(ec, settings));
    }
    Term term = new Term(ChunkFields.DOC_ID, docId);
    if (docs.isEmpty()) {
      writer().deleteDocuments(term);
    } else {
      writer().updateDocuments(term, docs);
    }
  }

  @Override
  public synchronized void deleteDocument(String docId) throws IOException {
    writer().deleteDocuments(new Term(ChunkFields.DOC_ID, Objects.requireNonNull(docId)));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Counts documents and chunks, stores them with this run's settings as the manifest in the
   * same Lucene commit, then refreshes the searchers. Does nothing if nothing was written.
   */
  @Override
  public synchronized void commit() throws IOException {
    if (writer == null || !writer.hasUncommittedChanges()) {
      return;
    }
    long chunks;
    long documents;
    try (DirectoryReader pending = DirectoryReader.open(writer)) {
      chunks = pending.numDocs();
      documents = IndexStats.liveTerms(pending, ChunkFields.DOC_ID).size();
    }
    IndexManifest manifest = IndexFolder.withCounts(settings, documents, chunks);
    writer.setLiveCommitData(ManifestCodec.userData(manifest).entrySet());
    writer.commit();
    searchers.maybeRefreshBlocking();
    committed = manifest;
  }

  /**
   * Merges the index down to at most {@code maxSegments} segments and commits (Lucene's {@link
   * IndexWriter#forceMerge}), with the manifest unchanged. Each segment has an HNSW graph of its
   * own that every dense search walks, so after a bulk ingest fewer, larger segments make the
   * dense route faster; on a corpus of many near-duplicate vectors one large graph also found
   * fewer of the true neighbours than 22 segments did (docs/PERFORMANCE.md, section 5b). Merging
   * costs about as much as building the graphs again and needs up to twice the index's size on
   * disk for a while. Uncommitted changes are committed with it. Searches go on meanwhile and see the merged
   * index afterwards.
   *
   * @param maxSegments ≥ 1
   * @throws IllegalArgumentException if {@code maxSegments < 1}
   * @throws IOException if another process holds the write lock or the merge fails (the index
   *     keeps its last commit)
   */
  public synchronized void forceMerge(int maxSegments) throws IOException {
    if (maxSegments < 1) {
      throw new IllegalArgumentException("maxSegments must be >= 1, got " + maxSegments);
    }
    writer().forceMerge(maxSegments);
    commit(); // a merge is an uncommitted change; nothing to commit if nothing was merged
  }

  /** Segments of the snapshot searches read (each holds its own HNSW graph). */
  public int segmentCount() throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      return s.getIndexReader().leaves().size();
    } finally {
      searchers.release(s);
    }
  }

  /** Closes the store; changes not committed are discarded. */
  @Override
  public synchronized void close() throws IOException {
    IOUtils.close(writer, searchers, directory);
    writer = null;
  }

  private IndexWriter writer() throws IOException {
    if (writer == null) {
      writer = IndexFolder.newWriter(
          directory, dir, analysis, settings, IndexWriterConfig.OpenMode.APPEND);
    }
    return writer;
  }

  @Override
  public String toString() {
    return "LuceneChunkStore[" + dir + ", " + committed + "]";
  }
}
