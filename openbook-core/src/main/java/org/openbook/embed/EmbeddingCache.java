package org.openbook.embed;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A persistent map from (embedding model id, SHA-256 of the embedded text) to the vector, so a
 * text embedded once is never embedded again by the same model, e.g. when a document is
 * re-chunked or renamed, or the index is rebuilt with {@code --reset}.
 *
 * <p>Stored as a small Lucene index of its own (one document per entry: a keyword key field and
 * the vector as little-endian float bytes), which gives atomic, crash-safe commits for free: a
 * process killed before {@link #commit()} loses only the entries added since the last commit,
 * which merely cost a re-embedding. A cache that cannot be opened (corrupt, written by another
 * Lucene version, foreign files) is deleted and started empty, never an error. Entries are never
 * evicted; the cache grows by about {@code 4 × dimension} bytes per distinct text.
 *
 * <p>Not thread-safe beyond what {@code synchronized} gives; one writer per folder (Lucene's
 * write lock, which the index lock of the caller already guarantees).
 */
public final class EmbeddingCache implements Closeable {

  /** Name of the cache folder inside an index folder. */
  public static final String FOLDER_NAME = "embedding-cache";

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddingCache.class);
  private static final String KEY = "key";
  private static final String VECTOR = "vector";

  private final Path dir;
  private final FSDirectory directory;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  /** Entries added since the last commit; the searcher sees only committed ones. */
  private final Map<String, float[]> pending = new HashMap<>();
  private int hits;
  private int misses;

  private EmbeddingCache(Path dir, FSDirectory directory, IndexWriter writer) throws IOException {
    this.dir = dir;
    this.directory = directory;
    this.writer = writer;
    this.searchers = new SearcherManager(directory, null);
  }

  /**
   * Opens the cache in {@code dir}, creating it (and the folder) if absent. If what is there
   * cannot be opened, it is deleted, a warning is logged, and an empty cache is created.
   *
   * @throws IOException if even an empty cache cannot be created in {@code dir}
   */
  public static EmbeddingCache open(Path dir) throws IOException {
    try {
      return tryOpen(dir);
    } catch (IOException | RuntimeException e) {
      // A cache is only an optimisation: rebuild rather than fail the ingest.
      LOG.warn("embedding cache at {} is unusable ({}); starting an empty one", dir, e.toString());
      deleteContents(dir);
      return tryOpen(dir);
    }
  }

  private static EmbeddingCache tryOpen(Path dir) throws IOException {
    Files.createDirectories(dir);
    FSDirectory directory = FSDirectory.open(dir);
    IndexWriter writer = null;
    try {
      writer = new IndexWriter(directory, new IndexWriterConfig(new KeywordAnalyzer())
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
          .setCommitOnClose(false));
      if (!DirectoryReader.indexExists(directory)) {
        writer.commit(); // an empty first commit, so that a reader can open it
      }
      return new EmbeddingCache(dir, directory, writer);
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(writer, directory);
      throw e;
    }
  }

  private static void deleteContents(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      Files.deleteIfExists(dir);
      return;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.toList()) {
        if (Files.isDirectory(p)) {
          IOUtils.rm(p);
        } else {
          Files.delete(p);
        }
      }
    }
  }

  /** The cache key: {@code modelId + '/' + hex SHA-256 of the UTF-8 text}. */
  public static String key(String modelId, String text) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8));
      return modelId + "/" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM must provide SHA-256", e);
    }
  }

  /**
   * The vector stored for {@code text} under {@code modelId}, if any and if it has {@code
   * dimension} components (a vector of another length is treated as absent).
   */
  public synchronized Optional<float[]> get(String modelId, String text, int dimension)
      throws IOException {
    String key = key(modelId, text);
    float[] v = pending.get(key);
    if (v == null) {
      v = lookup(key);
    }
    if (v == null || v.length != dimension) {
      misses++;
      return Optional.empty();
    }
    hits++;
    return Optional.of(v.clone());
  }

  private float[] lookup(String key) throws IOException {
    IndexSearcher s = searchers.acquire();
    try {
      TopDocs top = s.search(new TermQuery(new Term(KEY, key)), 1);
      if (top.scoreDocs.length == 0) {
        return null;
      }
      BytesRef bytes = s.storedFields().document(top.scoreDocs[0].doc).getBinaryValue(VECTOR);
      if (bytes == null || bytes.length % Float.BYTES != 0) {
        return null;
      }
      float[] v = new float[bytes.length / Float.BYTES];
      ByteBuffer.wrap(bytes.bytes, bytes.offset, bytes.length).order(ByteOrder.LITTLE_ENDIAN)
          .asFloatBuffer().get(v);
      return v;
    } finally {
      searchers.release(s);
    }
  }

  /** Stores {@code vector} for {@code text} under {@code modelId}; durable after {@link #commit}. */
  public synchronized void put(String modelId, String text, float[] vector) throws IOException {
    String key = key(modelId, text);
    ByteBuffer buf = ByteBuffer.allocate(vector.length * Float.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN);
    buf.asFloatBuffer().put(vector);
    Document doc = new Document();
    doc.add(new StringField(KEY, key, Field.Store.NO));
    doc.add(new StoredField(VECTOR, buf.array()));
    writer.updateDocument(new Term(KEY, key), doc);
    pending.put(key, vector.clone());
  }

  /** Makes every entry added so far durable (one Lucene commit); cheap when nothing was added. */
  public synchronized void commit() throws IOException {
    if (pending.isEmpty()) {
      return;
    }
    writer.commit();
    searchers.maybeRefreshBlocking();
    pending.clear();
  }

  /** Lookups answered from the cache since it was opened. */
  public synchronized int hits() {
    return hits;
  }

  /** Lookups the cache could not answer since it was opened. */
  public synchronized int misses() {
    return misses;
  }

  /** Entries committed or pending. */
  public synchronized long size() {
    return writer.getDocStats().numDocs;
  }

  /** The cache folder. */
  public Path path() {
    return dir;
  }

  /** Commits pending entries and closes the cache. */
  @Override
  public synchronized void close() throws IOException {
    try {
      commit();
    } finally {
      IOUtils.close(searchers, writer, directory);
    }
  }
}
