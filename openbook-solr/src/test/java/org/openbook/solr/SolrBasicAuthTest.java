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

/**
 * A secured cluster (security.json: BasicAuthPlugin with blockUnknown, RuleBasedAuthorization
 * with an admin and a read-only user): the right user works; a wrong or missing password and a
 * forbidden write fail with errors naming the collection and the user, never the password.
 * Tagged {@code solr-cluster} (one single-node cluster for the class).
 */
@org.junit.jupiter.api.Tag("solr-cluster")
class SolrBasicAuthTest {

  private static final String PASSWORD = "s3cret-Adm1n";
  private static final String READER_PASSWORD = "r3ad-0nly";
  private static final String WRONG = "Wr0ng-Passw0rd";

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
                            "credentials": {"openbook": "%s", "reader": "%s"}},
         "authorization": {"class": "solr.RuleBasedAuthorizationPlugin",
                           "permissions": [
                             {"name": "read", "role": ["admin", "reader"]},
                             {"name": "collection-admin-read", "role": ["admin", "reader"]},
                             {"name": "all", "role": "admin"}],
                           "user-role": {"openbook": "admin", "reader": "reader"}}}
        """.formatted(Sha256AuthenticationProvider.getSaltedHashedValue(PASSWORD),
            Sha256AuthenticationProvider.getSaltedHashedValue(READER_PASSWORD));
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
        SolrStoreConfig.ofUrls("secured", solrUrl).withBasicAuth("openbook", PASSWORD);
    Chunk c = new Chunk("a.md#0", "a.md", 0, "密码重置需要主管批准。", "密码重置需要主管批准。",
        List.of(), 0, 0, 11, Map.of("dept", "public"));

    try (SolrChunkStore store = SolrChunkStore.open(config, MANIFEST, ANALYSIS)) {
      store.replaceDocument("a.md", List.of(new EmbeddedChunk(c, EMBEDDER.embed(c.embedText()))));
      store.commit();

      assertThat(store.searchSparse("密码重置", 5, new AccessFilter(Set.of("public"))))
          .extracting(h -> h.chunk().id()).containsExactly("a.md#0");
    }
  }

  /** The whole cause chain, as a log would print it. */
  private static String chain(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      b.append(c).append('\n');
    }
    return b.toString();
  }

  @Test
  void should_ask_for_credentials_when_none_are_given() {
    SolrStoreConfig config = SolrStoreConfig.ofUrls("secured", solrUrl);

    assertThatThrownBy(() -> SolrChunkStore.open(config, MANIFEST, ANALYSIS).close())
        .isInstanceOf(IOException.class)
        .hasMessageContaining("collection 'secured'")
        .hasMessageContaining("it requires authentication; set the Solr user and password");
  }

  @Test
  void should_name_collection_and_user_but_never_the_wrong_password() {
    SolrStoreConfig config =
        SolrStoreConfig.ofUrls("secured", solrUrl).withBasicAuth("openbook", WRONG);

    Throwable e = org.assertj.core.api.Assertions.catchThrowable(
        () -> SolrChunkStore.open(config, MANIFEST, ANALYSIS).close());

    assertThat(e).isInstanceOf(IOException.class)
        .hasMessageContaining("refused the request (HTTP 401)")
        .hasMessageContaining("collection 'secured'")
        .hasMessageContaining("check the password of Solr user 'openbook'");
    assertThat(chain(e)).doesNotContain(WRONG).doesNotContain(PASSWORD);
    assertThat(config.toString()).doesNotContain(WRONG).contains("password=***");
  }

  @Test
  void should_let_a_read_only_user_search_but_refuse_its_writes_naming_user_and_collection()
      throws IOException {
    SolrStoreConfig admin =
        SolrStoreConfig.ofUrls("readonly", solrUrl).withBasicAuth("openbook", PASSWORD);
    Chunk c = new Chunk("b.md#0", "b.md", 0, "门禁卡丢失请联系前台补办。", "门禁卡丢失请联系前台补办。",
        List.of(), 0, 0, 13, Map.of("dept", "public"));
    try (SolrChunkStore store = SolrChunkStore.open(admin, MANIFEST, ANALYSIS)) {
      store.replaceDocument("b.md", List.of(new EmbeddedChunk(c, EMBEDDER.embed(c.embedText()))));
      store.commit();
    }
    SolrStoreConfig reader = SolrStoreConfig.ofUrls("readonly", solrUrl)
        .withBasicAuth("reader", READER_PASSWORD);

    try (SolrChunkStore store = SolrChunkStore.openExisting(reader, MANIFEST, ANALYSIS)) {
      assertThat(store.searchSparse("门禁卡", 5, new AccessFilter(Set.of("public"))))
          .extracting(h -> h.chunk().id()).containsExactly("b.md#0");
      Throwable e = org.assertj.core.api.Assertions.catchThrowable(
          () -> store.deleteDocument("b.md"));
      assertThat(e).isInstanceOf(IOException.class)
          .hasMessageContaining("Solr refused user 'reader' (HTTP 403)")
          .hasMessageContaining("in collection 'readonly'")
          .hasMessageContaining("RuleBasedAuthorizationPlugin");
      assertThat(chain(e)).doesNotContain(READER_PASSWORD);
      assertThat(store.count()).isEqualTo(1);
    }
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
