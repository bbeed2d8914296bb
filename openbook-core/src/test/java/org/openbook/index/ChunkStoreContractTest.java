package org.openbook.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.testing.HashEmbedder;
import org.openbook.testing.InjectedFaults;

/**
 * The behaviour every {@link ChunkStore} must show, whatever its engine: ingest, both retrieval
 * routes with their scores and ranks, the access filter inside both routes, replace and delete by
 * document, reopening, the manifest check and the document catalog. A backend is correct when
 * its subclass passes (in the spirit of Lucene's {@code BaseKnnVectorsFormatTestCase}).
 *
 * <p>Texts are analysed with {@link OpenBookAnalysis#defaultAnalysis()} and embedded with {@link
 * HashEmbedder}; expected ranks follow from which chunks share tokens (BM25) or characters
 * (vectors) with the query.
 */
public abstract class ChunkStoreContractTest {

  /** The capability views of one opened store (often one object implementing them all). */
  public record ChunkStoreUnderTest(
      ChunkStore store,
      ChunkStore.DenseSearch dense,
      ChunkStore.SparseSearch sparse,
      ChunkStore.ChunkWriter writer,
      ChunkStore.DocumentCatalog catalog) {

    /** The views of a store implementing every capability. */
    public static <T extends ChunkStore & ChunkStore.DenseSearch & ChunkStore.SparseSearch
        & ChunkStore.ChunkWriter & ChunkStore.DocumentCatalog> ChunkStoreUnderTest of(T store) {
      return new ChunkStoreUnderTest(store, store, store, store, store);
    }
  }

  /**
   * Opens a new, empty store built with {@code manifest} and {@code analysis}. Every call gives a
   * store with storage of its own.
   */
  protected abstract ChunkStoreUnderTest open(IndexManifest manifest, TextAnalysis analysis)
      throws IOException;

  /**
   * Opens again the storage of {@code previous}, which the test has closed, expecting {@code
   * manifest}: must throw {@link IndexMismatchException} if it is incompatible with the stored
   * one.
   */
  protected abstract ChunkStoreUnderTest reopen(ChunkStoreUnderTest previous,
      IndexManifest manifest, TextAnalysis analysis) throws IOException;

  /**
   * Opens again the storage of {@code previous}, which the test has closed, with {@code faults}
   * hooked into the store's storage calls (Lucene: directory operations; Solr: SolrJ requests):
   * the hook calls {@link InjectedFaults#before} and {@link InjectedFaults#after} around each.
   * Closing the returned store must release whatever it holds even when the hook has killed it.
   */
  protected abstract ChunkStoreUnderTest reopenWithFaults(ChunkStoreUnderTest previous,
      IndexManifest manifest, TextAnalysis analysis, InjectedFaults faults) throws IOException;

  /**
   * When, relative to each storage call, the fault test kills the writer: both by default. A
   * store may leave out {@link InjectedFaults.When#AFTER} when a call's effect cannot be seen
   * before the next call (then killing after call k is killing before call k + 1); its Javadoc
   * must say why.
   */
  protected Set<InjectedFaults.When> faultTimings() {
    return Set.of(InjectedFaults.When.BEFORE, InjectedFaults.When.AFTER);
  }

  protected static final TextAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();
  protected static final HashEmbedder EMBEDDER = new HashEmbedder();
  protected static final IndexManifest MANIFEST = new IndexManifest(EMBEDDER.modelId(),
      EMBEDDER.dimension(), IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);

  private static final AccessFilter ALL =
      new AccessFilter(Set.of("hr", "public", "finance", "secret"));
  private static final AccessFilter NOTHING = new AccessFilter(Set.of());

  private final List<ChunkStoreUnderTest> opened = new ArrayList<>();

  @AfterEach
  void closeStores() throws IOException {
    for (ChunkStoreUnderTest s : opened) {
      s.store().close();
    }
    opened.clear();
  }

  // ---------------------------------------------------------------- the small demo corpus

  /** Six documents, seven chunks, three departments; one document without content hash. */
  private static Map<String, List<Chunk>> corpus() {
    Map<String, List<Chunk>> docs = new LinkedHashMap<>();
    docs.put("hr/leave.md", List.of(
        chunk("hr/leave.md", 0, "hr", "年假申请流程：员工须提前三天在 OA 系统中提交年假申请，由直属主管审批。"),
        chunk("hr/leave.md", 1, "hr", "病假须提供医院证明，病假期间工资按基本工资的百分之八十发放。")));
    docs.put("it/vpn.md", List.of(
        chunk("it/vpn.md", 0, "public", "VPN 连接失败时若出现错误码 ERR_4517，请先重置动态令牌，再重新登录客户端。")));
    docs.put("it/printer.md", List.of(
        chunk("it/printer.md", 0, "public", "打印机卡纸时，先关闭电源，再打开后盖取出纸张。")));
    docs.put("ops/backup.md", List.of(
        chunk("ops/backup.md", 0, "public",
            "Nightly backups run at 02:00 and are kept for 30 days on the NAS.")));
    docs.put("fin/travel.md", List.of(
        chunk("fin/travel.md", 0, "finance", "差旅报销须在出差结束后十五个工作日内提交发票原件。")));
    Chunk noHash = chunk("misc/notes.txt", 0, "public", "会议室预订请使用前台的登记表。");
    Map<String, String> meta = new HashMap<>(noHash.meta());
    meta.remove("contentHash");
    docs.put("misc/notes.txt", List.of(new Chunk(noHash.id(), noHash.docId(), 0, noHash.raw(),
        noHash.embedText(), noHash.headingPath(), 0, 0, noHash.endOffset(), meta)));
    return docs;
  }

  /** A chunk whose raw text is {@code text}, with heading, page and metadata filled in. */
  protected static Chunk chunk(String docId, int ordinal, String dept, String text) {
    String title = docId.substring(docId.lastIndexOf('/') + 1);
    int start = ordinal * 1000;
    return new Chunk(docId + "#" + ordinal, docId, ordinal, text, title + "\n" + text,
        List.of(title, "第" + (ordinal + 1) + "节"), ordinal + 1, start, start + text.length(),
        Map.of("source", docId, "dept", dept, "title", title, "contentHash", "sha-" + docId));
  }

  private static float[] vector(String text) {
    return EMBEDDER.embed(text);
  }

  private static List<EmbeddedChunk> embedded(List<Chunk> chunks) {
    return chunks.stream().map(c -> new EmbeddedChunk(c, vector(c.embedText()))).toList();
  }

  private ChunkStoreUnderTest openTracked(IndexManifest manifest) throws IOException {
    ChunkStoreUnderTest s = open(manifest, ANALYSIS);
    opened.add(s);
    return s;
  }

  private ChunkStoreUnderTest reopenTracked(ChunkStoreUnderTest previous, IndexManifest manifest)
      throws IOException {
    ChunkStoreUnderTest s = reopen(previous, manifest, ANALYSIS);
    opened.add(s);
    return s;
  }

  private void closeTracked(ChunkStoreUnderTest s) throws IOException {
    opened.remove(s);
    s.store().close();
  }

  private static void ingest(ChunkStoreUnderTest s, Map<String, List<Chunk>> docs)
      throws IOException {
    for (Map.Entry<String, List<Chunk>> e : docs.entrySet()) {
      s.writer().replaceDocument(e.getKey(), embedded(e.getValue()));
    }
    s.writer().commit();
  }

  private ChunkStoreUnderTest withCorpus() throws IOException {
    ChunkStoreUnderTest s = openTracked(MANIFEST);
    ingest(s, corpus());
    return s;
  }

  private static List<String> ids(List<ScoredChunk> hits) {
    return hits.stream().map(h -> h.chunk().id()).toList();
  }

  /** Ranks are 1..n and scores never increase. */
  private static void assertRanked(List<ScoredChunk> hits) {
    for (int i = 0; i < hits.size(); i++) {
      assertThat(hits.get(i).rank()).isEqualTo(i + 1);
    }
    assertThat(hits).extracting(ScoredChunk::score)
        .isSortedAccordingTo(Comparator.reverseOrder());
  }

  // ---------------------------------------------------------------- degenerate vectors

  /**
   * Many identical vectors (a repetitive log file) can split the HNSW graph so that the
   * approximate search misses allowed chunks; the dense route must still return the best allowed
   * chunk first and as many chunks as asked for.
   */
  @Test
  void should_find_the_best_chunk_among_many_identical_vectors() throws IOException {
    ChunkStoreUnderTest s = openTracked(MANIFEST);
    int dims = EMBEDDER.dimension();
    List<EmbeddedChunk> log = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      log.add(new EmbeddedChunk(chunk("logs/service.log", i, "hr", "INFO heartbeat ok"),
          axis(dims, 0)));
    }
    s.writer().replaceDocument("logs/service.log", log);
    for (int d = 1; d <= 20; d++) {
      s.writer().replaceDocument("docs/" + d,
          List.of(new EmbeddedChunk(chunk("docs/" + d, 0, "hr", "document " + d), axis(dims, d))));
    }
    s.writer().commit();

    List<ScoredChunk> hits = s.dense().searchDense(axis(dims, 7), 50, ALL);

    assertThat(hits).hasSize(50);
    assertThat(hits.get(0).chunk().docId()).isEqualTo("docs/7");
    assertThat(hits.get(0).score()).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-5));
    assertRanked(hits);
  }

  /** A unit-ish vector mostly along {@code axis}, with a small component shared by all. */
  private static float[] axis(int dims, int axis) {
    float[] v = new float[dims];
    v[dims - 1] = 0.3f;
    v[axis] = 0.95f;
    return org.openbook.embed.Vectors.normalize(v);
  }

  // ---------------------------------------------------------------- ingest and lookup

  @Test
  void should_count_chunks_and_documents_after_commit() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(s.store().count()).isEqualTo(7);
    IndexManifest m = s.store().manifest();
    assertThat(m.chunks()).isEqualTo(7);
    assertThat(m.documents()).isEqualTo(6);
    assertThat(m.embeddingModel()).isEqualTo(MANIFEST.embeddingModel());
    assertThat(m.dimension()).isEqualTo(MANIFEST.dimension());
    assertThat(m.analyzer()).isEqualTo(ANALYSIS.id());
  }

  @Test
  void i30_3_should_count_document_frequencies_over_the_departments_the_filter_allows_only()
      throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    assertThat(s.store()).isInstanceOf(ChunkStore.TermStatistics.class);
    ChunkStore.TermStatistics stats = (ChunkStore.TermStatistics) s.store();
    AccessFilter publicOnly = new AccessFilter(Set.of("public"));
    AccessFilter hr = new AccessFilter(Set.of("public", "hr"));

    assertThat(stats.docCount(ALL)).isEqualTo(7);
    assertThat(stats.docFreq("err_4517", ALL)).isEqualTo(1);
    // hr/leave.md#0 (dept hr) and fin/travel.md#0 (dept finance)
    assertThat(stats.docFreq("提交", ALL)).isEqualTo(2);
    assertThat(stats.docFreq("err_4519", ALL)).isZero();
    // a caller reading public only: the hr and finance chunks are not there, not even as counts
    assertThat(stats.docCount(publicOnly)).isEqualTo(4);
    assertThat(stats.docFreq("提交", publicOnly)).isZero();
    assertThat(stats.docFreq("err_4517", publicOnly)).isEqualTo(1);
    assertThat(stats.docCount(hr)).isEqualTo(6);
    assertThat(stats.docFreq("提交", hr)).isEqualTo(1);
    assertThat(stats.docFreq("提交", new AccessFilter(Set.of()))).isZero();
    assertThat(stats.docCount(new AccessFilter(Set.of()))).isZero();
  }

  @Test
  void should_return_stored_chunk_unchanged_by_id() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    Chunk expected = corpus().get("hr/leave.md").get(1);

    assertThat(s.store().get("hr/leave.md#1")).contains(expected);
    assertThat(s.store().get("hr/leave.md#9")).isEmpty();
  }

  @Test
  void i30_7_should_look_up_by_id_only_among_allowed_departments() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    Chunk expected = corpus().get("hr/leave.md").get(1);
    AccessFilter noHr = new AccessFilter(Set.of("public", "finance"));

    assertThat(s.store().get("hr/leave.md#1", new AccessFilter(Set.of("hr"))))
        .contains(expected);
    // another department's chunk and a missing one: the same empty answer
    assertThat(s.store().get("hr/leave.md#1", noHr)).isEmpty();
    assertThat(s.store().get("hr/leave.md#9", noHr)).isEmpty();
    assertThat(s.store().get("hr/leave.md#1", NOTHING)).isEmpty();
  }

  // ---------------------------------------------------------------- BM25 route

  @Test
  void should_rank_chinese_chunk_first_for_chinese_query() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    List<ScoredChunk> hits = s.sparse().searchSparse("年假怎么申请", 5, ALL);

    // Only the leave chunk shares tokens (年假, 申请) with the query.
    assertThat(ids(hits)).containsExactly("hr/leave.md#0");
    assertThat(hits.get(0).score()).isPositive();
  }

  @Test
  void should_rank_identifier_chunk_first_for_identifier_query() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(ids(s.sparse().searchSparse("ERR_4517", 5, ALL))).containsExactly("it/vpn.md#0");
    // 提交 occurs in two chunks, the identifier in one: the rarer term decides the first place.
    List<ScoredChunk> hits = s.sparse().searchSparse("提交 ERR_4517", 5, ALL);
    assertThat(ids(hits)).hasSize(3).first().isEqualTo("it/vpn.md#0");
    assertThat(ids(hits)).contains("hr/leave.md#0", "fin/travel.md#0");
    assertRanked(hits);
  }

  @Test
  void should_match_stemmed_english_words() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    List<ScoredChunk> hits = s.sparse().searchSparse("how long is a backup kept", 5, ALL);

    assertThat(ids(hits)).containsExactly("ops/backup.md#0");
  }

  @Test
  void should_return_nothing_for_query_without_tokens() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(s.sparse().searchSparse("，。！", 5, ALL)).isEmpty();
  }

  // ---------------------------------------------------------------- dense route

  @Test
  void should_return_own_vector_first_with_cosine_one() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    Chunk target = corpus().get("fin/travel.md").get(0);

    List<ScoredChunk> hits = s.dense().searchDense(vector(target.embedText()), 5, ALL);

    assertThat(hits).hasSize(5);
    assertThat(hits.get(0).chunk()).isEqualTo(target);
    assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-3));
    assertThat(hits.get(1).score()).isLessThan(0.999);
    assertRanked(hits);
  }

  // ---------------------------------------------------------------- access filter

  /** 30 forbidden chunks that match the query better than the 2 permitted ones. */
  private ChunkStoreUnderTest withCrowdedCorpus() throws IOException {
    ChunkStoreUnderTest s = openTracked(MANIFEST);
    Map<String, List<Chunk>> docs = new LinkedHashMap<>();
    for (int i = 0; i < 30; i++) {
      String id = "secret/s" + i + ".md";
      docs.put(id, List.of(chunk(id, 0, "secret", "年假申请 年假申请 年假申请 审批流程 编号" + i)));
    }
    docs.put("pub/a.md", List.of(chunk("pub/a.md", 0, "public", "年假申请需要主管审批。")));
    docs.put("pub/b.md", List.of(chunk("pub/b.md", 0, "public", "申请年假前请查看剩余天数。")));
    ingest(s, docs);
    return s;
  }

  @Test
  void should_keep_permitted_chunks_in_sparse_route_when_forbidden_ones_match_better()
      throws IOException {
    ChunkStoreUnderTest s = withCrowdedCorpus();
    AccessFilter publicOnly = new AccessFilter(Set.of("public"));

    // Unfiltered, the forbidden chunks take every place: the filter must act before top-N.
    assertThat(s.sparse().searchSparse("年假申请", 5, ALL)).hasSize(5)
        .allSatisfy(h -> assertThat(h.chunk().dept()).isEqualTo("secret"));
    List<ScoredChunk> hits = s.sparse().searchSparse("年假申请", 5, publicOnly);
    assertThat(ids(hits)).containsExactlyInAnyOrder("pub/a.md#0", "pub/b.md#0");
    assertRanked(hits);
  }

  @Test
  void should_keep_permitted_chunks_in_dense_route_when_forbidden_ones_match_better()
      throws IOException {
    ChunkStoreUnderTest s = withCrowdedCorpus();
    AccessFilter publicOnly = new AccessFilter(Set.of("public"));
    float[] query = vector("年假申请 年假申请 年假申请 审批流程");

    assertThat(s.dense().searchDense(query, 5, ALL)).hasSize(5)
        .allSatisfy(h -> assertThat(h.chunk().dept()).isEqualTo("secret"));
    List<ScoredChunk> hits = s.dense().searchDense(query, 5, publicOnly);
    assertThat(ids(hits)).containsExactlyInAnyOrder("pub/a.md#0", "pub/b.md#0");
    assertRanked(hits);
  }

  @Test
  void should_never_return_forbidden_department_in_either_route() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    AccessFilter noHr = new AccessFilter(Set.of("public", "finance"));

    assertThat(ids(s.sparse().searchSparse("年假申请 病假 工资", 10, ALL)))
        .containsExactlyInAnyOrder("hr/leave.md#0", "hr/leave.md#1");
    assertThat(s.sparse().searchSparse("年假申请 病假 工资", 10, noHr)).isEmpty();
    List<ScoredChunk> dense = s.dense().searchDense(
        vector(corpus().get("hr/leave.md").get(0).embedText()), 10, noHr);
    assertThat(ids(dense)).containsExactlyInAnyOrder(
        "it/vpn.md#0", "it/printer.md#0", "ops/backup.md#0", "fin/travel.md#0",
        "misc/notes.txt#0");
  }

  @Test
  void should_return_nothing_for_empty_filter() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(s.sparse().searchSparse("年假申请", 5, NOTHING)).isEmpty();
    assertThat(s.dense().searchDense(vector("年假申请"), 5, NOTHING)).isEmpty();
  }

  // ---------------------------------------------------------------- replace and delete

  @Test
  void should_leave_no_old_chunk_after_replacing_with_fewer() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    List<Chunk> three = List.of(
        chunk("it/vpn.md", 0, "public", "VPN 连接失败时若出现错误码 ERR_4517，请先重置动态令牌。"),
        chunk("it/vpn.md", 1, "public", "旧版客户端不再支持 ZQ-7781 型号的令牌。"),
        chunk("it/vpn.md", 2, "public", "旧说明：证书存放在 legacy_cert 目录。"));
    s.writer().replaceDocument("it/vpn.md", embedded(three));
    s.writer().commit();
    assertThat(s.store().count()).isEqualTo(9);

    Chunk replacement = chunk("it/vpn.md", 0, "public", "VPN 客户端已升级，错误码 ERR_9001 表示证书过期。");
    s.writer().replaceDocument("it/vpn.md", embedded(List.of(replacement)));
    s.writer().commit();

    assertThat(s.store().count()).isEqualTo(7);
    assertThat(s.store().get("it/vpn.md#1")).isEmpty();
    assertThat(s.store().get("it/vpn.md#0")).contains(replacement);
    assertThat(s.sparse().searchSparse("ZQ-7781 legacy_cert ERR_4517", 10, ALL)).isEmpty();
    assertThat(ids(s.sparse().searchSparse("ERR_9001", 10, ALL))).containsExactly("it/vpn.md#0");
    for (Chunk old : three.subList(1, 3)) {
      assertThat(ids(s.dense().searchDense(vector(old.embedText()), 10, ALL)))
          .hasSize(7).doesNotContain(old.id());
    }
  }

  @Test
  void should_remove_deleted_document_from_both_routes() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    Chunk travel = corpus().get("fin/travel.md").get(0);

    s.writer().deleteDocument("fin/travel.md");
    s.writer().commit();

    assertThat(s.store().count()).isEqualTo(6);
    assertThat(s.store().manifest().documents()).isEqualTo(5);
    assertThat(s.store().get(travel.id())).isEmpty();
    assertThat(s.sparse().searchSparse("差旅报销发票", 10, ALL)).isEmpty();
    assertThat(ids(s.dense().searchDense(vector(travel.embedText()), 10, ALL)))
        .hasSize(6).doesNotContain(travel.id());
    assertThat(s.catalog().documentHashes()).doesNotContainKey("fin/travel.md");
  }

  // ---------------------------------------------------------------- replace without a gap

  /**
   * Two versions of a small corpus. From v1 to v2 a document shrinks (a.md 3 → 1 chunks), one
   * grows (b.md 2 → 3), one is deleted (c.md), one is new (e.md) and one is unchanged (d.md).
   * Every chunk carries its version's marker word (aurora, zenith) and content hash.
   */
  private static Map<String, List<Chunk>> version(int v) {
    Map<String, List<Chunk>> docs = new TreeMap<>();
    int[] sizes = v == 1 ? new int[] {3, 2, 1, 2, 0} : new int[] {1, 3, 0, 2, 2};
    String[] names = {"gen/a.md", "gen/b.md", "gen/c.md", "gen/d.md", "gen/e.md"};
    for (int d = 0; d < names.length; d++) {
      if (sizes[d] == 0) {
        continue;
      }
      boolean unchanged = names[d].equals("gen/d.md");
      String gen = unchanged || v == 1 ? "aurora" : "zenith";
      List<Chunk> chunks = new ArrayList<>();
      for (int o = 0; o < sizes[d]; o++) {
        Chunk c = chunk(names[d], o, "public",
            gen + " 第" + o + "段 " + names[d] + " 版本说明 ordinal" + o);
        Map<String, String> meta = new HashMap<>(c.meta());
        meta.put("contentHash", "sha-" + gen + "-" + names[d]);
        chunks.add(new Chunk(c.id(), c.docId(), o, c.raw(), c.embedText(), c.headingPath(),
            c.page(), c.startOffset(), c.endOffset(), meta));
      }
      docs.put(names[d], chunks);
    }
    return docs;
  }

  /** The ingest from v1 to v2 as an ingest run makes it: replaces, deletes, two commits. */
  private static void ingestVersion2(ChunkStoreUnderTest s) throws IOException {
    Map<String, List<Chunk>> v2 = version(2);
    s.writer().replaceDocument("gen/a.md", embedded(v2.get("gen/a.md")));
    s.writer().replaceDocument("gen/b.md", embedded(v2.get("gen/b.md")));
    s.writer().commit();
    s.writer().deleteDocument("gen/c.md");
    s.writer().replaceDocument("gen/e.md", embedded(v2.get("gen/e.md")));
    s.writer().commit();
  }

  /** Puts the store into state v1 (whatever state it is in) and commits. */
  private static void restoreVersion1(ChunkStoreUnderTest s) throws IOException {
    ingest(s, version(1));
    s.writer().deleteDocument("gen/e.md");
    s.writer().commit();
  }

  /**
   * What a searcher sees of each document, checked to be wholly v1 or wholly v2, through the
   * lookup, both routes, the count and the catalog: no document half replaced, no orphan chunk.
   *
   * @return document id → version seen (1 or 2; 0 = absent, which is v1 for e.md, v2 for c.md)
   */
  private static Map<String, Integer> assertEveryDocumentWhole(ChunkStoreUnderTest s,
      String context) throws IOException {
    Map<String, List<Chunk>> v1 = version(1);
    Map<String, List<Chunk>> v2 = version(2);
    Set<String> names = new TreeSet<>(v1.keySet());
    names.addAll(v2.keySet());
    Map<String, Integer> seen = new TreeMap<>();
    long expectedCount = 0;
    Set<String> gen1 = new TreeSet<>();
    Set<String> gen2 = new TreeSet<>();
    for (String doc : names) {
      List<Chunk> old = v1.getOrDefault(doc, List.of());
      List<Chunk> now = v2.getOrDefault(doc, List.of());
      List<Chunk> found = new ArrayList<>();
      for (int o = 0; o < 4; o++) {
        s.store().get(doc + "#" + o).ifPresent(found::add);
      }
      int version = found.equals(old) ? 1 : found.equals(now) ? 2 : -1;
      assertThat(version)
          .as("%s: %s must be wholly v1 %s or wholly v2 %s, found %s", context, doc,
              chunkIds(old), chunkIds(now), found.stream().map(c -> c.id() + "=" + c.raw()).toList())
          .isPositive();
      seen.put(doc, found.isEmpty() ? 0 : version);
      expectedCount += found.size();
      for (Chunk c : found) {
        (c.raw().startsWith("aurora") ? gen1 : gen2).add(c.id());
      }
    }
    assertThat(s.store().count()).as("%s: chunks (an orphan would add one)", context)
        .isEqualTo(expectedCount);
    assertThat(idSet(s.sparse().searchSparse("aurora", 50, ALL))).as("%s: BM25 v1 marker", context)
        .isEqualTo(gen1);
    assertThat(idSet(s.sparse().searchSparse("zenith", 50, ALL))).as("%s: BM25 v2 marker", context)
        .isEqualTo(gen2);
    assertThat(s.dense().searchDense(vector("aurora 版本说明"), 50, ALL))
        .as("%s: dense route", context).hasSize((int) expectedCount);
    Map<String, String> hashes = new TreeMap<>();
    for (Map.Entry<String, Integer> e : seen.entrySet()) {
      if (e.getValue() > 0) {
        Map<String, List<Chunk>> v = e.getValue() == 1 ? v1 : v2;
        hashes.put(e.getKey(), v.get(e.getKey()).get(0).meta().get("contentHash"));
      }
    }
    assertThat(s.catalog().documentHashes()).as("%s: catalog", context)
        .containsExactlyInAnyOrderEntriesOf(hashes);
    return seen;
  }

  private static Set<String> idSet(List<ScoredChunk> hits) {
    return new TreeSet<>(ids(hits));
  }

  private static List<String> chunkIds(Collection<Chunk> chunks) {
    return chunks.stream().map(Chunk::id).toList();
  }

  /**
   * The writer is killed at every storage call of an ingest from v1 to v2, before the call and
   * after it took effect. After each kill, a commit by another writer (the hazard of a store that
   * replaces by delete-then-add) must still show every document wholly old or wholly new, and a
   * re-run of the ingest must leave exactly v2 with no orphan.
   */
  @Test
  @Tag("fault-injection")
  void should_keep_every_document_whole_when_the_writer_is_killed_at_any_call()
      throws IOException {
    ChunkStoreUnderTest s = openTracked(MANIFEST);
    restoreVersion1(s);
    closeTracked(s);
    InjectedFaults counting = InjectedFaults.counting();
    ChunkStoreUnderTest counted = reopenWithFaults(s, MANIFEST, ANALYSIS, counting);
    opened.add(counted);
    counting.arm();
    ingestVersion2(counted);
    closeTracked(counted);
    int calls = counting.calls();
    assertThat(calls).as("storage calls of the v2 ingest").isPositive();

    ChunkStoreUnderTest previous = counted;
    for (int k = 0; k < calls; k++) {
      for (InjectedFaults.When when : faultTimings()) {
        String context = "kill " + when + " call " + k + " of " + counting.log();
        ChunkStoreUnderTest plain = reopenTracked(previous, MANIFEST);
        restoreVersion1(plain);
        closeTracked(plain);

        InjectedFaults faults = InjectedFaults.killAt(k, when);
        ChunkStoreUnderTest faulty = reopenWithFaults(plain, MANIFEST, ANALYSIS, faults);
        faults.arm();
        boolean completed = false;
        try {
          ingestVersion2(faulty);
          completed = true;
        } catch (IOException | RuntimeException expected) {
          // the writer died; what matters is what the storage holds now
        }
        // A run may make fewer calls than the counted one (Lucene merges in the background);
        // then the kill never came and the ingest must simply have completed.
        assertThat(faults.fired() || completed).as(context).isTrue();
        try {
          faulty.store().close();
        } catch (IOException | RuntimeException ignored) {
          // a killed writer may fail to close; its storage is recovered below
        }

        ChunkStoreUnderTest recovered = reopenTracked(faulty, MANIFEST);
        // Another writer commits whatever the dead one left pending.
        recovered.writer().commit();
        assertEveryDocumentWhole(recovered, context);
        ingestVersion2(recovered);
        Map<String, Integer> after = assertEveryDocumentWhole(recovered, context + ", re-run");
        assertThat(after).as("%s: re-run gives v2", context).isEqualTo(Map.of(
            "gen/a.md", 2, "gen/b.md", 2, "gen/c.md", 0, "gen/d.md", 1, "gen/e.md", 2));
        closeTracked(recovered);
        previous = recovered;
      }
    }
  }

  // ---------------------------------------------------------------- reopen and manifest

  @Test
  void should_give_same_count_and_results_after_reopen() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    float[] query = vector("年假申请需要审批");
    List<ScoredChunk> sparseBefore = s.sparse().searchSparse("年假 ERR_4517 backups", 5, ALL);
    List<ScoredChunk> denseBefore = s.dense().searchDense(query, 5, ALL);
    assertThat(sparseBefore).hasSize(3);
    closeTracked(s);

    ChunkStoreUnderTest again = reopenTracked(s, MANIFEST);

    assertThat(again.store().count()).isEqualTo(7);
    assertThat(again.store().manifest().documents()).isEqualTo(6);
    assertThat(again.sparse().searchSparse("年假 ERR_4517 backups", 5, ALL))
        .isEqualTo(sparseBefore);
    assertThat(again.dense().searchDense(query, 5, ALL)).isEqualTo(denseBefore);
  }

  @Test
  void should_refuse_reopening_with_another_model_or_dimension() throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    closeTracked(s);
    IndexManifest otherModel = new IndexManifest("bge-small-zh-v1.5", MANIFEST.dimension(),
        IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);
    IndexManifest otherDimension = new IndexManifest(MANIFEST.embeddingModel(), 128,
        IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0);

    assertThatThrownBy(() -> reopenTracked(s, otherModel))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("embedding model")
        .hasMessageContaining("bge-small-zh-v1.5");
    assertThatThrownBy(() -> reopenTracked(s, otherDimension))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("dimension");
  }

  // ---------------------------------------------------------------- further dense fields

  /** A second model for the {@code en} field: another dimension than the primary one. */
  protected static final HashEmbedder EN_EMBEDDER = new HashEmbedder(48, 512);
  protected static final IndexManifest BILINGUAL = new IndexManifest(EMBEDDER.modelId(),
      EMBEDDER.dimension(), IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0,
      List.of(new DenseField("en", "hash-en", EN_EMBEDDER.dimension())));

  private static final Chunk BACKUP = chunk("ops/backup.md", 0, "public",
      "Nightly backups run at 02:00 and are kept for 30 days on the NAS.");
  private static final Chunk RESTORE = chunk("ops/restore.md", 0, "finance",
      "Restoring a database from the NAS takes about one hour per terabyte.");
  private static final Chunk LEAVE = chunk("hr/leave.md", 0, "hr",
      "年假申请流程：员工须提前三天在 OA 系统中提交年假申请，由直属主管审批。");

  /** Two English chunks with an {@code en} vector, one Chinese chunk with the primary only. */
  private ChunkStoreUnderTest withBilingualCorpus() throws IOException {
    ChunkStoreUnderTest s = openTracked(BILINGUAL);
    for (Chunk c : List.of(BACKUP, RESTORE)) {
      s.writer().replaceDocument(c.docId(), List.of(new EmbeddedChunk(c, vector(c.embedText()),
          Map.of("en", EN_EMBEDDER.embed(c.embedText())))));
    }
    s.writer().replaceDocument(LEAVE.docId(), embedded(List.of(LEAVE)));
    s.writer().commit();
    return s;
  }

  @Test
  void should_search_a_further_dense_field_among_the_chunks_with_a_vector_there()
      throws IOException {
    ChunkStoreUnderTest s = withBilingualCorpus();

    List<ScoredChunk> hits =
        s.dense().searchDense("en", EN_EMBEDDER.embed(BACKUP.embedText()), 5, ALL);

    // LEAVE has no en vector: only the two English chunks, own text first with cosine 1
    assertThat(ids(hits)).containsExactly(BACKUP.id(), RESTORE.id());
    assertThat(hits.get(0).score()).isCloseTo(1.0, within(1e-4));
    assertRanked(hits);
    // the primary field still holds every chunk
    assertThat(ids(s.dense().searchDense(vector(LEAVE.embedText()), 5, ALL)))
        .containsExactlyInAnyOrder(LEAVE.id(), BACKUP.id(), RESTORE.id());
  }

  @Test
  void should_apply_the_access_filter_inside_a_further_dense_field() throws IOException {
    ChunkStoreUnderTest s = withBilingualCorpus();
    float[] q = EN_EMBEDDER.embed(RESTORE.embedText());

    assertThat(ids(s.dense().searchDense("en", q, 5, new AccessFilter(Set.of("public")))))
        .containsExactly(BACKUP.id());
    assertThat(s.dense().searchDense("en", q, 5, new AccessFilter(Set.of("hr")))).isEmpty();
    assertThat(s.dense().searchDense("en", q, 5, NOTHING)).isEmpty();
  }

  @Test
  void should_refuse_a_dense_field_the_manifest_does_not_have() throws IOException {
    ChunkStoreUnderTest s = withBilingualCorpus();
    Chunk c = chunk("ops/other.md", 0, "public", "Other text.");

    assertThatThrownBy(() -> s.dense().searchDense("fr", EN_EMBEDDER.embed("x"), 5, ALL))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fr");
    assertThatThrownBy(() -> s.dense().searchDense("en", vector("x"), 5, ALL))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dimensions");
    assertThatThrownBy(() -> s.writer().replaceDocument(c.docId(), List.of(new EmbeddedChunk(c,
        vector(c.embedText()), Map.of("fr", EN_EMBEDDER.embed("x"))))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fr");
  }

  @Test
  void should_refuse_reopening_with_another_set_of_dense_fields() throws IOException {
    ChunkStoreUnderTest bilingual = withBilingualCorpus();
    closeTracked(bilingual);
    ChunkStoreUnderTest single = withCorpus();
    closeTracked(single);
    IndexManifest otherEnglishModel = new IndexManifest(EMBEDDER.modelId(), EMBEDDER.dimension(),
        IndexManifest.COSINE, ANALYSIS.id(), "test-chunker", 0, 0,
        List.of(new DenseField("en", "bge-small-en-v1.5-q", EN_EMBEDDER.dimension())));

    assertThatThrownBy(() -> reopenTracked(bilingual, MANIFEST))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("dense fields")
        .hasMessageContaining("--reset");
    assertThatThrownBy(() -> reopenTracked(bilingual, otherEnglishModel))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("bge-small-en-v1.5-q");
    assertThatThrownBy(() -> reopenTracked(single, BILINGUAL))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("dense fields");
    // the same set opens, and the vectors are still there
    ChunkStoreUnderTest again = reopenTracked(bilingual, BILINGUAL);
    assertThat(ids(again.dense().searchDense("en", EN_EMBEDDER.embed(BACKUP.embedText()), 1,
        ALL))).containsExactly(BACKUP.id());
  }

  // ---------------------------------------------------------------- catalog

  @Test
  void should_list_each_document_with_its_content_hash() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(s.catalog().documentHashes()).containsExactlyInAnyOrderEntriesOf(Map.of(
        "hr/leave.md", "sha-hr/leave.md",
        "it/vpn.md", "sha-it/vpn.md",
        "it/printer.md", "sha-it/printer.md",
        "ops/backup.md", "sha-ops/backup.md",
        "fin/travel.md", "sha-fin/travel.md",
        "misc/notes.txt", ""));
  }

  @Test
  void should_list_each_document_with_dept_title_chunk_count_and_hash() throws IOException {
    ChunkStoreUnderTest s = withCorpus();

    assertThat(s.catalog().documents()).containsExactly(
        new DocumentEntry("fin/travel.md", "finance", "travel.md", 1, "sha-fin/travel.md"),
        new DocumentEntry("hr/leave.md", "hr", "leave.md", 2, "sha-hr/leave.md"),
        new DocumentEntry("it/printer.md", "public", "printer.md", 1, "sha-it/printer.md"),
        new DocumentEntry("it/vpn.md", "public", "vpn.md", 1, "sha-it/vpn.md"),
        new DocumentEntry("misc/notes.txt", "public", "notes.txt", 1, ""),
        new DocumentEntry("ops/backup.md", "public", "backup.md", 1, "sha-ops/backup.md"));
  }

  @Test
  void should_count_only_the_new_chunks_after_replacing_and_drop_deleted_documents()
      throws IOException {
    ChunkStoreUnderTest s = withCorpus();
    List<Chunk> three = List.of(
        chunk("it/vpn.md", 0, "it", "第一段"), chunk("it/vpn.md", 1, "it", "第二段"),
        chunk("it/vpn.md", 2, "it", "第三段"));
    s.writer().replaceDocument("it/vpn.md", embedded(three));
    s.writer().replaceDocument("hr/leave.md",
        embedded(List.of(chunk("hr/leave.md", 0, "hr", "只剩一段"))));
    s.writer().deleteDocument("fin/travel.md");
    s.writer().commit();

    assertThat(s.catalog().documents()).extracting(DocumentEntry::source, DocumentEntry::dept,
        DocumentEntry::chunks).containsExactly(
        org.assertj.core.groups.Tuple.tuple("hr/leave.md", "hr", 1),
        org.assertj.core.groups.Tuple.tuple("it/printer.md", "public", 1),
        org.assertj.core.groups.Tuple.tuple("it/vpn.md", "it", 3),
        org.assertj.core.groups.Tuple.tuple("misc/notes.txt", "public", 1),
        org.assertj.core.groups.Tuple.tuple("ops/backup.md", "public", 1));
  }
}
