package org.openbook.solr.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.eval.EvalCase;
import org.openbook.eval.EvalCases;
import org.openbook.eval.Judged;
import org.openbook.eval.RankingMetrics;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.SearchResult;
import org.openbook.solr.SolrChunkStore;
import org.openbook.testing.HashEmbedder;
import org.openbook.testing.SharedData;

/**
 * kb-demo ingested through the real {@link OpenBook} into the embedded Lucene store and into a
 * 2-shard SolrCloud collection ({@link MiniSolrCloudCluster}, 2 nodes) answers every case of
 * {@code cases.jsonl} alike: the same top-10 chunks (ties may swap), the same Recall@5 and MRR@10,
 * and the same permission behaviour.
 *
 * <p>Tolerance: fused scores per rank within {@value #SCORE_TOLERANCE} (Solr returns the dense
 * score as {@code (1 + cos) / 2} in float, converted back); chunk ids equal except inside a group
 * of hits whose fused scores tie within that tolerance; mean metrics within {@value
 * #METRIC_TOLERANCE} (only a tie straddling a gold chunk could move them).
 *
 * <p>The CI run uses {@link HashEmbedder}. {@code -Dopenbook.parity.embedder=bge} runs the same
 * comparison with bge-small-zh-v1.5 (docs/SCALING.md).
 */
@org.junit.jupiter.api.Tag("solr-cluster")
class KbDemoBackendEqualityTest {

  // Fused scores agree to ~2e-4 since tables longer than a chunk give one row per chunk (q38,
  // rank 2: 1.7e-4); ranks and tie groups are still compared exactly below.
  static final double SCORE_TOLERANCE = 5e-4;
  static final double METRIC_TOLERANCE = 1e-9;
  private static final Set<String> RESTRICTED = Set.of("hr", "finance");

  @TempDir
  static Path tmp;
  private static MiniSolrCloudCluster cluster;
  private static OpenBook lucene;
  private static OpenBook solr;
  private static List<EvalCase> cases;
  private static OpenBookConfig luceneConfig;
  private static OpenBookConfig solrConfig;
  private static Embedder embedder;
  private static Path docs;
  private static IngestReport luceneReport;
  private static IngestReport solrReport;

  @BeforeAll
  static void ingestIntoBoth() throws Exception {
    Path kb = SharedData.require("fixtures/kb-demo");
    cases = EvalCases.read(kb.resolve("cases.jsonl"));
    embedder = "bge".equals(System.getProperty("openbook.parity.embedder"))
        ? new BgeSmallZhEmbedder() : new HashEmbedder();

    System.setProperty("solr.log.dir", tmp.resolve("solr-logs").toString());
    cluster = new MiniSolrCloudCluster.Builder(2, tmp.resolve("solr")).configure();
    String urls = cluster.getJettySolrRunner(0).getBaseUrl() + ", "
        + cluster.getJettySolrRunner(1).getBaseUrl();
    // The principals of the shipped example, plus a store section: configuration alone
    // switches the backend.
    String principals = Files.readString(Path.of("../examples/openbook.yaml"),
        StandardCharsets.UTF_8);
    luceneConfig = config(principals);
    solrConfig = config(principals + "\nstore:\n  type: solr\n  solrUrls: ["
        + urls + "]\n  collection: kbdemo\n  shards: 2\n  replicas: 1\n");

    docs = kb.resolve("docs");
    luceneReport = ingest(tmp.resolve("lucene"), luceneConfig, docs);
    solrReport = ingest(tmp.resolve("solr-state"), solrConfig, docs);
    lucene = OpenBook.builder().index(tmp.resolve("lucene")).config(luceneConfig).embedder(embedder)
        .mode(OpenBook.Mode.READ).build();
    solr = OpenBook.builder().index(tmp.resolve("solr-state")).config(solrConfig).embedder(embedder)
        .mode(OpenBook.Mode.READ).build();
  }

  private static OpenBookConfig config(String yaml) throws IOException {
    Path file = Files.createTempFile(tmp, "openbook", ".yaml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    return ConfigLoader.read(file);
  }

  private static IngestReport ingest(Path index, OpenBookConfig config, Path from)
      throws IOException {
    try (OpenBook e = OpenBook.builder().index(index).config(config).embedder(embedder)
        .mode(OpenBook.Mode.RESET).build()) {
      return e.ingest(from, IngestListener.NONE);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (OpenBook e : new OpenBook[] {lucene, solr}) {
      if (e != null) {
        e.close();
      }
    }
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void should_index_the_same_chunks_into_a_two_shard_collection() throws IOException {
    assertThat(solr.store()).isInstanceOf(SolrChunkStore.class);
    assertThat(solrReport.chunks()).isEqualTo(luceneReport.chunks());
    assertThat(solr.count()).isEqualTo(lucene.count()).isEqualTo(luceneReport.chunks());
    assertThat(solr.store().documentHashes()).isEqualTo(lucene.store().documentHashes());
  }

  @Test
  void should_rank_the_same_chunks_in_the_top_ten_for_every_case() throws IOException {
    // Top 10 rather than 5: a tie group cut at rank 5 is then still compared whole.
    for (EvalCase c : cases) {
      Principal p = lucene.principal(c.principal());
      List<Hit> l = lucene.retriever().retrieve(lucene.query(c.question(), p, 10)).hits();
      List<Hit> s = solr.retriever().retrieve(solr.query(c.question(), p, 10)).hits();
      assertThat(s).as(c.id()).hasSameSizeAs(l);
      for (int i = 0; i < l.size(); i++) {
        assertThat(s.get(i).fusedScore()).as(c.id() + " rank " + (i + 1))
            .isCloseTo(l.get(i).fusedScore(), within(SCORE_TOLERANCE));
      }
      assertThat(tieGroups(s)).as(c.id()).isEqualTo(tieGroups(l));
    }
  }

  @Test
  void should_give_the_same_recall_at_5_and_mrr_at_10() throws IOException {
    double[] l = metrics(lucene);
    double[] s = metrics(solr);
    System.out.printf("kb-demo %d cases: Lucene R@5 %.4f MRR@10 %.4f | Solr(2 shards) R@5 %.4f"
        + " MRR@10 %.4f%n", cases.size(), l[0], l[1], s[0], s[1]);
    assertThat(s[0]).isCloseTo(l[0], within(METRIC_TOLERANCE));
    assertThat(s[1]).isCloseTo(l[1], within(METRIC_TOLERANCE));
    assertThat(l[0]).isGreaterThan(0); // the comparison is not between two empty rankings
  }

  @Test
  void should_never_show_hr_or_finance_to_a_visitor_on_either_store() throws IOException {
    Principal visitor = lucene.principal("visitor");
    int restrictedForAdmin = 0;
    for (EvalCase c : cases) {
      for (OpenBook e : new OpenBook[] {lucene, solr}) {
        SearchResult r = e.retriever().retrieve(e.query(c.question(), visitor, 10));
        assertThat(r.hits()).as(c.id())
            .noneMatch(h -> RESTRICTED.contains(h.chunk().dept()));
      }
      // The same question as admin on both stores: the restricted chunks are there, and alike.
      Principal admin = lucene.principal("admin");
      List<String> l = deptsOf(lucene, c.question(), admin);
      List<String> s = deptsOf(solr, c.question(), admin);
      assertThat(s).as(c.id()).containsExactlyInAnyOrderElementsOf(l);
      restrictedForAdmin += (int) l.stream().filter(RESTRICTED::contains).count();
    }
    assertThat(restrictedForAdmin).isPositive(); // the filter had something to remove
  }

  @Test
  void should_find_nothing_changed_when_ingesting_again_into_solr() throws IOException {
    // Incremental ingest against Solr: same documents, same hashes, nothing rewritten.
    try (OpenBook e = OpenBook.builder().index(tmp.resolve("solr-state")).config(solrConfig)
        .embedder(embedder).mode(OpenBook.Mode.WRITE).build()) {
      IngestReport again = e.ingest(docs, IngestListener.NONE);
      assertThat(again.indexed()).isEmpty();
      assertThat(again.unchanged()).hasSize(solrReport.indexed().size());
      assertThat(e.count()).isEqualTo(solrReport.chunks());
    }
  }

  private static List<String> deptsOf(OpenBook e, String question, Principal p)
      throws IOException {
    List<String> out = new ArrayList<>();
    for (Hit h : e.retriever().retrieve(e.query(question, p, 10)).hits()) {
      out.add(h.chunk().dept());
    }
    return out;
  }

  /** Mean Recall@5 and MRR@10 over the cases with gold passages. */
  private static double[] metrics(OpenBook e) throws IOException {
    double recall = 0;
    double mrr = 0;
    int n = 0;
    for (EvalCase c : cases) {
      List<Chunk> ranking = new ArrayList<>();
      Principal p = lucene.principal(c.principal());
      for (Hit h : e.retriever().retrieve(e.query(c.question(), p, 10)).hits()) {
        ranking.add(h.chunk());
      }
      Judged j = c.judge(ranking);
      if (j != null) {
        recall += RankingMetrics.recall(j, 5);
        mrr += RankingMetrics.reciprocalRank(j, 10);
        n++;
      }
    }
    return new double[] {recall / n, mrr / n};
  }

  /**
   * The hit ids split into groups of tied fused scores (consecutive scores within the
   * tolerance): equal groups mean equal rankings up to the order of tied hits. The last group is
   * cut by top-k, so for it only its size counts, not which of the tied chunks made the cut.
   */
  private static List<Object> tieGroups(List<Hit> hits) {
    List<Set<String>> groups = new ArrayList<>();
    double previous = Double.NaN;
    for (Hit h : hits) {
      if (groups.isEmpty() || Math.abs(previous - h.fusedScore()) > SCORE_TOLERANCE) {
        groups.add(new TreeSet<>());
      }
      groups.get(groups.size() - 1).add(h.chunk().id());
      previous = h.fusedScore();
    }
    List<Object> out = new ArrayList<>(groups);
    if (!out.isEmpty()) {
      out.set(out.size() - 1, groups.get(groups.size() - 1).size());
    }
    return out;
  }
}
