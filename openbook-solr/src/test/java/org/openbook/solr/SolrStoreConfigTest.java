package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SolrStoreConfigTest {

  @Test
  void should_require_exactly_one_of_urls_and_zookeeper() {
    assertThatThrownBy(() -> new SolrStoreConfig(List.of(), List.of(), null, "kb", 1, 1, null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not neither");
    assertThatThrownBy(() -> new SolrStoreConfig(List.of("http://a:8983/solr"),
        List.of("zk:2181"), null, "kb", 1, 1, null, null))
        .hasMessageContaining("not both");
  }

  @Test
  void should_name_invalid_collection_shards_and_missing_password() {
    assertThatThrownBy(() -> SolrStoreConfig.ofUrls("my kb", "http://a:8983/solr"))
        .hasMessageContaining("collection name 'my kb' is not valid");
    assertThatThrownBy(() -> SolrStoreConfig.ofUrls("kb", "http://a:8983/solr").withLayout(0, 1))
        .hasMessageContaining("shards must be >= 1, was 0");
    assertThatThrownBy(() -> SolrStoreConfig.ofUrls("kb", "http://a:8983/solr")
        .withBasicAuth("alice", null))
        .hasMessageContaining("user 'alice' is set but password is missing");
  }

  @Test
  void should_hide_password_in_text_form() {
    SolrStoreConfig c = SolrStoreConfig.ofUrls("kb", "http://a:8983/solr")
        .withLayout(2, 2).withBasicAuth("alice", "s3cret");

    assertThat(c.toString())
        .isEqualTo("SolrStoreConfig[solrUrls=[http://a:8983/solr], collection=kb, shards=2, "
            + "replicas=2, user=alice, password=***]");
  }
}
