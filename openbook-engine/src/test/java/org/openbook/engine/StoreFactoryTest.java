package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.solr.SolrStoreConfig;
import org.openbook.testing.HashEmbedder;

class StoreFactoryTest {

  @TempDir Path tmp;

  private OpenBookConfig yaml(String text) throws IOException {
    Path file = tmp.resolve("openbook.yaml");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return ConfigLoader.read(file);
  }

  @Test
  void should_use_the_embedded_lucene_store_when_the_config_has_no_store_section()
      throws IOException {
    OpenBookConfig config = OpenBookConfig.defaults();
    assertThat(config.store().isSolr()).isFalse();
    try (OpenBook e = OpenBook.open(tmp.resolve("index"), config, new HashEmbedder(), true, true)) {
      assertThat(e.store()).isInstanceOf(LuceneChunkStore.class);
      assertThat(e.luceneStore().path()).isEqualTo(tmp.resolve("index"));
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
    SolrStoreConfig solr = StoreFactory.solrConfig(config.store(),
        Map.of(StoreFactory.PASSWORD_ENV, "from-env"));
    assertThat(solr).isEqualTo(new SolrStoreConfig(
        List.of("http://solr1:8983/solr", "http://solr2:8983/solr"), List.of(), null, "openbook",
        2, 1, "openbook", "from-env"));
    assertThat(StoreFactory.solrConfig(config.store(), Map.of()).password())
        .isEqualTo("from-file");
    assertThat(config.store().toString()).doesNotContain("from-file");
  }

  @Test
  void should_name_the_store_keys_when_neither_solr_urls_nor_zookeeper_hosts_are_given()
      throws IOException {
    OpenBookConfig config = yaml("store: {type: solr, collection: kb}\n");
    assertThatThrownBy(() -> StoreFactory.solrConfig(config.store(), Map.of()))
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
    assertThatThrownBy(() -> OpenBook.open(tmp.resolve("state"), config, new HashEmbedder(),
        false, false))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("store: cannot open Solr collection 'kb'")
        .hasMessageContaining("http://127.0.0.1:9/solr");
  }
}
