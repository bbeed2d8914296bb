package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.embed.EmbeddingCache;

/** Single writer, snapshot reads and the chunk-id listing (issue 6). */
class LuceneChunkStoreWriterTest {

  @TempDir Path dir;

  @Test
  void should_refuse_a_second_writer_with_a_message_naming_the_index() throws IOException {
    try (LuceneChunkStore first = TestCorpus.openHashStore(dir);
         LuceneChunkStore second = TestCorpus.openHashStore(dir)) {
      first.lockForWriting();

      assertThatThrownBy(second::lockForWriting)
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("another ingest is writing to " + dir);
      assertThatThrownBy(() -> LuceneChunkStore.create(dir, TestCorpus.hashManifest(),
          TestCorpus.ANALYSIS))
          .hasMessageStartingWith("another ingest is writing to " + dir);
    }
  }

  @Test
  void should_let_a_reader_keep_its_snapshot_while_a_writer_commits() throws IOException {
    try (LuceneChunkStore writer = TestCorpus.openHashStore(dir)) {
      addAll(writer, chunk("a.md", 0, "HR", "出差需提前申请。"));
      try (LuceneChunkStore reader = LuceneChunkStore.openExisting(dir,
          TestCorpus.hashManifest(), TestCorpus.ANALYSIS)) {
        addAll(writer, chunk("b.md", 0, "HR", "报销需附发票。"));

        assertThat(reader.chunkIds()).containsExactly("a.md#0");
        assertThat(reader.manifest().chunks()).isEqualTo(1);
        assertThat(writer.chunkIds()).containsExactly("a.md#0", "b.md#0");
        assertThat(writer.manifest().chunks()).isEqualTo(2);

        assertThat(reader.refresh()).isTrue();
        assertThat(reader.chunkIds()).containsExactly("a.md#0", "b.md#0");
        assertThat(reader.manifest().chunks()).isEqualTo(2);
        assertThat(reader.refresh()).isFalse();
      }
    }
  }

  @Test
  void should_not_write_a_new_commit_when_nothing_changed() throws IOException {
    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunk("a.md", 0, "HR", "出差需提前申请。"));
      List<String> before = segmentFiles();
      store.lockForWriting();
      store.commit();

      assertThat(segmentFiles()).isEqualTo(before);
    }
  }

  @Test
  void should_create_an_index_in_a_folder_holding_only_an_embedding_cache() throws IOException {
    EmbeddingCache.open(dir.resolve(EmbeddingCache.FOLDER_NAME)).close();

    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      assertThat(store.count()).isZero();
    }
  }

  @Test
  void should_create_an_index_where_a_killed_first_commit_left_pending_segments()
      throws IOException {
    Files.write(dir.resolve("pending_segments_1"), new byte[] {1, 2});

    try (LuceneChunkStore store = TestCorpus.openHashStore(dir)) {
      addAll(store, chunk("a.md", 0, "HR", "出差需提前申请。"));
      assertThat(store.chunkIds()).containsExactly("a.md#0");
    }
    assertThat(dir.resolve("pending_segments_1")).doesNotExist();
  }

  private List<String> segmentFiles() throws IOException {
    try (var files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("segments_"))
          .sorted().toList();
    }
  }
}
