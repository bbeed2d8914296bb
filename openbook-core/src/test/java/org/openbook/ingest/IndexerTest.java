package org.openbook.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.document.DocumentReader;
import org.openbook.embed.EmbeddingCache;
import org.openbook.index.ChunkStore;
import org.openbook.index.EmbeddedChunk;
import org.openbook.testing.HashEmbedder;

class IndexerTest {

  @TempDir Path root;
  @TempDir Path cacheDir;

  private final HashEmbedder embedder = new HashEmbedder();
  private final MemoryIndex index = new MemoryIndex();

  /** An in-memory writer + catalog that records what was committed. */
  private static final class MemoryIndex implements ChunkStore.ChunkWriter,
      ChunkStore.DocumentCatalog {
    final Map<String, List<EmbeddedChunk>> pending = new TreeMap<>();
    Map<String, List<EmbeddedChunk>> committed = new TreeMap<>();
    final List<Integer> commitSizes = new ArrayList<>();

    @Override
    public void replaceDocument(String docId, List<EmbeddedChunk> chunks) {
      pending.put(docId, List.copyOf(chunks));
    }

    @Override
    public void deleteDocument(String docId) {
      pending.remove(docId);
    }

    @Override
    public void commit() {
      committed = new TreeMap<>(pending);
      commitSizes.add(committed.size());
    }

    @Override
    public Map<String, String> documentHashes() {
      Map<String, String> out = new TreeMap<>();
      committed.forEach((id, cs) -> out.put(id, cs.get(0).chunk().meta().get("contentHash")));
      return out;
    }

    @Override
    public List<org.openbook.index.DocumentEntry> documents() {
      List<org.openbook.index.DocumentEntry> out = new ArrayList<>();
      committed.forEach((id, cs) -> out.add(new org.openbook.index.DocumentEntry(id,
          cs.get(0).chunk().dept(), cs.get(0).chunk().meta().getOrDefault("title", ""),
          cs.size(), cs.get(0).chunk().meta().getOrDefault("contentHash", ""))));
      return out;
    }
  }

  private IngestReport ingest(IngestOptions options) throws IOException {
    StructuredChunker chunker = new StructuredChunker(new ChunkerSettings(40, 0, 20));
    return new Indexer(new DocumentReader(), chunker, embedder, options)
        .ingest(root, index, index, IngestListener.NONE);
  }

  private void write(String name, String text) throws IOException {
    Files.writeString(root.resolve(name), text, StandardCharsets.UTF_8);
  }

  @Test
  void should_name_the_source_once_in_a_skip_message_whoever_built_the_detail() {
    // loaders name the file in their messages; the report carries the source beside the detail
    var fromLoader = new IngestReport.SkippedFile("docs/x.pdf", "corrupt",
        "docs/x.pdf: cannot parse PDF (EOF)");
    var plain = new IngestReport.SkippedFile("a.md", "empty", "no text outside front matter");
    var other = new IngestReport.SkippedFile("b.md", "corrupt", "x.pdf: not this file's name");

    assertThat(fromLoader.detail()).isEqualTo("cannot parse PDF (EOF)");
    assertThat(fromLoader.message()).isEqualTo("docs/x.pdf (corrupt: cannot parse PDF (EOF))");
    assertThat(plain.message()).isEqualTo("a.md (empty: no text outside front matter)");
    assertThat(other.detail()).isEqualTo("x.pdf: not this file's name");
  }

  @Test
  void should_not_count_empty_files_or_images_without_ocr_as_failures() {
    IngestReport r = new IngestReport(List.of(), List.of(), List.of(), List.of(
        new IngestReport.SkippedFile("empty.md", "empty", "no text"),
        new IngestReport.SkippedFile("scan.png", "image (OCR off)", "OCR is off"),
        new IngestReport.SkippedFile("bad.pdf", "corrupt", "cannot parse PDF")), 0, 0);

    assertThat(r.failed()).extracting(IngestReport.SkippedFile::source)
        .containsExactly("bad.pdf");
  }

  @Test
  void should_skip_and_report_a_document_over_the_chunk_limit_without_truncating()
      throws IOException {
    write("long.md", "## 一\n出差需提前申请。\n## 二\n报销需附发票。\n## 三\n加班需主管审批。\n");
    write("short.md", "## 一\n年假每年十天。\n");

    IngestReport r = ingest(new IngestOptions(2, 100, null));

    assertThat(r.skipped()).containsExactly(new IngestReport.SkippedFile("long.md",
        Indexer.TOO_MANY_CHUNKS, "3 chunks, the limit is 2 (ingest.maxChunksPerDocument)"));
    assertThat(r.skipped().get(0).message()).isEqualTo(
        "long.md (too many chunks: 3 chunks, the limit is 2 (ingest.maxChunksPerDocument))");
    assertThat(r.indexed()).extracting(IngestReport.IndexedFile::source)
        .containsExactly("short.md");
    assertThat(index.committed).containsOnlyKeys("short.md");
  }

  @Test
  void should_commit_every_n_changed_documents_and_once_at_the_end() throws IOException {
    for (int i = 0; i < 5; i++) {
      write("d" + i + ".md", "第" + i + "篇。\n");
    }
    List<Integer> reported = new ArrayList<>();
    StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT);
    new Indexer(new DocumentReader(), chunker, embedder, new IngestOptions(100, 2, null))
        .ingest(root, index, index, new IngestListener() {
          @Override
          public void committed(int changedDocuments) {
            reported.add(changedDocuments);
          }
        });

    assertThat(index.commitSizes).containsExactly(2, 4, 5);
    assertThat(reported).containsExactly(2, 4, 5);
  }

  @Test
  void should_not_commit_when_nothing_changed() throws IOException {
    write("a.md", "年假每年十天。\n");
    ingest(IngestOptions.DEFAULTS);

    IngestReport again = ingest(IngestOptions.DEFAULTS);

    assertThat(again.unchanged()).containsExactly("a.md");
    assertThat(index.commitSizes).containsExactly(1);
  }

  @Test
  void should_remove_the_old_chunks_of_a_file_that_is_no_longer_indexable() throws IOException {
    write("a.md", "年假每年十天。\n");
    write("b.md", "报销需附发票。\n");
    ingest(IngestOptions.DEFAULTS);
    Files.write(root.resolve("a.md"), new byte[0]);

    IngestReport r = ingest(IngestOptions.DEFAULTS);

    assertThat(r.skipped()).extracting(IngestReport.SkippedFile::source).containsExactly("a.md");
    assertThat(r.removed()).containsExactly("a.md");
    assertThat(r.unchanged()).containsExactly("b.md");
    assertThat(index.committed).containsOnlyKeys("b.md");
  }

  @Test
  void should_not_embed_texts_again_that_the_cache_holds() throws IOException {
    write("a.md", "## 出差\n出差需提前申请。\n## 报销\n报销需附发票。\n");
    try (EmbeddingCache cache = EmbeddingCache.open(cacheDir)) {
      IngestOptions options = IngestOptions.DEFAULTS.withCache(cache);
      ingest(options);
      int first = embedder.textsEmbedded();
      // same sections plus a new one: only the new chunk's text is new
      write("a.md", "## 出差\n出差需提前申请。\n## 报销\n报销需附发票。\n## 加班\n加班需审批。\n");

      IngestReport r = ingest(options);

      assertThat(first).isEqualTo(2);
      assertThat(r.updated()).isEqualTo(1);
      assertThat(r.chunks()).isEqualTo(3);
      assertThat(embedder.textsEmbedded()).isEqualTo(3);
      assertThat(cache.hits()).isEqualTo(2);
    }
  }

  /** An embedder whose first call waits until {@code release} opens (the loader has finished). */
  static final class GatedEmbedder implements org.openbook.embed.Embedder {
    final HashEmbedder inner = new HashEmbedder();
    final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    final List<Integer> batchSizes = java.util.Collections.synchronizedList(new ArrayList<>());

    @Override public String modelId() { return inner.modelId(); }
    @Override public int dimension() { return inner.dimension(); }
    @Override public int maxInputTokens() { return inner.maxInputTokens(); }
    @Override public int countTokens(String text) { return inner.countTokens(text); }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      try {
        release.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
      if (texts.stream().anyMatch(t -> t.contains("毒"))) {
        throw new org.openbook.embed.InputTooLongException(600, 512, "毒");
      }
      batchSizes.add(texts.size());
      return inner.embedAll(texts);
    }
  }

  @Test
  @org.junit.jupiter.api.Timeout(60)
  void should_skip_only_the_file_whose_text_the_model_rejects_in_a_shared_batch()
      throws IOException {
    write("a.md", "年假每年十天。\n");
    write("b.md", "这一段有毒。\n");
    write("c.md", "报销需附发票。\n");
    write("d.md", "## 一\n加班需审批。\n## 二\n毒性测试。\n");
    GatedEmbedder model = new GatedEmbedder();
    model.release.countDown();

    IngestReport r = new Indexer(new DocumentReader(), new StructuredChunker(ChunkerSettings.DEFAULT),
        model, IngestOptions.DEFAULTS).ingest(root, index, index, IngestListener.NONE);

    assertThat(r.indexed()).extracting(IngestReport.IndexedFile::source)
        .containsExactly("a.md", "c.md");
    assertThat(r.skipped()).extracting(IngestReport.SkippedFile::source, IngestReport.SkippedFile::reason)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("b.md", Indexer.TOO_LONG_FOR_MODEL),
            org.assertj.core.groups.Tuple.tuple("d.md", Indexer.TOO_LONG_FOR_MODEL));
    assertThat(index.committed).containsOnlyKeys("a.md", "c.md");
  }

  @Test
  @org.junit.jupiter.api.Timeout(60)
  void should_stop_at_an_index_error_and_commit_nothing_after_it() throws IOException {
    for (int i = 0; i < 6; i++) {
      write("d" + i + ".md", "第" + i + "篇。\n");
    }
    ChunkStore.ChunkWriter failing = new ChunkStore.ChunkWriter() {
      int n;

      @Override
      public void replaceDocument(String docId, List<EmbeddedChunk> chunks) throws IOException {
        if (++n == 4) {
          throw new IOException("disk full");
        }
        index.replaceDocument(docId, chunks);
      }

      @Override
      public void deleteDocument(String docId) {
        index.deleteDocument(docId);
      }

      @Override
      public void commit() {
        index.commit();
      }
    };

    StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Indexer(new DocumentReader(),
            chunker, embedder, new IngestOptions(100, 2, null))
        .ingest(root, failing, index, IngestListener.NONE))
        .isInstanceOf(IOException.class).hasMessage("disk full");
    // the commit after two documents holds; the third was never committed
    assertThat(index.committed).containsOnlyKeys("d0.md", "d1.md");
  }
}
