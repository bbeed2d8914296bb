package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.ConfigYaml;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.solr.SolrStoreConfig;
import org.openbook.testing.HashEmbedder;

class StoreFactoryTest {

  @TempDir Path tmp;

  private OpenBookConfig yaml(String text) throws IOException {
    return ConfigYaml.read(tmp, text);
  }

  @Test
  void should_use_the_embedded_lucene_store_when_the_config_has_no_store_section()
      throws IOException {
    OpenBookConfig config = OpenBookConfig.defaults();
    assertThat(config.store().isSolr()).isFalse();
    try (OpenBook e = OpenBook.builder().index(tmp.resolve("index")).config(config)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.store()).isInstanceOf(LuceneChunkStore.class);
      assertThat(((LuceneChunkStore) e.store()).path()).isEqualTo(tmp.resolve("index"));
    }
  }

  @Test
  void should_read_the_solr_section_with_defaults_and_the_password_from_the_environment()
      throws IOException {
    OpenBookConfig config = yaml("""
        store:
          type: Solr
          solrUrls: [http://solr1:8983/solr, http://solr2:8983/solr]
          user: openbook
          password: from-file
        """);
    SolrStoreConfig solr = config.resolve(Map.of(OpenBookConfig.Store.PASSWORD_ENV, "from-env"))
        .store().solr().orElseThrow();
    assertThat(solr).isEqualTo(new SolrStoreConfig(
        List.of("http://solr1:8983/solr", "http://solr2:8983/solr"), List.of(), null, "openbook",
        2, 1, "openbook", "from-env"));
    assertThat(config.resolve(Map.of()).store().solr().orElseThrow().password())
        .isEqualTo("from-file");
    assertThat(config.store().toString()).doesNotContain("from-file");
  }

  @Test
  void should_read_failure_and_tls_keys_with_passwords_from_the_environment() throws IOException {
    Path trust = Files.writeString(tmp.resolve("trust.p12"), "not read here");
    OpenBookConfig config = yaml("""
        store:
          type: solr
          solrUrls: [https://solr1:8983/solr]
          partialResults: true
          retries: 3
          retryBackoffMillis: 200
          tls: {trustStore: %s, trustStorePassword: from-file}
        """.formatted(trust));
    SolrStoreConfig solr = config.resolve(
        Map.of(OpenBookConfig.Store.TRUSTSTORE_PASSWORD_ENV, "trust-env"))
        .store().solr().orElseThrow();

    assertThat(solr.failures()).isEqualTo(new org.openbook.solr.SolrFailurePolicy(3,
        java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(8), true));
    assertThat(solr.tls()).isEqualTo(
        new org.openbook.solr.SolrTls(trust.toString(), "trust-env", null, null));
    assertThat(solr.toString()).doesNotContain("trust-env").doesNotContain("from-file");
    assertThat(yaml("store: {type: solr, solrUrls: [http://a:8983/solr]}\n")
        .resolve(Map.of()).store().solr().orElseThrow().failures())
        .isEqualTo(org.openbook.solr.SolrFailurePolicy.DEFAULT);
  }

  @Test
  void should_name_the_tls_key_whose_file_is_missing() throws IOException {
    OpenBookConfig config = yaml("store: {type: solr, solrUrls: [https://a:8983/solr],"
        + " tls: {trustStore: /nowhere/trust.p12}}\n");
    assertThatThrownBy(() -> config.resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("store.tls.trustStore: file /nowhere/trust.p12 does not exist");
  }

  @Test
  void should_name_the_store_keys_when_neither_solr_urls_nor_zookeeper_hosts_are_given()
      throws IOException {
    OpenBookConfig config = yaml("store: {type: solr, collection: kb}\n");
    assertThatThrownBy(() -> config.resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config store: give either Solr URLs (store.solrUrls) or ZooKeeper hosts"
            + " (store.zkHosts), not neither");
  }

  @Test
  void should_reject_an_unknown_store_type_naming_the_field() {
    assertThatThrownBy(() -> yaml("store: {type: elastic}\n"))
        .isInstanceOf(ConfigLoader.ConfigException.class)
        .hasMessageContaining("store")
        .hasMessageContaining("store.type must be 'lucene' or 'solr', got 'elastic'");
  }

  @Test
  void should_fail_with_the_collection_name_when_solr_cannot_be_reached() throws IOException {
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once.
    OpenBookConfig config = yaml("""
        store: {type: solr, solrUrls: ["http://127.0.0.1:9/solr"], collection: kb}
        """);
    assertThatThrownBy(() -> OpenBook.builder().index(tmp.resolve("state")).config(config)
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.READ).build())
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("store: cannot open Solr collection 'kb'")
        .hasMessageContaining("http://127.0.0.1:9/solr");
  }

  @Test
  void should_build_the_index_with_the_configured_vector_encoding_and_refuse_another_later()
      throws IOException {
    OpenBookConfig int8 = yaml("store: {lucene: {vectorEncoding: INT8}}\n");
    assertThat(int8.resolve(Map.of()).store().vectorEncoding())
        .isEqualTo(org.openbook.index.VectorEncoding.INT8);
    assertThat(OpenBookConfig.defaults().resolve(Map.of()).store().vectorEncoding())
        .isEqualTo(org.openbook.index.VectorEncoding.FLOAT32);
    Path index = tmp.resolve("index");
    try (OpenBook e = OpenBook.builder().index(index).config(int8).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.RESET).build()) {
      assertThat(e.store().manifest().vectorEncoding()).isEqualTo("int8");
    }

    assertThatThrownBy(() -> OpenBook.builder().index(index).config(OpenBookConfig.defaults())
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build())
        .isInstanceOf(org.openbook.index.IndexMismatchException.class)
        .hasMessageContaining("vector encoding: index has 'int8', this run uses 'float32'")
        .hasMessageContaining("--reset");
  }

  @Test
  void should_reject_an_unknown_vector_encoding_or_one_for_solr_naming_the_field()
      throws IOException {
    assertThatThrownBy(() -> yaml("store: {lucene: {vectorEncoding: int16}}\n")
        .resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config store.lucene.vectorEncoding must be one of float32, int8, int4,"
            + " got 'int16'");
    OpenBookConfig solr = yaml("""
        store: {type: solr, solrUrls: ["http://127.0.0.1:9/solr"], lucene: {vectorEncoding: int4}}
        """);
    assertThatThrownBy(() -> solr.resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("store.lucene.vectorEncoding: int4 applies to the embedded Lucene"
            + " index only");
  }

  @Test
  void should_default_the_hnsw_settings_to_the_measured_values() {
    Settings.Store store = OpenBookConfig.defaults().resolve(Map.of()).store();

    assertThat(store.hnsw()).isEqualTo(new org.openbook.index.HnswGraph(
        OpenBookConfig.Hnsw.DEFAULT_M, OpenBookConfig.Hnsw.DEFAULT_BEAM_WIDTH));
    assertThat(store.efSearch()).isEqualTo(OpenBookConfig.Hnsw.DEFAULT_EF_SEARCH);
    assertThat(store.crossSegmentPruning())
        .isEqualTo(OpenBookConfig.Hnsw.DEFAULT_CROSS_SEGMENT_PRUNING);
  }

  @Test
  void should_build_a_new_index_with_the_configured_graph_and_search_it_with_its_ef_search()
      throws IOException {
    OpenBookConfig config = yaml("store: {lucene: {hnsw: {m: 24, beamWidth: 150, efSearch: 120,"
        + " crossSegmentPruning: false}}}\n");
    Settings.Store resolved = config.resolve(Map.of()).store();
    assertThat(resolved.hnsw()).isEqualTo(new org.openbook.index.HnswGraph(24, 150));
    assertThat(resolved.efSearch()).isEqualTo(120);
    assertThat(resolved.crossSegmentPruning()).isFalse();
    Path index = tmp.resolve("index");
    try (OpenBook e = OpenBook.builder().index(index).config(config).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.RESET).build()) {
      LuceneChunkStore store = (LuceneChunkStore) e.store();
      assertThat(store.manifest().hnsw()).isEqualTo(new org.openbook.index.HnswGraph(24, 150));
      assertThat(store.efSearch()).isEqualTo(120);
      assertThat(store.candidates(50)).isEqualTo(120);
      assertThat(store.candidates(200)).isEqualTo(200);
      assertThat(store.crossSegmentPruning()).isFalse();
    }

    // an existing index keeps its graph parameters; efSearch follows the run's configuration
    OpenBookConfig other = yaml("store: {lucene: {hnsw: {m: 8, efSearch: 60,"
        + " crossSegmentPruning: true}}}\n");
    try (OpenBook e = OpenBook.builder().index(index).config(other).embedder(new HashEmbedder())
        .mode(OpenBook.Mode.READ).build()) {
      LuceneChunkStore store = (LuceneChunkStore) e.store();
      assertThat(store.manifest().hnsw()).isEqualTo(new org.openbook.index.HnswGraph(24, 150));
      assertThat(store.efSearch()).isEqualTo(60);
      assertThat(store.crossSegmentPruning()).isTrue();
    }
  }

  @Test
  void should_reject_hnsw_settings_out_of_range_or_for_solr_naming_the_field()
      throws IOException {
    assertThatThrownBy(() -> yaml("store: {lucene: {hnsw: {m: 0}}}\n").resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config store.lucene.hnsw: HNSW m must be in 1..512, got 0");
    assertThatThrownBy(() -> yaml("store: {lucene: {hnsw: {beamWidth: 5000}}}\n")
        .resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config store.lucene.hnsw: HNSW beamWidth must be in 1..3200, got 5000");
    assertThatThrownBy(() -> yaml("store: {lucene: {hnsw: {efSearch: 0}}}\n").resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config store.lucene.hnsw.efSearch must be >= 1, got 0");
    OpenBookConfig solr = yaml("""
        store: {type: solr, solrUrls: ["http://127.0.0.1:9/solr"], lucene: {hnsw: {m: 32}}}
        """);
    assertThatThrownBy(() -> solr.resolve(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("store.lucene.hnsw applies to the embedded Lucene index only");
  }
}
