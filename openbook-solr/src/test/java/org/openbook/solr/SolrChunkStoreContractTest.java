package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.TextAnalysis;
import org.openbook.index.ChunkStoreContractTest;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.testing.InjectedFaults;

/**
 * The store contract on a real SolrCloud: an in-process {@link MiniSolrCloudCluster} of two
 * nodes (with embedded ZooKeeper), started once for the class; every store is a fresh 2-shard
 * collection created through {@link SolrStoreConfig} and {@link SolrAdmin}, as users create them.
 * Also the Solr-only behaviour of {@link SolrAdmin}.
 */
@org.junit.jupiter.api.Tag("solr-cluster")
class SolrChunkStoreContractTest extends ChunkStoreContractTest {

  @TempDir
  static Path baseDir;
  private static MiniSolrCloudCluster cluster;
  private static String solrUrl;
  private static final AtomicInteger COLLECTIONS = new AtomicInteger();
  private final List<String> created = new ArrayList<>();
  private final List<SolrClient> clients = new ArrayList<>();

  @BeforeAll
  static void startCluster() throws Exception {
    System.setProperty("solr.log.dir", baseDir.resolve("logs").toString());
    cluster = new MiniSolrCloudCluster.Builder(2, baseDir.resolve("solr")).configure();
    solrUrl = cluster.getJettySolrRunner(0).getBaseUrl().toString();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** Keeps the cluster small: each test's collections go when the test ends. */
  @AfterEach
  void deleteCollections() throws IOException {
    for (SolrClient c : clients) {
      c.close();
    }
    clients.clear();
    try (CloudHttp2SolrClient client = config("any").newClient()) {
      SolrAdmin admin = new SolrAdmin(client);
      for (String c : created) {
        admin.delete(c);
      }
    }
    created.clear();
  }

  private static SolrStoreConfig config(String collection) {
    return SolrStoreConfig.ofUrls(collection, solrUrl).withLayout(2, 1);
  }

  private String newCollection() {
    String name = "contract" + COLLECTIONS.incrementAndGet();
    created.add(name);
    return name;
  }

  @Override
  protected ChunkStoreUnderTest open(IndexManifest manifest, TextAnalysis analysis)
      throws IOException {
    return ChunkStoreUnderTest.of(
        SolrChunkStore.open(config(newCollection()), manifest, analysis));
  }

  @Override
  protected ChunkStoreUnderTest reopen(ChunkStoreUnderTest previous, IndexManifest manifest,
      TextAnalysis analysis) throws IOException {
    String collection = ((SolrChunkStore) previous.store()).collection();
    return ChunkStoreUnderTest.of(SolrChunkStore.open(config(collection), manifest, analysis));
  }

  /**
   * The store over a {@link FaultInjectingSolrClient}; no retries, so a killed writer stops at
   * once. The client is closed with the other clients of the test.
   */
  @Override
  protected ChunkStoreUnderTest reopenWithFaults(ChunkStoreUnderTest previous,
      IndexManifest manifest, TextAnalysis analysis, InjectedFaults faults) throws IOException {
    String collection = ((SolrChunkStore) previous.store()).collection();
    FaultInjectingSolrClient client =
        new FaultInjectingSolrClient(config(collection).newClient(), faults);
    clients.add(client);
    return ChunkStoreUnderTest.of(SolrChunkStore.open(client, collection, manifest, analysis,
        SolrFailurePolicy.DEFAULT.withRetries(0, java.time.Duration.ofMillis(1))));
  }

  // ---------------------------------------------------------------- Solr only

  @Test
  void should_score_the_exact_fallback_like_the_knn_search() throws Exception {
    try (SolrChunkStore store = SolrChunkStore.open(config(newCollection()), MANIFEST, ANALYSIS)) {
      java.util.List<org.openbook.index.EmbeddedChunk> chunks = new java.util.ArrayList<>();
      for (String t : new String[] {"年假申请需提前三天提交。", "病假需要医院证明。", "VPN 账号由 IT 开通。"}) {
        chunks.add(new org.openbook.index.EmbeddedChunk(
            chunk("doc/" + chunks.size(), 0, "hr", t), EMBEDDER.embed(t)));
      }
      for (var c : chunks) {
        store.replaceDocument(c.chunk().docId(), java.util.List.of(c));
      }
      store.commit();
      float[] q = EMBEDDER.embed("年假怎么申请");
      var filter = new org.openbook.index.AccessFilter(java.util.Set.of("hr"));

      var knn = store.searchDense(q, 3, filter);
      var exact = store.exactDense(q, 3, filter);

      assertThat(exact).extracting(h -> h.chunk().id())
          .containsExactlyElementsOf(knn.stream().map(h -> h.chunk().id()).toList());
      for (int i = 0; i < knn.size(); i++) {
        assertThat(2 * exact.get(i).score() - 1)
            .isCloseTo(knn.get(i).score(), org.assertj.core.api.Assertions.within(1e-5));
      }
    }
  }

  @Test
  void should_create_then_update_collection_with_two_shards() throws Exception {
    String name = newCollection();
    try (CloudHttp2SolrClient client = config(name).newClient()) {
      SolrAdmin admin = new SolrAdmin(client);

      assertThat(admin.init(name, 2, 1, MANIFEST)).isEqualTo(SolrAdmin.InitOutcome.CREATED);
      assertThat(admin.init(name, 2, 1, MANIFEST)).isEqualTo(SolrAdmin.InitOutcome.UPDATED);

      assertThat(admin.exists(name)).isTrue();
      assertThat(cluster.getZkStateReader().getClusterState().getCollection(name)
          .getSlices()).hasSize(2);
    }
  }

  @Test
  void should_refuse_reinit_with_other_dimension_once_manifest_is_stored() throws Exception {
    String name = newCollection();
    try (SolrChunkStore store = SolrChunkStore.open(config(name), MANIFEST, ANALYSIS);
        CloudHttp2SolrClient client = config(name).newClient()) {
      IndexManifest wider = new IndexManifest(MANIFEST.embeddingModel(), 384,
          IndexManifest.COSINE, MANIFEST.analyzer(), MANIFEST.chunker(), 0, 0);
      assertThatThrownBy(() -> new SolrAdmin(client).init(name, 2, 1, wider))
          .isInstanceOf(IndexMismatchException.class)
          .hasMessageContaining("dimension 256, not 384");
      assertThat(store.manifest().dimension()).isEqualTo(256);
    }
  }

  // The engine reads it before opening: a config without analysis.analyzer keeps the recorded one.
  @Test
  void should_read_the_stored_manifest_and_nothing_for_a_missing_collection() throws Exception {
    String name = newCollection();
    SolrChunkStore.open(config(name), MANIFEST, ANALYSIS).close();

    assertThat(SolrChunkStore.readManifest(config(name)))
        .hasValueSatisfying(m -> {
          assertThat(m.analyzer()).isEqualTo(ANALYSIS.id());
          assertThat(m.embeddingModel()).isEqualTo(MANIFEST.embeddingModel());
        });
    assertThat(SolrChunkStore.readManifest(config("absent"))).isEmpty();
  }

  @Test
  void should_name_missing_collection_and_how_to_create_it() throws Exception {
    try (CloudHttp2SolrClient client = config("absent").newClient()) {
      assertThatThrownBy(() -> SolrChunkStore.open(client, "absent", MANIFEST, ANALYSIS))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("'absent' does not exist")
          .hasMessageContaining("openbook solr init --collection absent");
    }
  }

  @Test
  void should_empty_collection_and_accept_new_settings_after_clear() throws Exception {
    String name = newCollection();
    IndexManifest otherModel = new IndexManifest("other-model", MANIFEST.dimension(),
        IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);
    try (CloudHttp2SolrClient client = config(name).newClient()) {
      SolrChunkStore.open(config(name), MANIFEST, ANALYSIS).close();
      new SolrAdmin(client).clear(name);

      try (SolrChunkStore store = SolrChunkStore.open(client, name, otherModel, ANALYSIS)) {
        assertThat(store.manifest().embeddingModel()).isEqualTo("other-model");
        assertThat(store.count()).isZero();
      }
    }
  }
}
