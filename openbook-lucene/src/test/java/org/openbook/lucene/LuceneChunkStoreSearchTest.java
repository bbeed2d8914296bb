package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;
import static org.openbook.lucene.TestCorpus.ids;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.ScoredChunk;

/** BM25 and dense ranking: R01, R02, R16. */
class LuceneChunkStoreSearchTest {

  @TempDir Path dir;
  private LuceneChunkStore store;

  @AfterEach
  void close() throws IOException {
    if (store != null) {
      store.close();
    }
  }

  private void indexR01() throws IOException {
    store = TestCorpus.openHashStore(dir);
    addAll(store,
        chunk("c1", "HR", "密码每九十天必须更换"),
        chunk("c2", "HR", "服务器机房禁止携带饮料"),
        chunk("c3", "HR", "报销单需部门经理签字"),
        chunk("c4", "HR", "年假申请需提前三天提交"));
  }

  // R01
  @Test
  void should_score_chinese_documents_by_bm25_and_return_only_matching_ones() throws IOException {
    indexR01();

    List<ScoredChunk> leave = store.searchSparse("年假怎么申请", 10, HR);
    assertThat(ids(leave)).containsExactly("c4");
    assertThat(leave.get(0).rank()).isEqualTo(1);
    assertThat(leave.get(0).score()).isPositive();

    assertThat(ids(store.searchSparse("年假", 10, HR))).containsExactly("c4");
    assertThat(store.searchSparse("年假", 10, HR).get(0).score()).isPositive();
    assertThat(ids(store.searchSparse("机房", 10, HR))).containsExactly("c2");
  }

  @Test
  void should_return_nothing_for_a_query_without_tokens() throws IOException {
    indexR01();

    assertThat(store.searchSparse("。，？ the", 10, HR)).isEmpty();
  }

  @Test
  void should_match_stemmed_english_words() throws IOException {
    store = TestCorpus.openHashStore(dir);
    addAll(store,
        chunk("en1", "HR", "Backups running nightly"),
        chunk("en2", "HR", "Password rotation policy"));

    assertThat(ids(store.searchSparse("backup runs", 10, HR))).containsExactly("en1");
  }

  // R02
  @Test
  void should_rank_exact_identifier_matches_above_documents_with_similar_codes()
      throws IOException {
    store = TestCorpus.openHashStore(dir);
    addAll(store,
        chunk("dA", "HR", "ERR_4517：证书过期，请重新签发。"),
        chunk("dB", "HR", "ERR_4571 与 ERR_4715 已修复，关联工单 4517、4517-B。"),
        chunk("dC", "HR", "ZQ-7782 电源模块已停产。"),
        chunk("dD", "HR", "ZQ-7781 电源模块需每季度巡检。"),
        chunk("dE", "HR", "参照GB/T 22239第8.1.4条。"));

    List<ScoredChunk> err = store.searchSparse("ERR_4517", 10, HR);
    assertThat(ids(err)).containsExactly("dA");
    assertThat(err.get(0).score()).isPositive();
    assertThat(ids(store.searchSparse("ZQ-7781", 10, HR))).containsExactly("dD");

    List<ScoredChunk> spaced = store.searchSparse("GB/T 22239", 10, HR);
    List<ScoredChunk> joined = store.searchSparse("gb/t22239", 10, HR);
    assertThat(ids(spaced)).containsExactly("dE");
    assertThat(ids(joined)).isEqualTo(ids(spaced));
    assertThat(joined.get(0).score()).isEqualTo(spaced.get(0).score());
    assertThat(ids(store.searchSparse("8.1.4", 10, HR))).containsExactly("dE");
  }

  // kb-demo q17's kind (ZQ-7718 面板上显示 E2 是什么问题？), constructed: under UNIGRAM_BIGRAM the
  // question's Chinese wording matched as unigrams and bigrams must not outweigh its identifiers.
  @ParameterizedTest
  @EnumSource(value = OpenBookAnalysis.Strategy.class, names = {"CJK_BIGRAM", "UNIGRAM_BIGRAM"})
  void should_rank_the_identifier_passage_above_one_that_shares_only_the_chinese_wording(
      OpenBookAnalysis.Strategy strategy) throws IOException {
    OpenBookAnalysis analysis = OpenBookAnalysis.of(strategy);
    store = LuceneChunkStore.open(dir, new IndexManifest(TestCorpus.EMBEDDER.modelId(),
        TestCorpus.EMBEDDER.dimension(), IndexManifest.COSINE, analysis.id(), "test-chunker", 0,
        0), analysis);
    addAll(store,
        headed("gold", "LX-2041 路由器", "LX-2041 是双频路由器。F3：光纤信号中断，请检查光猫。"),
        headed("wording", "屏幕与按键",
            "屏幕上出现的图标分为网络、信号和电量三类，长按电源键可以关闭屏幕。"),
        headed("sibling", "LX-2014 路由器", "LX-2014 的 F3 表示风扇故障，请联系售后。"),
        headed("passing", "型号对照", "LX-2041 与 LX-2014 只差两位数字的顺序，购买前请核对型号。"),
        headed("b1", "保修", "路由器整机保修一年，凭订单号即可报修。"),
        headed("b2", "退货", "签收后七天内可无理由退货，运费由买家承担。"),
        headed("b3", "发票", "电子发票在订单完成后开具，可在订单页下载。"),
        headed("b4", "配送", "订单在付款后四十八小时内发货，偏远地区顺延。"),
        headed("b5", "会员", "会员积分可在下单时抵扣现金，每一百积分抵一元。"));
    String question = "LX-2041 屏幕上出现 F3 代表什么？";

    List<ScoredChunk> hits = store.searchSparse(question, 10, HR);

    // Without the unigram/bigram shares UNIGRAM_BIGRAM scored "wording" 12.0 and "gold" 8.1.
    assertThat(ids(hits).subList(0, 4)).containsExactly("gold", "wording", "sibling", "passing");
    assertThat(hits.get(1).score()).isLessThan(0.8 * hits.get(0).score());
    assertThat(hits.get(0).score()).isLessThan(store.maxSparseScore(question));
  }

  private static Chunk headed(String id, String heading, String text) {
    return new Chunk(id, id, 0, text, heading + "\n" + text, List.of(heading), 0, 0,
        text.length(), java.util.Map.of("source", id, "dept", "HR"));
  }

  // R35's kind: the BM25 route's absolute scale, the query's maximum attainable score.
  @Test
  void should_bound_bm25_scores_by_the_query_maximum_attainable_score() throws IOException {
    store = TestCorpus.openHashStore(dir);
    addAll(store,
        chunk("shuttle", "HR", "通勤巴士每天早上七点半从地铁站出发，晚上六点十分从园区南门返回。"),
        chunk("party", "HR", "公司年会在十二月举行，具体地点另行通知。"));

    double bound = store.maxSparseScore("公司班车几点发车");
    List<ScoredChunk> hits = store.searchSparse("公司班车几点发车", 10, HR);

    assertThat(ids(hits)).containsExactly("party");
    // Seven bigrams: 公司 in one of two chunks, idf ln(1 + 1.5 / 1.5); six in none, ln(1 + 2.5 / 0.5).
    assertThat(bound).isCloseTo(Math.log(2) + 6 * Math.log(6), within(1e-4));
    assertThat(hits.get(0).score()).isLessThan(Math.log(2));
    // A question whose every token the chunk holds scores a large share of its bound.
    double own = store.maxSparseScore("公司年会");
    assertThat(own).isCloseTo(3 * Math.log(2), within(1e-4));
    assertThat(store.searchSparse("公司年会", 10, HR).get(0).score())
        .isLessThan(own).isGreaterThan(0.3 * own);
    assertThat(store.maxSparseScore("。，")).isZero();
  }

  // R16
  @Test
  void should_expose_cosine_similarity_higher_is_better() throws IOException {
    store = LuceneChunkStore.open(dir, TestCorpus.manifest("test-3d", 3), TestCorpus.ANALYSIS);
    store.replaceDocument("a", List.of(vec(chunk("a", "HR", "a"), 0.6f, 0.8f, 0f)));
    store.replaceDocument("b", List.of(vec(chunk("b", "HR", "b"), 0.8f, -0.6f, 0f)));
    store.replaceDocument("c", List.of(vec(chunk("c", "HR", "c"), 0f, 0.8f, 0.6f)));
    store.commit();

    List<ScoredChunk> hits = store.searchDense(new float[] {0.6f, 0.8f, 0f}, 3, HR);

    assertThat(ids(hits)).containsExactly("a", "c", "b");
    assertThat(hits).extracting(ScoredChunk::rank).containsExactly(1, 2, 3);
    assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-6));
    assertThat(hits.get(1).score()).isCloseTo(0.64, within(1e-6));
    assertThat(hits.get(2).score()).isCloseTo(0.0, within(1e-6));

    store.deleteDocument("a");
    store.commit();
    List<ScoredChunk> withoutA = store.searchDense(new float[] {0.6f, 0.8f, 0f}, 3, HR);
    assertThat(ids(withoutA)).containsExactly("c", "b");
    assertThat(withoutA.get(0).score()).isCloseTo(0.64, within(1e-6));
  }

  @Test
  void should_normalise_vectors_so_scale_does_not_change_the_cosine() throws IOException {
    store = LuceneChunkStore.open(dir, TestCorpus.manifest("test-3d", 3), TestCorpus.ANALYSIS);
    store.replaceDocument("c", List.of(vec(chunk("c", "HR", "c"), 0f, 8f, 6f)));
    store.commit();

    List<ScoredChunk> hits = store.searchDense(new float[] {6f, 8f, 0f}, 1, HR);

    assertThat(hits.get(0).score()).isCloseTo(0.64, within(1e-6));
  }

  @Test
  void should_find_each_chunk_first_by_its_own_vector_with_cosine_one() throws IOException {
    indexR01();

    for (String id : List.of("c1", "c2", "c3", "c4")) {
      Chunk c = store.get(id).orElseThrow();
      List<ScoredChunk> hits =
          store.searchDense(TestCorpus.EMBEDDER.embed(c.embedText()), 4, HR);
      assertThat(hits.get(0).chunk().id()).isEqualTo(id);
      assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-5));
      assertThat(hits.get(1).score()).isLessThan(hits.get(0).score());
    }
  }

  @Test
  void should_reject_a_query_vector_of_the_wrong_dimension() throws IOException {
    indexR01();

    assertThatThrownBy(() -> store.searchDense(new float[3], 4, HR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("query")
        .hasMessageContaining("3 dimensions")
        .hasMessageContaining("256");
    assertThatThrownBy(() -> store.searchSparse("年假", 0, HR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topN");
  }

  private static EmbeddedChunk vec(Chunk c, float... v) {
    return new EmbeddedChunk(c, v);
  }
}
