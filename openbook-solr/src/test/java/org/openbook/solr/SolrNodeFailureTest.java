package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.RefusalPolicy;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.ScoredChunk;
import org.openbook.index.SearchCoverage;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.RrfFusion;
import org.openbook.testing.HashEmbedder;

/**
 * Node failures on a real SolrCloud: a 2-node {@link MiniSolrCloudCluster} started once for the
 * class, whose second node each test stops and starts again. SLOW (a node restart and replica
 * recovery per test; about 1-2 minutes for the class on a busy 2-core machine); tagged {@code
 * solr-cluster}. Run alone with {@code mvn -pl openbook-solr -am test -Dtest=SolrNodeFailureTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("solr-cluster")
class SolrNodeFailureTest {

  private static final TextAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();
  private static final HashEmbedder EMBEDDER = new HashEmbedder();
  private static final IndexManifest MANIFEST = new IndexManifest(EMBEDDER.modelId(),
      EMBEDDER.dimension(), IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);
  private static final AccessFilter ALL = new AccessFilter(Set.of("public", "hr"));
  /** Quick retries for tests: 8 retries from 250 ms, at most 2 s apart (about 11 s in all). */
  private static final SolrFailurePolicy PATIENT =
      new SolrFailurePolicy(8, Duration.ofMillis(250), Duration.ofSeconds(2), false);

  @TempDir
  static Path baseDir;
  private static MiniSolrCloudCluster cluster;
  private static List<String> urls;
  /** The node the tests stop; the cluster forgets a stopped runner, so it is kept here. */
  private static JettySolrRunner second;
  private static String secondNodeName;

  @BeforeAll
  static void startCluster() throws Exception {
    System.setProperty("solr.log.dir", baseDir.resolve("logs").toString());
    cluster = new MiniSolrCloudCluster.Builder(2, baseDir.resolve("solr")).configure();
    urls = cluster.getJettySolrRunners().stream().map(j -> j.getBaseUrl().toString()).toList();
    second = cluster.getJettySolrRunner(1);
    secondNodeName = second.getNodeName();
  }

  @AfterAll
  static void stopCluster() throws Exception {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  /** Every test leaves both nodes running. */
  @AfterEach
  void restartStoppedNode() throws Exception {
    if (!second.isRunning()) {
      restartSecondNode();
    }
  }

  /** Starts the stopped node again on its port (same node name) and waits until it is live. */
  private static void restartSecondNode() throws Exception {
    cluster.startJettySolrRunner(second, true);
    cluster.waitForNode(second, 60);
  }

  private static SolrStoreConfig config(String collection, int replicas) {
    return new SolrStoreConfig(urls, List.of(), null, collection, 2, replicas, null, null)
        .withFailures(PATIENT);
  }

  /** 12 one-chunk documents; all share the word 流程, each has its own topic words. */
  private static Map<String, Chunk> corpus(String version) {
    String[] topics = {"年假申请 审批", "病假 医院证明", "VPN 令牌 ERR_4517", "打印机 卡纸",
        "报销 发票", "备份 NAS", "会议室 预订", "入职 培训", "离职 交接", "加班 调休",
        "门禁 卡", "邮箱 密码 重置"};
    Map<String, Chunk> docs = new LinkedHashMap<>();
    for (int i = 0; i < topics.length; i++) {
      String doc = "docs/" + i + ".md";
      String text = topics[i] + " 的流程说明 " + version + "，请按公司制度办理。";
      docs.put(doc, new Chunk(doc + "#0", doc, 0, text, text, List.of("制度"), 0, 0,
          text.length(), Map.of("dept", i % 3 == 0 ? "hr" : "public",
              "contentHash", "sha-" + version + "-" + i)));
    }
    return docs;
  }

  private static void ingest(SolrChunkStore store, Map<String, Chunk> docs) throws IOException {
    for (Chunk c : docs.values()) {
      store.replaceDocument(c.docId(),
          List.of(new EmbeddedChunk(c, EMBEDDER.embed(c.embedText()))));
    }
    store.commit();
  }

  private static Map<String, String> hashes(Map<String, Chunk> docs) {
    Map<String, String> out = new TreeMap<>();
    docs.values().forEach(c -> out.put(c.docId(), c.meta().get("contentHash")));
    return out;
  }

  private static final List<String> QUESTIONS = List.of("年假怎么申请审批", "VPN 出现 ERR_4517",
      "发票报销", "邮箱密码忘了怎么重置");

  /**
   * Per question: the sparse and dense hits, asking for more than the corpus holds so that no
   * cut falls inside a group of tied scores (replicas may order ties differently).
   */
  private static List<List<ScoredChunk>> searchAll(SolrChunkStore store) throws IOException {
    List<List<ScoredChunk>> out = new ArrayList<>();
    for (String q : QUESTIONS) {
      out.add(store.searchSparse(q, 20, ALL));
      out.add(store.searchDense(EMBEDDER.embed(q), 20, ALL));
    }
    return out;
  }

  /**
   * The same chunks with the same scores (1e-5), and the same score at every rank; the order of
   * chunks with equal scores is the only freedom (another replica breaks ties by its own
   * internal document order).
   */
  private static void assertSameResults(List<List<ScoredChunk>> actual,
      List<List<ScoredChunk>> expected) {
    assertThat(actual).hasSameSizeAs(expected);
    for (int i = 0; i < expected.size(); i++) {
      Map<String, Double> want = new TreeMap<>();
      expected.get(i).forEach(h -> want.put(h.chunk().id(), h.score()));
      Map<String, Double> got = new TreeMap<>();
      actual.get(i).forEach(h -> got.put(h.chunk().id(), h.score()));
      assertThat(got.keySet()).as("result %d", i).isEqualTo(want.keySet());
      want.forEach((id, score) -> assertThat(got.get(id)).isCloseTo(score, within(1e-5)));
      for (int r = 0; r < expected.get(i).size(); r++) {
        assertThat(actual.get(i).get(r).score())
            .isCloseTo(expected.get(i).get(r).score(), within(1e-5));
      }
    }
  }

  private static List<String> answers(AnswerService service) {
    List<String> out = new ArrayList<>();
    for (String q : QUESTIONS) {
      Answer a = service.ask(Query.of(q, new Principal("tester", Set.of("public", "hr")), 5),
          t -> { });
      out.add(a.status() + " " + a.text() + " " + a.sources().size());
    }
    return out;
  }

  private static AnswerService answerService(SolrChunkStore store) {
    return new AnswerService(new HybridRetriever(EMBEDDER, store, store, RrfFusion.DEFAULT),
        new ExtractiveGenerator(RefusalPolicy.DEFAULT), 0.0, RefusalPolicy.DEFAULT);
  }

  private static JettySolrRunner stopSecondNode() throws Exception {
    cluster.stopJettySolrRunner(second);
    cluster.waitForJettyToStop(second);
    return second;
  }

  /** The shard whose only replica lives on the stopped node. */
  private static String shardOnlyOn(String collection, JettySolrRunner node) {
    DocCollection c = cluster.getZkStateReader().getClusterState().getCollection(collection);
    return c.getSlices().stream()
        .filter(s -> s.getReplicas().stream()
            .allMatch(r -> r.getNodeName().equals(secondNodeName)))
        .map(Slice::getName).findFirst()
        .orElseThrow(() -> new AssertionError("no shard of " + collection + " lives only on "
            + secondNodeName + ": " + c));
  }

  // ---------------------------------------------------------------- replicas = 2

  @Test
  void should_search_ask_and_ingest_without_error_when_one_of_two_replicas_is_down()
      throws Exception {
    try (SolrChunkStore store = SolrChunkStore.open(config("twice", 2), MANIFEST, ANALYSIS)) {
      ingest(store, corpus("v1"));
      List<List<ScoredChunk>> before = searchAll(store);
      List<String> answersBefore = answers(answerService(store));
      assertThat(before.get(0)).isNotEmpty();

      JettySolrRunner stopped = stopSecondNode();

      SearchCoverage.Tracked<List<List<ScoredChunk>>> during =
          SearchCoverage.track(() -> searchAll(store));
      assertSameResults(during.value(), before);
      assertThat(during.missingShards()).isEmpty();
      assertThat(answers(answerService(store))).isEqualTo(answersBefore);
      assertThat(store.count()).isEqualTo(12);
      // Ingest goes on: the surviving replicas become (or are) leaders.
      Map<String, Chunk> v2 = corpus("v2");
      ingest(store, v2);
      assertThat(store.documentHashes()).isEqualTo(hashes(v2));
      assertThat(store.count()).isEqualTo(12);

      restartSecondNode();
      cluster.waitForActiveCollection("twice", 60, TimeUnit.SECONDS, 2, 4);
      // The restarted replicas caught up: every replica answers v2.
      assertThat(store.documentHashes()).isEqualTo(hashes(v2));
      assertThat(store.searchSparse("v2", 20, ALL)).hasSize(12);
    }
  }

  // ---------------------------------------------------------------- replicas = 1

  @Test
  void should_refuse_partial_results_by_default_naming_the_missing_shard() throws Exception {
    try (SolrChunkStore store = SolrChunkStore.open(config("once", 1), MANIFEST, ANALYSIS)) {
      ingest(store, corpus("v1"));
      JettySolrRunner stopped = stopSecondNode();
      String missing = shardOnlyOn("once", stopped);

      assertThatThrownBy(() -> store.searchSparse("年假怎么申请审批", 10, ALL))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Solr collection 'once'")
          .hasMessageContaining("[" + missing + "]")
          .hasMessageContaining("store.partialResults: true");
      assertThatThrownBy(() -> store.searchDense(EMBEDDER.embed("年假"), 10, ALL))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("[" + missing + "]");
      // ask does not throw: it fails with the reason, never answers from half the index.
      Answer a = answerService(store).ask(
          Query.of("年假怎么申请审批", new Principal("t", Set.of("public", "hr")), 5), t -> { });
      assertThat(a.status().name()).isEqualTo("FAILED");
      assertThat(a.diagnostics().reason()).contains("[" + missing + "]");
    }
  }

  @Test
  void should_answer_from_the_live_shard_and_report_the_missing_one_when_allowed()
      throws Exception {
    SolrStoreConfig partial = config("partial", 1)
        .withFailures(PATIENT.withPartialResults(true));
    try (SolrChunkStore store = SolrChunkStore.open(partial, MANIFEST, ANALYSIS)) {
      ingest(store, corpus("v1"));
      List<ScoredChunk> full = store.searchSparse("年假 审批 流程", 20, ALL);
      assertThat(full).hasSize(12);
      JettySolrRunner stopped = stopSecondNode();
      String missing = shardOnlyOn("partial", stopped);
      String live = missing.equals("shard1") ? "shard2" : "shard1";
      // Which documents live on the surviving shard, from the cluster's own routing.
      DocCollection c = cluster.getZkStateReader().getClusterState().getCollection("partial");
      List<String> survivors = full.stream().map(h -> h.chunk().id())
          .filter(id -> c.getRouter().getTargetSlice(
              SolrFields.rootId(id.substring(0, id.indexOf('#'))), null, null, null, c)
              .getName().equals(live))
          .toList();
      assertThat(survivors).isNotEmpty().hasSizeLessThan(12);

      SearchCoverage.Tracked<List<ScoredChunk>> got =
          SearchCoverage.track(() -> store.searchSparse("年假 审批 流程", 20, ALL));

      assertThat(got.missingShards()).containsExactly(missing);
      assertThat(got.value()).extracting(h -> h.chunk().id())
          .containsExactlyInAnyOrderElementsOf(survivors);
      // Counts and the catalog are never partial: an ingest must not act on half a catalog.
      assertThatThrownBy(store::documentHashes).hasMessageContaining("[" + missing + "]");
    }
  }

  // ---------------------------------------------------------------- ingest during a restart

  @Test
  void should_retry_ingest_while_a_node_restarts_and_complete() throws Exception {
    try (SolrChunkStore store = SolrChunkStore.open(config("restart", 1), MANIFEST, ANALYSIS)) {
      ingest(store, corpus("v1"));
      JettySolrRunner stopped = stopSecondNode();
      CompletableFuture<Void> restart = CompletableFuture.runAsync(() -> {
        try {
          Thread.sleep(1500);
          cluster.startJettySolrRunner(second, true);
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });

      Map<String, Chunk> v2 = corpus("v2");
      ingest(store, v2); // blocks in retries until the node is back

      restart.get(60, TimeUnit.SECONDS);
      assertThat(store.documentHashes()).isEqualTo(hashes(v2));
      assertThat(store.count()).isEqualTo(12);
    }
  }

  @Test
  void should_fail_clearly_after_bounded_retries_and_complete_on_rerun() throws Exception {
    SolrStoreConfig impatient = config("rerun", 1)
        .withFailures(new SolrFailurePolicy(2, Duration.ofMillis(100), Duration.ofMillis(200),
            false));
    try (SolrChunkStore store = SolrChunkStore.open(impatient, MANIFEST, ANALYSIS)) {
      ingest(store, corpus("v1"));
      JettySolrRunner stopped = stopSecondNode();
      Map<String, Chunk> v2 = corpus("v2");

      assertThatThrownBy(() -> ingest(store, v2))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("collection 'rerun'")
          .hasMessageContaining("gave up after 3 attempts");

      restartSecondNode();
      cluster.waitForActiveCollection("rerun", 60, TimeUnit.SECONDS, 2, 2);
      ingest(store, v2);
      assertThat(store.documentHashes()).isEqualTo(hashes(v2));
      assertThat(store.count()).isEqualTo(12);
      assertThat(store.searchSparse("v1", 20, ALL)).isEmpty();
    }
  }

  @Test
  void should_report_healthy_degraded_and_unreachable_status() throws Exception {
    try (SolrChunkStore store = SolrChunkStore.open(config("status", 1), MANIFEST, ANALYSIS);
        CloudHttp2SolrClient client = config("status", 1).newClient()) {
      ingest(store, corpus("v1"));
      SolrAdmin admin = new SolrAdmin(client);

      SolrCollectionStatus healthy = admin.status("status", MANIFEST);
      assertThat(healthy.health()).isEqualTo(SolrCollectionStatus.Health.HEALTHY);
      assertThat(healthy.problems()).isEmpty();
      assertThat(healthy.manifestMatches()).isTrue();
      assertThat(healthy.manifest().embeddingModel()).isEqualTo(MANIFEST.embeddingModel());
      assertThat(healthy.shards()).extracting(SolrCollectionStatus.Shard::name)
          .containsExactly("shard1", "shard2");
      assertThat(healthy.shards().stream().mapToLong(SolrCollectionStatus.Shard::chunks).sum())
          .isEqualTo(12);
      assertThat(healthy.shards().stream().mapToLong(SolrCollectionStatus.Shard::documents)
          .sum()).isEqualTo(12);
      assertThat(healthy.shards()).allSatisfy(s -> assertThat(s.replicas())
          .singleElement().satisfies(r -> {
            assertThat(r.state()).isEqualTo("active");
            assertThat(r.leader()).isTrue();
          }));
      IndexManifest otherModel = new IndexManifest("bge-small-zh-v1.5", MANIFEST.dimension(),
          IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);
      SolrCollectionStatus mismatch = admin.status("status", otherModel);
      assertThat(mismatch.health()).isEqualTo(SolrCollectionStatus.Health.DEGRADED);
      assertThat(mismatch.manifestMatches()).isFalse();
      assertThat(mismatch.problems()).anySatisfy(p -> assertThat(p).contains("bge-small-zh"));

      JettySolrRunner stopped = stopSecondNode();
      String missing = shardOnlyOn("status", stopped);
      SolrCollectionStatus degraded = admin.status("status", MANIFEST);
      assertThat(degraded.health()).isEqualTo(SolrCollectionStatus.Health.DEGRADED);
      assertThat(degraded.problems())
          .anySatisfy(p -> assertThat(p).startsWith(missing + " has no active replica"));
      SolrCollectionStatus.Shard down = degraded.shards().stream()
          .filter(s -> s.name().equals(missing)).findFirst().orElseThrow();
      assertThat(down.chunks()).isEqualTo(-1);
      assertThat(down.replicas()).singleElement()
          .satisfies(r -> assertThat(r.state()).isEqualTo("down"));

      SolrCollectionStatus absent = admin.status("no_such_collection", MANIFEST);
      assertThat(absent.health()).isEqualTo(SolrCollectionStatus.Health.UNREACHABLE);
      assertThat(absent.problems()).singleElement()
          .satisfies(p -> assertThat(p).contains("'no_such_collection' does not exist"));
    }
    SolrCollectionStatus unreachable = SolrAdmin.status(
        SolrStoreConfig.ofUrls("status", "http://127.0.0.1:1/solr"), MANIFEST);
    assertThat(unreachable.health()).isEqualTo(SolrCollectionStatus.Health.UNREACHABLE);
    assertThat(unreachable.shards()).isEmpty();
    assertThat(unreachable.problems()).singleElement()
        .satisfies(p -> assertThat(p).contains("cannot read the cluster state"));
  }
}
