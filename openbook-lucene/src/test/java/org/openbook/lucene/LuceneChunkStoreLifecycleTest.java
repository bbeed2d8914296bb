package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.lucene.TestCorpus.ANALYSIS;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;
import static org.openbook.lucene.TestCorpus.hashManifest;
import static org.openbook.lucene.TestCorpus.hashed;
import static org.openbook.lucene.TestCorpus.ids;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.ScoredChunk;

/** Opening, manifest, persistence, replace and delete (R16 metric check, R20 store side). */
class LuceneChunkStoreLifecycleTest {

  @TempDir Path dir;

  private static final List<String> POLICY_V1 = List.of("出差需提前申请。", "报销需附发票。", "加班需主管审批。");

  @Test
  void should_record_settings_and_counts_in_the_committed_manifest() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      assertThat(store.manifest().chunks()).isZero();
      replacePolicy(store, POLICY_V1);
      addAll(store, chunk("other.md", "HR", "年假每年十天。"));

      assertThat(store.manifest()).isEqualTo(new IndexManifest(
          "test-hash-256", 256, "cosine", "openbook-cjk_bigram-v2", "test-chunker", 2, 4));
      assertThat(LuceneChunkStore.readManifest(dir)).contains(store.manifest());
    }
  }

  @Test
  void should_refuse_an_index_built_with_another_model_and_say_how_to_rebuild()
      throws IOException {
    TestCorpus.openHashStore(dir).close();

    assertThatThrownBy(() -> LuceneChunkStore.open(dir, TestCorpus.manifest("bge-small-zh-v1.5",
        256), ANALYSIS))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("embedding model")
        .hasMessageContaining("test-hash-256")
        .hasMessageContaining("--reset");
    assertThatThrownBy(() -> LuceneChunkStore.openExisting(dir, TestCorpus.manifest(
        "test-hash-256", 512), ANALYSIS))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("dimension");
  }

  @Test
  void should_refuse_an_index_built_with_another_analyzer() throws IOException {
    TestCorpus.openHashStore(dir).close();
    OpenBookAnalysis smartcn = OpenBookAnalysis.of(OpenBookAnalysis.Strategy.SMARTCN);
    IndexManifest wanted = new IndexManifest("test-hash-256", 256, IndexManifest.COSINE,
        smartcn.id(), "test-chunker", 0, 0);

    assertThatThrownBy(() -> LuceneChunkStore.open(dir, wanted, smartcn))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("analyzer")
        .hasMessageContaining("openbook-smartcn-v2")
        .hasMessageContaining("--reset");
  }

  @Test
  void should_refuse_an_index_whose_manifest_records_another_metric() throws IOException {
    try (FSDirectory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
      IndexManifest l2 = new IndexManifest("test-hash-256", 256, "l2", ANALYSIS.id(), "x", 0, 0);
      w.setLiveCommitData(ManifestCodec.userData(l2).entrySet());
      w.commit();
    }

    assertThatThrownBy(() -> TestCorpus.openHashStore(dir))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("metric: index has 'l2'")
        .hasMessageContaining("--reset");
  }

  @Test
  void should_refuse_a_lucene_index_without_manifest() throws IOException {
    try (FSDirectory d = FSDirectory.open(dir);
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig())) {
      w.commit();
    }

    assertThatThrownBy(() -> TestCorpus.openHashStore(dir))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("without an OpenBook manifest")
        .hasMessageContaining("--reset");
  }

  @Test
  void should_refuse_settings_that_do_not_match_the_analysis_given() {
    IndexManifest l2 = new IndexManifest("m", 256, "l2", ANALYSIS.id(), "x", 0, 0);
    IndexManifest otherAnalyzer = new IndexManifest("m", 256, "cosine", "standard", "x", 0, 0);

    assertThatThrownBy(() -> LuceneChunkStore.open(dir, l2, ANALYSIS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'l2'");
    assertThatThrownBy(() -> LuceneChunkStore.open(dir, otherAnalyzer, ANALYSIS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'standard'");
  }

  @Test
  void should_fail_clearly_when_opening_for_search_where_no_index_is() throws IOException {
    Path missing = dir.resolve("nowhere");

    assertThatThrownBy(() -> LuceneChunkStore.openExisting(missing, hashManifest(), ANALYSIS))
        .isInstanceOf(NoSuchFileException.class)
        .hasMessageContaining(missing.toString())
        .hasMessageContaining("no OpenBook index");
    assertThatThrownBy(() -> LuceneChunkStore.openExisting(dir, hashManifest(), ANALYSIS))
        .isInstanceOf(NoSuchFileException.class);
    assertThat(Files.exists(missing)).isFalse();
    assertThat(LuceneChunkStore.readManifest(missing)).isEmpty();
  }

  @Test
  void should_not_create_an_index_in_a_folder_holding_other_files() throws IOException {
    Files.writeString(dir.resolve("notes.txt"), "mine");

    assertThatThrownBy(() -> TestCorpus.openHashStore(dir))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining("notes.txt");
    assertThatThrownBy(() -> LuceneChunkStore.create(dir, hashManifest(), ANALYSIS))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  @Test
  void should_give_the_same_count_and_results_after_reopening() throws IOException {
    List<String> sparse;
    List<String> dense;
    Map<String, String> hashes;
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      replacePolicy(store, POLICY_V1);
      addAll(store, chunk("other.md", "HR", "出差补贴每天一百元。"));
      sparse = ids(store.searchSparse("出差申请", 10, HR));
      dense = ids(store.searchDense(TestCorpus.EMBEDDER.embed("出差申请"), 10, HR));
      hashes = store.documentHashes();
    }

    try (LuceneChunkStore reopened =
        LuceneChunkStore.openExisting(dir, hashManifest(), ANALYSIS)) {
      assertThat(reopened.count()).isEqualTo(4);
      assertThat(reopened.manifest().documents()).isEqualTo(2);
      assertThat(ids(reopened.searchSparse("出差申请", 10, HR))).isEqualTo(sparse)
          .startsWith("docs/policy.md#0");
      assertThat(ids(reopened.searchDense(TestCorpus.EMBEDDER.embed("出差申请"), 10, HR)))
          .isEqualTo(dense);
      assertThat(reopened.documentIds()).containsExactly("docs/policy.md", "other.md");
      assertThat(reopened.documentHashes()).isEqualTo(hashes)
          .containsExactly(Map.entry("docs/policy.md", "hash-3"), Map.entry("other.md", ""));
    }
  }

  @Test
  void should_rebuild_every_chunk_field_from_the_index() throws IOException {
    Chunk original = new Chunk("hr/a.md#2", "hr/a.md", 2, "年假每年十天。",
        "员工手册\n休假 > 年假\n年假每年十天。", List.of("休假", "年假"), 3, 40, 47,
        Map.of("source", "hr/a.md", "dept", "HR", "title", "员工手册", "contentHash", "abc"));
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      store.replaceDocument("hr/a.md", List.of(hashed(original)));
      store.commit();

      assertThat(store.get("hr/a.md#2")).contains(original);
      assertThat(store.get("hr/a.md#9")).isEmpty();
    }
  }

  // R20 on the store: a shrunk document keeps no orphan chunk on either route.
  @Test
  void should_leave_no_old_chunks_when_a_document_is_replaced_by_fewer() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunk("other.md", "HR", "年假每年十天。"));
      replacePolicy(store, POLICY_V1);
      assertThat(ids(store.searchSparse("加班审批", 10, HR))).containsExactly("docs/policy.md#2");

      replacePolicy(store, List.of("出差需提前申请。"));

      assertThat(store.count()).isEqualTo(2);
      assertThat(store.manifest().chunks()).isEqualTo(2);
      assertThat(store.searchSparse("加班审批", 10, HR)).isEmpty();
      assertThat(store.searchSparse("报销发票", 10, HR)).isEmpty();
      for (String q : List.of("加班需主管审批。", "报销需附发票。")) {
        assertThat(ids(store.searchDense(TestCorpus.EMBEDDER.embed(q), 10, HR)))
            .containsExactlyInAnyOrder("docs/policy.md#0", "other.md");
      }
      assertThat(store.get("docs/policy.md#1")).isEmpty();

      replacePolicy(store, List.of("出差需提前申请。"));
      assertThat(store.count()).as("re-indexing unchanged adds no duplicates").isEqualTo(2);
    }
  }

  @Test
  void should_remove_a_deleted_document_from_both_routes_and_counts() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunk("other.md", "HR", "年假每年十天。"));
      replacePolicy(store, POLICY_V1);

      store.deleteDocument("docs/policy.md");
      store.commit();

      assertThat(store.count()).isEqualTo(1);
      assertThat(store.manifest().documents()).isEqualTo(1);
      assertThat(store.documentIds()).containsExactly("other.md");
      assertThat(store.searchSparse("出差申请", 10, HR)).isEmpty();
      assertThat(ids(store.searchDense(TestCorpus.EMBEDDER.embed("出差需提前申请。"), 10, HR)))
          .containsExactly("other.md");
    }
  }

  @Test
  void should_show_changes_only_after_commit_and_drop_them_on_close_without_commit()
      throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      store.replaceDocument("a", List.of(hashed(chunk("a", "HR", "年假每年十天。"))));
      assertThat(store.count()).isZero();
      assertThat(store.searchSparse("年假", 10, HR)).isEmpty();
    }
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      assertThat(store.count()).isZero();
    }
  }

  @Test
  void should_empty_an_existing_index_on_create_and_accept_new_settings() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      replacePolicy(store, POLICY_V1);
    }
    IndexManifest other = TestCorpus.manifest("bge-small-zh-v1.5", 512);

    try (LuceneChunkStore store = LuceneChunkStore.create(dir, other, ANALYSIS)) {
      assertThat(store.count()).isZero();
      assertThat(store.manifest().embeddingModel()).isEqualTo("bge-small-zh-v1.5");
    }
    try (LuceneChunkStore store = LuceneChunkStore.openExisting(dir, other, ANALYSIS)) {
      assertThat(store.documentIds()).isEmpty();
    }
  }

  @Test
  void should_let_a_search_only_store_stay_open_while_another_writes() throws IOException {
    TestCorpus.openHashStore(dir).close();
    try (LuceneChunkStore reader = LuceneChunkStore.openExisting(dir, hashManifest(), ANALYSIS);
        LuceneChunkStore writer = TestCorpus.openHashStore(dir)) {
      assertThat(reader.searchSparse("年假", 10, HR)).isEmpty();
      addAll(writer, chunk("a", "HR", "年假每年十天。"));
      assertThat(writer.count()).isEqualTo(1);
    }
  }

  @Test
  void should_reject_a_bad_vector_naming_the_chunk_and_write_nothing() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      Chunk good = chunk("d", 0, "HR", "年假每年十天。");
      Chunk bad = chunk("d", 1, "HR", "出差需提前申请。");
      List<EmbeddedChunk> chunks = List.of(hashed(good), new EmbeddedChunk(bad, new float[3]));

      assertThatThrownBy(() -> store.replaceDocument("d", chunks))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("chunk d#1")
          .hasMessageContaining("3 dimensions");
      List<EmbeddedChunk> zero = List.of(new EmbeddedChunk(bad, new float[256]));
      assertThatThrownBy(() -> store.replaceDocument("d", zero))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("chunk d#1");
      List<EmbeddedChunk> foreign = List.of(hashed(good));
      assertThatThrownBy(() -> store.replaceDocument("e", foreign))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("belongs to document 'd'");
      store.commit();
      assertThat(store.count()).isZero();
    }
  }

  @Test
  void should_serve_searches_while_another_thread_writes() throws Exception {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunk("stable", "HR", "年假每年十天。"));
      AtomicBoolean done = new AtomicBoolean();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Integer> sizes = new ArrayList<>();
      Thread searcher = new Thread(() -> {
        try {
          while (!done.get()) {
            List<ScoredChunk> hits = store.searchSparse("年假", 10, HR);
            sizes.add(hits.size());
            store.searchDense(TestCorpus.EMBEDDER.embed("年假"), 5, HR);
          }
        } catch (Throwable t) {
          failure.set(t);
        }
      });
      searcher.start();
      for (int i = 0; i < 5; i++) {
        store.replaceDocument("w", List.of(hashed(chunk("w", "HR", "年假第" + i + "版"))));
        store.commit();
      }
      done.set(true);
      searcher.join();

      assertThat(failure.get()).isNull();
      assertThat(sizes).isNotEmpty().allMatch(n -> n == 1 || n == 2);
      assertThat(store.count()).isEqualTo(2);
    }
  }

  /** Replaces docs/policy.md (dept HR) by one chunk per text, with contentHash meta, commits. */
  private static void replacePolicy(LuceneChunkStore store, List<String> texts)
      throws IOException {
    List<EmbeddedChunk> chunks = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      Chunk c = new Chunk("docs/policy.md#" + i, "docs/policy.md", i, text, text, List.of(), 0,
          0, text.length(), Map.of("source", "docs/policy.md", "dept", "HR",
              "contentHash", "hash-" + texts.size()));
      chunks.add(hashed(c));
    }
    store.replaceDocument("docs/policy.md", chunks);
    store.commit();
  }
}
