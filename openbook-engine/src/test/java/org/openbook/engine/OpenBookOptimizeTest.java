package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.Principal;
import org.openbook.testing.HashEmbedder;

/** {@link OpenBook#optimize}: the explicit force-merge step after a bulk ingest. */
class OpenBookOptimizeTest {

  @TempDir Path tmp;

  private static final String[] DOCS = {"年假每年十天，需提前一周申请。", "报销需附发票原件。",
      "ERR_4517 表示磁盘已满，请清理日志。", "VPN 客户端断线时先重启网卡。"};

  private OpenBook open(OpenBookConfig config, OpenBook.Mode mode) throws IOException {
    return OpenBook.builder().index(tmp.resolve("index")).config(config)
        .embedder(new HashEmbedder()).mode(mode).build();
  }

  @Test
  void should_merge_the_segments_of_a_bulk_ingest_keeping_every_chunk_searchable()
      throws IOException {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    for (int i = 0; i < DOCS.length; i++) {
      Files.writeString(docs.resolve("d" + i + ".md"), DOCS[i], StandardCharsets.UTF_8);
    }
    Path yaml = tmp.resolve("openbook.yaml");
    Files.writeString(yaml, "ingest: {commitEvery: 1}\n"); // one commit, one segment per file
    OpenBookConfig config = ConfigLoader.read(yaml);
    try (OpenBook e = open(config, OpenBook.Mode.WRITE)) {
      e.ingest(docs);
      int segments = ((LuceneChunkStore) e.store()).segmentCount();
      assertThat(segments).isEqualTo(DOCS.length);

      OpenBook.OptimizeResult r = e.optimize(1);

      assertThat(r.segmentsBefore()).isEqualTo(DOCS.length);
      assertThat(r.segmentsAfter()).isEqualTo(1);
      assertThat(r.chunks()).isEqualTo(DOCS.length);
      assertThat(e.search("ERR_4517 磁盘已满", Principal.ANONYMOUS, 1).hits().get(0).chunk()
          .docId()).isEqualTo("d2.md");
    }
    try (OpenBook e = open(config, OpenBook.Mode.READ)) {
      assertThat(((LuceneChunkStore) e.store()).segmentCount()).isEqualTo(1);
      assertThat(e.count()).isEqualTo(DOCS.length);
      assertThatThrownBy(() -> e.optimize(1)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("opened for writing");
    }
  }
}
