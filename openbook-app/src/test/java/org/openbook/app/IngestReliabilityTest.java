package org.openbook.app;

import org.openbook.engine.OpenBook;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.embed.EmbeddingCache;
import org.openbook.index.AccessFilter;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.testing.HashEmbedder;

/** Issue 6 / R20: incremental ingest leaves nothing stale on either route, and persists. */
class IngestReliabilityTest {

  private static final AccessFilter ALL = new AccessFilter(Set.of("public", "hr"));
  private static final String POLICY = "docs/policy.md";
  private static final String POLICY_V1 = "---\ndept: HR\n---\n## 出差\n出差需提前申请。\n"
      + "## 报销\n报销需附发票。\n## 加班\n加班需主管审批。\n";
  private static final String POLICY_V2 = "---\ndept: HR\n---\n## 出差\n出差需提前申请。\n";

  @TempDir Path kb;
  @TempDir Path index;

  private final HashEmbedder embedder = new HashEmbedder();

  private OpenBook open(boolean write, boolean reset) throws IOException {
    return OpenBook.open(index, OpenBookConfig.defaults(), embedder, write, reset);
  }

  private IngestReport ingest(boolean reset) throws IOException {
    try (OpenBook e = open(true, reset)) {
      return e.ingest(kb, IngestListener.NONE);
    }
  }

  private void write(String source, String text) throws IOException {
    Path p = kb.resolve(source);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text);
  }

  /** Ids of chunks of {@code source} on the dense route (exhaustive search). */
  private Set<String> denseOf(LuceneChunkStore store, String source) throws IOException {
    return IndexConsistency.denseIds(store, embedder, ALL).stream()
        .filter(id -> id.startsWith(source + "#")).collect(Collectors.toSet());
  }

  private Set<String> sparseOf(LuceneChunkStore store, String query, String source)
      throws IOException {
    return IndexConsistency.sparseIds(store, query, ALL).stream()
        .filter(id -> id.startsWith(source + "#")).collect(Collectors.toSet());
  }

  @Test
  void should_leave_no_orphan_chunk_of_a_shrunk_or_deleted_file_on_either_route_r20()
      throws IOException {
    write(POLICY, POLICY_V1);
    write("docs/other.md", "# 年假\n年假每年十天。\n");
    ingest(false);
    try (OpenBook e = open(false, false)) {
      assertThat(denseOf(e.luceneStore(), POLICY)).hasSize(3);
      assertThat(sparseOf(e.luceneStore(), "出差 报销 加班", POLICY)).hasSize(3);
    }

    write(POLICY, POLICY_V2);
    IngestReport v2 = ingest(false);
    assertThat(v2.updated()).isEqualTo(1);
    assertThat(v2.unchanged()).containsExactly("docs/other.md");
    try (OpenBook e = open(false, false)) {
      LuceneChunkStore s = e.luceneStore();
      assertThat(denseOf(s, POLICY)).containsExactly(POLICY + "#0");
      assertThat(sparseOf(s, "出差 报销 加班", POLICY)).containsExactly(POLICY + "#0");
      assertThat(sparseOf(s, "加班审批", POLICY)).isEmpty();
      assertThat(sparseOf(s, "报销发票", POLICY)).isEmpty();
      IndexConsistency.assertConsistent(s, embedder, ALL, null);
      assertThat(s.count()).isEqualTo(2);
    }

    Files.delete(kb.resolve(POLICY));
    IngestReport deleted = ingest(false);
    assertThat(deleted.removed()).containsExactly(POLICY);
    List<String> before;
    try (OpenBook e = open(false, false)) {
      LuceneChunkStore s = e.luceneStore();
      assertThat(denseOf(s, POLICY)).isEmpty();
      assertThat(sparseOf(s, "出差 报销 加班", POLICY)).isEmpty();
      assertThat(s.count()).isEqualTo(1);
      assertThat(s.manifest().documents()).isEqualTo(1);
      before = IndexConsistency.ids(s.searchSparse("年假", 10, ALL)).stream().toList();
    }

    // restart: a new engine over the persisted folder sees exactly the same
    try (OpenBook e = open(false, false)) {
      assertThat(e.luceneStore().chunkIds()).containsExactly("docs/other.md#0");
      assertThat(IndexConsistency.ids(e.luceneStore().searchSparse("年假", 10, ALL)).stream().toList())
          .isEqualTo(before).containsExactly("docs/other.md#0");
      IndexConsistency.assertConsistent(e.luceneStore(), embedder, ALL, null);
    }

    int embedded = embedder.textsEmbedded();
    IngestReport again = ingest(false);
    assertThat(again.unchanged()).containsExactly("docs/other.md");
    assertThat(again.indexed()).isEmpty();
    assertThat(embedder.textsEmbedded()).isEqualTo(embedded);
    try (OpenBook e = open(false, false)) {
      assertThat(e.count()).isEqualTo(1);
    }
  }

  @Test
  void should_handle_edit_to_fewer_chunks_rename_and_delete_and_embed_only_new_text()
      throws IOException {
    write("keep.md", "# 保留\n## 甲\n年假每年十天。\n## 乙\n病假需证明。\n");
    write("edit.md", "# 编辑\n## 出差\n出差需提前申请。\n## 报销\n报销需附发票。\n## 加班\n加班需主管审批。\n");
    write("move.md", "# 移动\n## 试用\n试用期三个月。\n");
    write("gone.md", "# 删除\n## 旧\n旧制度作废。\n");
    IngestReport first = ingest(false);
    assertThat(first.added()).isEqualTo(4);
    assertThat(embedder.textsEmbedded()).isEqualTo(first.chunks()).isEqualTo(7);

    write("edit.md", "# 编辑\n## 出差\n出差需提前申请。\n## 新增\n远程办公需登记。\n");
    Files.move(kb.resolve("move.md"), kb.resolve("moved.md"));
    Files.delete(kb.resolve("gone.md"));
    IngestReport second = ingest(false);

    assertThat(second.added()).isEqualTo(1);
    assertThat(second.updated()).isEqualTo(1);
    assertThat(second.removed()).containsExactly("gone.md", "move.md");
    assertThat(second.unchanged()).containsExactly("keep.md");
    // only "远程办公需登记" is new text: keep.md was skipped by its hash, and the cache
    // answered edit.md's unchanged section and the renamed file
    assertThat(embedder.textsEmbedded()).isEqualTo(7 + 1);
    try (OpenBook e = open(false, false)) {
      LuceneChunkStore s = e.luceneStore();
      assertThat(s.chunkIds()).containsExactly("edit.md#0", "edit.md#1", "keep.md#0",
          "keep.md#1", "moved.md#0");
      assertThat(sparseOf(s, "报销发票", "edit.md")).isEmpty();
      assertThat(sparseOf(s, "加班审批", "edit.md")).isEmpty();
      assertThat(sparseOf(s, "试用期", "move.md")).isEmpty();
      assertThat(sparseOf(s, "试用期", "moved.md")).containsExactly("moved.md#0");
      assertThat(denseOf(s, "gone.md")).isEmpty();
      IndexConsistency.assertConsistent(s, embedder, ALL, null);
      assertThat(s.manifest().documents()).isEqualTo(3);
    }
  }

  @Test
  void should_rebuild_from_scratch_on_reset_with_embeddings_from_the_cache() throws IOException {
    write("a.md", "# 甲\n年假每年十天。\n");
    write("b.md", "# 乙\n报销需附发票。\n");
    ingest(false);
    Files.delete(kb.resolve("b.md"));
    int embedded = embedder.textsEmbedded();

    IngestReport reset = ingest(true);

    assertThat(reset.added()).isEqualTo(1);
    assertThat(reset.updated()).isZero();
    assertThat(reset.unchanged()).isEmpty();
    assertThat(reset.removed()).isEmpty();
    assertThat(embedder.textsEmbedded()).isEqualTo(embedded);
    assertThat(Files.isDirectory(index.resolve(EmbeddingCache.FOLDER_NAME))).isTrue();
    try (OpenBook e = open(false, false)) {
      assertThat(e.luceneStore().chunkIds()).containsExactly("a.md#0");
      IndexConsistency.assertConsistent(e.luceneStore(), embedder, ALL, null);
    }
  }

  @Test
  void should_ingest_normally_when_the_embedding_cache_is_corrupt() throws IOException {
    write("a.md", "# 甲\n年假每年十天。\n");
    ingest(false);
    Path cache = index.resolve(EmbeddingCache.FOLDER_NAME);
    try (var files = Files.list(cache)) {
      for (Path f : files.toList()) {
        Files.write(f, new byte[] {42});
      }
    }

    IngestReport r = ingest(true);

    assertThat(r.added()).isEqualTo(1);
    assertThat(embedder.textsEmbedded()).isEqualTo(2);
  }

  @Test
  void should_refuse_a_second_concurrent_ingest_with_a_clear_message() throws IOException {
    write("a.md", "# 甲\n年假每年十天。\n");
    try (OpenBook first = open(true, false)) {
      assertThatThrownBy(() -> open(true, false))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("another ingest is writing to " + index);
      assertThatThrownBy(() -> open(true, true))
          .hasMessageStartingWith("another ingest is writing to " + index);
      // searching is not writing
      try (OpenBook reader = open(false, false)) {
        assertThat(reader.count()).isZero();
      }
      first.ingest(kb, IngestListener.NONE);
    }
    try (OpenBook e = open(false, false)) {
      assertThat(e.count()).isEqualTo(1);
    }
  }
}
