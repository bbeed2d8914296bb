package org.openbook.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.openbook.analysis.TextAnalysis;
import org.openbook.engine.config.Settings;
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
final class StoreFactory {

  private StoreFactory() {}

  /**
   * Opens the configured store.
   *
   * @param store    the {@code store} settings (Lucene: the HNSW graph parameters of a new index
   *                 and the dense search's efSearch and cross-segment pruning)
   * @param index    the index folder (Lucene's index; unused by Solr)
   * @param expected model, dimension, analyzer and chunker of this run (counts ignored)
   * @param mode     read, write (Lucene's write lock taken at once) or reset (emptied first)
   * @throws org.openbook.index.IndexMismatchException if the index was built with other settings
   * @throws IOException if the index is missing (READ), locked by another ingest, or Solr cannot
   *     be reached or refuses
   */
  static IndexStore open(Settings.Store store, Path index, IndexManifest expected,
      TextAnalysis analysis, OpenBook.Mode mode) throws IOException {
    return store.isSolr()
        ? openSolr(store.solr().orElseThrow(), expected, analysis, mode)
        : openLucene(index, expected.withHnsw(store.hnsw()), analysis, mode, store);
  }

  /**
   * The analyzer id recorded in the manifest of the existing index ({@code index} for Lucene, the
   * configured collection for Solr), or empty when there is no index yet.
   *
   * @throws IOException if the index cannot be read or Solr cannot be reached
   */
  static Optional<String> recordedAnalyzer(Settings.Store store, Path index) throws IOException {
    if (!store.isSolr()) {
      return LuceneChunkStore.readManifest(index).map(IndexManifest::analyzer);
    }
    SolrStoreConfig config = store.solr().orElseThrow();
    try {
      return SolrChunkStore.readManifest(config).map(IndexManifest::analyzer);
    } catch (IOException e) {
      throw cannotOpen(config, e);
    }
  }

  private static IndexStore openLucene(Path index, IndexManifest expected, TextAnalysis analysis,
      OpenBook.Mode mode, Settings.Store settings) throws IOException {
    LuceneChunkStore s = switch (mode) {
      case READ -> LuceneChunkStore.openExisting(index, expected, analysis);
      case WRITE -> LuceneChunkStore.open(index, expected, analysis);
      case RESET -> LuceneChunkStore.create(index, expected, analysis);
    };
    s.setEfSearch(settings.efSearch());
    s.setCrossSegmentPruning(settings.crossSegmentPruning());
    if (mode != OpenBook.Mode.READ) {
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
      TextAnalysis analysis, OpenBook.Mode mode) throws IOException {
    try {
      return openSolrOrFail(config, expected, analysis, mode);
    } catch (IOException e) {
      throw cannotOpen(config, e);
    }
  }

  private static IOException cannotOpen(SolrStoreConfig config, IOException e) {
    // SolrJ's messages name the node URL but not the collection or the config that chose it.
    return new IOException("store: cannot open Solr collection '" + config.collection()
        + "' (" + config + "): " + e.getMessage(), e);
  }

  private static IndexStore openSolrOrFail(SolrStoreConfig config, IndexManifest expected,
      TextAnalysis analysis, OpenBook.Mode mode) throws IOException {
    if (mode == OpenBook.Mode.READ) {
      return SolrChunkStore.openExisting(config, expected, analysis);
    }
    if (mode == OpenBook.Mode.RESET) {
      try (var client = config.newClient()) {
        SolrAdmin admin = new SolrAdmin(client);
        if (admin.exists(config.collection())) {
          admin.clear(config.collection());
          // Re-upload the configset: the new run may embed with other models (dimensions, dense
          // fields); its schema is the one the store writes for this run's manifest.
          admin.init(config.collection(), config.shards(), config.replicas(), expected);
        }
      }
    }
    return SolrChunkStore.open(config, expected, analysis);
  }
}
