package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.security.Sha256AuthenticationProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.testing.HashEmbedder;

/** A cluster that refuses anonymous requests (Solr BasicAuthPlugin, blockUnknown). */
class SolrBasicAuthTest {

  private static final TextAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();
  private static final HashEmbedder EMBEDDER = new HashEmbedder();
  private static final IndexManifest MANIFEST = new IndexManifest(EMBEDDER.modelId(),
      EMBEDDER.dimension(), IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);

  @TempDir
  static Path baseDir;
  private static MiniSolrCloudCluster cluster;
  private static String solrUrl;

  @BeforeAll
  static void startSecuredCluster() throws Exception {
    String security = """
        {"authentication": {"class": "solr.BasicAuthPlugin", "blockUnknown": true,
                            "credentials": {"openbook": "%s"}},
         "authorization": {"class": "solr.RuleBasedAuthorizationPlugin",
                           "permissions": [{"name": "all", "role": "admin"}],
                           "user-role": {"openbook": "admin"}}}
        """.formatted(Sha256AuthenticationProvider.getSaltedHashedValue("s3cret"));
    System.setProperty("solr.log.dir", baseDir.resolve("logs").toString());
    cluster = new MiniSolrCloudCluster.Builder(1, baseDir.resolve("solr"))
        .withSecurityJson(security)
        .configure();
    solrUrl = cluster.getJettySolrRunner(0).getBaseUrl().toString();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void should_create_write_and_search_with_basic_auth() throws IOException {
    SolrStoreConfig config =
        SolrStoreConfig.ofUrls("secured", solrUrl).withBasicAuth("openbook", "s3cret");
    Chunk c = new Chunk("a.md#0", "a.md", 0, "密码重置需要主管批准。", "密码重置需要主管批准。",
        List.of(), 0, 0, 11, Map.of("dept", "public"));

    try (SolrChunkStore store = SolrChunkStore.open(config, MANIFEST, ANALYSIS)) {
      store.replaceDocument("a.md", List.of(new EmbeddedChunk(c, EMBEDDER.embed(c.embedText()))));
      store.commit();

      assertThat(store.searchSparse("密码重置", 5, new AccessFilter(Set.of("public"))))
          .extracting(h -> h.chunk().id()).containsExactly("a.md#0");
    }
  }

  @Test
  void should_ask_for_credentials_when_none_are_given() {
    SolrStoreConfig config = SolrStoreConfig.ofUrls("secured", solrUrl);

    assertThatThrownBy(() -> SolrChunkStore.open(config, MANIFEST, ANALYSIS).close())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("it requires authentication; set the Solr user and password");
  }

  @Test
  void should_fail_with_clear_error_on_wrong_password() {
    SolrStoreConfig config =
        SolrStoreConfig.ofUrls("secured", solrUrl).withBasicAuth("openbook", "wrong");

    assertThatThrownBy(() -> SolrChunkStore.open(config, MANIFEST, ANALYSIS).close())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("refused the request (HTTP 401)")
        .hasMessageContaining("check the password of Solr user 'openbook'");
  }
}
