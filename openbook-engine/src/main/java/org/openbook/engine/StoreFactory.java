package org.openbook.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.openbook.analysis.TextAnalysis;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexStore;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.solr.SolrAdmin;
import org.openbook.solr.SolrChunkStore;
import org.openbook.solr.SolrStoreConfig;

/**
 * Opens the index the configuration names ({@code store.type}):
 *
 * <ul>
 *   <li>{@code lucene} (default): the embedded index in the {@code --index} folder.</li>
 *   <li>{@code solr}: the SolrCloud collection of the {@code store} section. The {@code --index}
 *       folder then holds only local state (the embedding cache); the chunks live in Solr.</li>
 * </ul>
 */
public final class StoreFactory {

  /** Environment variable that overrides {@code store.password}. */
  public static final String PASSWORD_ENV = "OPENBOOK_SOLR_PASSWORD";

  /** What the caller will do with the store. */
  public enum Mode {
    /** Search an existing index; nothing is created. */
    READ,
    /** Ingest: the index is created if absent; Lucene's write lock is taken at once. */
    WRITE,
    /** Ingest from scratch: the index is emptied first ({@code --reset}). */
    RESET
  }

  private StoreFactory() {}

  /**
   * Opens the configured store.
   *
   * @param store    the {@code store} section
   * @param index    the {@code --index} folder (Lucene's index; unused by Solr)
   * @param expected model, dimension, analyzer and chunker of this run (counts ignored)
   * @param env      the environment ({@value #PASSWORD_ENV})
   * @throws IllegalArgumentException naming the {@code store.*} key that is missing or invalid
   * @throws org.openbook.index.IndexMismatchException if the index was built with other settings
   * @throws IOException if the index is missing (READ), locked by another ingest, or Solr cannot
   *     be reached or refuses
   */
  public static IndexStore open(OpenBookConfig.Store store, Path index, IndexManifest expected,
      TextAnalysis analysis, Mode mode, Map<String, String> env) throws IOException {
    return store.isSolr()
        ? openSolr(solrConfig(store, env), expected, analysis, mode)
        : openLucene(index, expected, analysis, mode);
  }

  private static IndexStore openLucene(Path index, IndexManifest expected, TextAnalysis analysis,
      Mode mode) throws IOException {
    LuceneChunkStore s = switch (mode) {
      case READ -> LuceneChunkStore.openExisting(index, expected, analysis);
      case WRITE -> LuceneChunkStore.open(index, expected, analysis);
      case RESET -> LuceneChunkStore.create(index, expected, analysis);
    };
    if (mode != Mode.READ) {
      try {
        s.lockForWriting(); // a second ingest fails here, before any work
      } catch (IOException | RuntimeException e) {
        s.close();
        throw e;
      }
    }
    return s;
  }

  private static IndexStore openSolr(SolrStoreConfig config, IndexManifest expected,
      TextAnalysis analysis, Mode mode) throws IOException {
    try {
      return openSolrOrFail(config, expected, analysis, mode);
    } catch (IOException e) {
      // SolrJ's messages name the node URL but not the collection or the config that chose it.
      throw new IOException("store: cannot open Solr collection '" + config.collection()
          + "' (" + config + "): " + e.getMessage(), e);
    }
  }

  private static IndexStore openSolrOrFail(SolrStoreConfig config, IndexManifest expected,
      TextAnalysis analysis, Mode mode) throws IOException {
    if (mode == Mode.READ) {
      return SolrChunkStore.openExisting(config, expected, analysis);
    }
    if (mode == Mode.RESET) {
      try (var client = config.newClient()) {
        SolrAdmin admin = new SolrAdmin(client);
        if (admin.exists(config.collection())) {
          admin.clear(config.collection());
          // Re-upload the configset: the new run may embed with another vector dimension.
          admin.init(config.collection(), config.shards(), config.replicas(),
              expected.dimension());
        }
      }
    }
    return SolrChunkStore.open(config, expected, analysis);
  }

  /**
   * The SolrJ settings of a {@code store: solr} section: shards default to 2 and replicas to 1
   * (used only when the collection is created); {@value #PASSWORD_ENV} overrides the password.
   *
   * @throws IllegalArgumentException naming the {@code store.*} key that is missing or invalid
   */
  public static SolrStoreConfig solrConfig(OpenBookConfig.Store store, Map<String, String> env) {
    String password = env.getOrDefault(PASSWORD_ENV, store.password());
    try {
      return new SolrStoreConfig(store.solrUrls(), store.zkHosts(), store.zkChroot(),
          store.collectionOr(), store.shards() == null ? 2 : store.shards(),
          store.replicas() == null ? 1 : store.replicas(), store.user(), password);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config " + e.getMessage()
          .replace("solr store: ", "store: ")
          .replace("(solrUrls)", "(store.solrUrls)").replace("(zkHosts)", "(store.zkHosts)"), e);
    }
  }
}
