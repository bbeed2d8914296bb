package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.OpenBookAnalysis.Strategy;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.ScoredChunk;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.testing.HashEmbedder;

/**
 * The same chunks in the embedded Lucene store, a 1-shard and a 2-shard Solr collection give the
 * same BM25 scores under every analysis strategy (pre-analysed tokens keep document lengths,
 * ExactStatsCache makes shard statistics global) and true cosines on the dense route.
 */
@org.junit.jupiter.api.Tag("solr-cluster")
class SolrLuceneParityTest {

  private static final HashEmbedder EMBEDDER = new HashEmbedder();
  private static final AccessFilter ALL = new AccessFilter(Set.of("hr", "public", "finance"));
  private static final AccessFilter PUBLIC = new AccessFilter(Set.of("public"));
  /** Larger than the corpus, so every match is returned and ties cannot cut differently. */
  private static final int EVERYTHING = 500;

  private static final String[] SENTENCES = {
      "年假申请须提前三天提交，由直属主管审批。",
      "病假须提供医院证明，工资按基本工资的百分之八十发放。",
      "VPN 连接失败时出现错误码 ERR_4517，请重置动态令牌。",
      "打印机卡纸时先关闭电源，再打开后盖取出纸张。",
      "差旅报销须在十五个工作日内提交发票原件。",
      "Nightly backups run at 02:00 and are kept for 30 days.",
      "按照 GB/T 22239 的要求，等级保护测评每年进行一次。",
      "ZQ-7781 型号的令牌已停止供货，请改用 ZQ-8800。",
      "The release v1.2.3 fixes a crash in zlib.h handling.",
      "会议室预订请使用前台的登记表，取消须提前一天。",
      "新员工入职第一周须完成信息安全培训。",
      "Password resets require the employee ID and a manager approval.",
      "合同审批流程：法务审核后由财务总监签字。",
      "服务器机房温度须保持在十八至二十七摄氏度之间。",
  };

  /** Heading paths, some naming a query's subject (the heading field scores on its own). */
  @SuppressWarnings("unchecked")
  private static final List<String>[] HEADINGS = new List[] {
      List.of(), List.of("员工手册", "请假制度"), List.of("IT 支持", "VPN 错误码 ERR_4517"),
      List.of("财务", "报销"), List.of("Operations", "Backups"), List.of("信息安全"),
  };

  private static final String[] QUERIES = {
      "年假怎么申请", "ERR_4517", "报销发票", "GB/T 22239 测评", "backup retention days",
      "令牌 ZQ-7781", "zlib.h crash", "审批流程", "机房温度", "password reset approval",
      "信息安全培训", "会议室取消",
  };

  @TempDir
  static Path baseDir;
  private static MiniSolrCloudCluster cluster;
  private static String solrUrl;
  private static final Map<String, List<EmbeddedChunk>> DOCS = corpus();
  private static final List<EmbeddedChunk> CHUNKS =
      DOCS.values().stream().flatMap(List::stream).toList();
  /** Per analysis strategy: the Lucene store, a 1-shard and a 2-shard collection. */
  private static final Map<Strategy, Stores> STORES = new EnumMap<>(Strategy.class);

  /** The same chunks in three stores. */
  private record Stores(LuceneChunkStore lucene, SolrChunkStore oneShard,
      SolrChunkStore twoShards) {}

  @BeforeAll
  static void startCluster() throws Exception {
    System.setProperty("solr.log.dir", baseDir.resolve("logs").toString());
    cluster = new MiniSolrCloudCluster.Builder(2, baseDir.resolve("solr")).configure();
    solrUrl = cluster.getJettySolrRunner(0).getBaseUrl().toString();
  }

  @AfterAll
  static void closeStores() throws Exception {
    for (Stores s : STORES.values()) {
      s.lucene().close();
      s.oneShard().close();
      s.twoShards().close();
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  private static Stores stores(Strategy strategy) throws IOException {
    Stores s = STORES.get(strategy);
    if (s != null) {
      return s;
    }
    TextAnalysis analysis = OpenBookAnalysis.of(strategy);
    IndexManifest manifest = new IndexManifest(EMBEDDER.modelId(), EMBEDDER.dimension(),
        IndexManifest.COSINE, analysis.id(), "test-chunker", 0, 0);
    String name = strategy.name().toLowerCase(Locale.ROOT);
    s = new Stores(
        LuceneChunkStore.open(baseDir.resolve("lucene-" + name), manifest, analysis),
        SolrChunkStore.open(SolrStoreConfig.ofUrls(name + "1", solrUrl).withLayout(1, 1),
            manifest, analysis),
        SolrChunkStore.open(SolrStoreConfig.ofUrls(name + "2", solrUrl).withLayout(2, 1),
            manifest, analysis));
    STORES.put(strategy, s);
    for (ChunkStore.ChunkWriter w : List.<ChunkStore.ChunkWriter>of(
        s.lucene(), s.oneShard(), s.twoShards())) {
      for (Map.Entry<String, List<EmbeddedChunk>> e : DOCS.entrySet()) {
        w.replaceDocument(e.getKey(), e.getValue());
      }
      w.commit();
    }
    return s;
  }

  /** 40 documents of 1–3 chunks, each chunk 2–4 pool sentences, fixed seed. */
  private static Map<String, List<EmbeddedChunk>> corpus() {
    Random random = new Random(20181);
    String[] depts = {"hr", "public", "finance"};
    Map<String, List<EmbeddedChunk>> docs = new LinkedHashMap<>();
    for (int d = 0; d < 40; d++) {
      String docId = "docs/d" + d + ".md";
      String dept = depts[d % depts.length];
      List<EmbeddedChunk> chunks = new ArrayList<>();
      int n = 1 + random.nextInt(3);
      for (int o = 0; o < n; o++) {
        StringBuilder text = new StringBuilder();
        for (int k = 2 + random.nextInt(3); k > 0; k--) {
          text.append(SENTENCES[random.nextInt(SENTENCES.length)]).append(' ');
        }
        String raw = text.toString().strip();
        List<String> headings = HEADINGS[random.nextInt(HEADINGS.length)];
        Chunk c = new Chunk(docId + "#" + o, docId, o, raw,
            String.join(" > ", headings) + "\n" + raw, headings,
            0, o * 500, o * 500 + raw.length(),
            Map.of("source", docId, "dept", dept, "contentHash", "h" + d));
        chunks.add(new EmbeddedChunk(c, EMBEDDER.embed(c.embedText())));
      }
      docs.put(docId, chunks);
    }
    return docs;
  }

  private static Map<String, Double> scores(List<ScoredChunk> hits) {
    Map<String, Double> out = new LinkedHashMap<>();
    hits.forEach(h -> out.put(h.chunk().id(), h.score()));
    return out;
  }

  private static void assertSameScores(Map<String, Double> actual, Map<String, Double> expected,
      double tolerance) {
    assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach((id, score) ->
        assertThat(actual.get(id)).as(id).isCloseTo(score, within(tolerance)));
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void should_give_lucene_bm25_scores_on_one_and_two_shards(Strategy strategy)
      throws IOException {
    Stores s = stores(strategy);
    for (String q : QUERIES) {
      for (AccessFilter f : List.of(ALL, PUBLIC)) {
        Map<String, Double> expected = scores(s.lucene().searchSparse(q, EVERYTHING, f));
        assertThat(expected).as(q).isNotEmpty();
        // float scores; 1e-5 allows for float rounding in a different summation order only
        assertSameScores(scores(s.oneShard().searchSparse(q, EVERYTHING, f)), expected, 1e-5);
        assertSameScores(scores(s.twoShards().searchSparse(q, EVERYTHING, f)), expected, 1e-5);
      }
    }
  }

  /** Exact cosine top-{@code n} among the chunks {@code filter} allows, by brute force. */
  private static List<Map.Entry<String, Double>> exactTop(float[] q, int n, AccessFilter f) {
    List<Map.Entry<String, Double>> all = new ArrayList<>();
    for (EmbeddedChunk ec : CHUNKS) {
      if (f.allows(ec.chunk().dept())) {
        all.add(Map.entry(ec.chunk().id(), cosine(q, ec.vector())));
      }
    }
    all.sort(Map.Entry.<String, Double>comparingByValue().reversed());
    return all.subList(0, Math.min(n, all.size()));
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
    }
    return dot; // both L2-normalised
  }

  /**
   * HNSW is approximate, so neither store need return the exact top 10; both must score every
   * hit with its true cosine, agree with the exact first hit, and recall at least 9 of the exact
   * top 10. (Two shards search two smaller graphs with topK = 10 each, so they tend to recall
   * more, not less, than one graph.)
   */
  @Test
  void should_score_dense_hits_with_true_cosine_on_both_stores() throws IOException {
    Stores s = stores(Strategy.CJK_BIGRAM);
    Map<String, Double> cosineOf = new LinkedHashMap<>();
    int[] recalled = new int[2];
    int wanted = 0;
    for (String q : QUERIES) {
      float[] v = EMBEDDER.embed(q);
      for (AccessFilter f : List.of(ALL, PUBLIC)) {
        List<Map.Entry<String, Double>> exact = exactTop(v, 10, f);
        CHUNKS.forEach(ec -> cosineOf.put(ec.chunk().id(), cosine(v, ec.vector())));
        Set<String> exactIds = new java.util.HashSet<>();
        exact.forEach(e -> exactIds.add(e.getKey()));
        wanted += exact.size();
        List<List<ScoredChunk>> results =
            List.of(s.lucene().searchDense(v, 10, f), s.twoShards().searchDense(v, 10, f));
        for (int r = 0; r < 2; r++) {
          List<ScoredChunk> hits = results.get(r);
          assertThat(hits).as(q).hasSize(10);
          assertThat(hits.get(0).score()).as(q).isCloseTo(exact.get(0).getValue(), within(1e-5));
          for (ScoredChunk h : hits) {
            assertThat(h.score()).as(q + " " + h.chunk().id())
                .isCloseTo(cosineOf.get(h.chunk().id()), within(1e-5));
          }
          long hit = hits.stream().filter(h -> exactIds.contains(h.chunk().id())).count();
          assertThat(hit).as(q + (r == 0 ? " lucene" : " solr")).isGreaterThanOrEqualTo(9);
          recalled[r] += (int) hit;
        }
      }
    }
    System.out.printf("dense recall@10 vs exact: lucene %.3f, solr 2 shards %.3f%n",
        recalled[0] / (double) wanted, recalled[1] / (double) wanted);
  }
}
