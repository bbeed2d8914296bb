package org.openbook.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openbook.chunk.Chunk;
import org.openbook.document.CorpusFile;
import org.openbook.embed.DenseRoutes;

/** Batches across files, input order, and the memory bound of the ingest pipeline. */
class EmbeddingPipelineTest {

  private static List<CorpusFile> files(int n) {
    List<CorpusFile> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String source = String.format("d%02d.md", i);
      out.add(new CorpusFile(Path.of(source), source));
    }
    return out;
  }

  /** {@code chunks} chunks for {@code f}, ready to embed. */
  private static EmbeddingPipeline.Loaded loaded(CorpusFile f, int chunks) {
    List<Chunk> cs = new ArrayList<>();
    for (int i = 0; i < chunks; i++) {
      String text = f.source() + " 第" + i + "段。";
      cs.add(new Chunk(f.source() + "#" + i, f.source(), i, text, text, List.of(), 0, 0,
          text.length(), Map.of("source", f.source(), "dept", "public")));
    }
    return new EmbeddingPipeline.Loaded(f,
        new Indexer.Outcome(false, null, List.of(), List.of(), 0, 0), cs);
  }

  private static List<EmbeddingPipeline.Done> drain(EmbeddingPipeline p) throws Exception {
    List<EmbeddingPipeline.Done> out = new ArrayList<>();
    for (EmbeddingPipeline.Done d = p.next(); d != null; d = p.next()) {
      out.add(d);
    }
    return out;
  }

  @Test
  @Timeout(60)
  void should_fill_batches_across_files_and_return_files_in_input_order() throws Exception {
    IndexerTest.GatedEmbedder model = new IndexerTest.GatedEmbedder();
    List<CorpusFile> files = files(40);
    List<EmbeddingPipeline.Done> done;
    try (EmbeddingPipeline p = new EmbeddingPipeline(files, f -> loaded(f, 1),
        DenseRoutes.single(model), 32, 128)) {
      // the first model call waits until every file is queued, so later batches can fill up
      p.awaitLoaded();
      model.release.countDown();
      done = drain(p);
    }

    assertThat(done).extracting(d -> d.file().source())
        .containsExactlyElementsOf(files.stream().map(CorpusFile::source).toList());
    assertThat(done).allMatch(d -> d.outcome().chunks().size() == 1
        && d.outcome().chunks().get(0).vector().length == 256);
    // 40 one-chunk files took 40 model calls before; now the first (1..32 texts) + full batches
    assertThat(model.batchSizes).hasSizeLessThanOrEqualTo(3).allMatch(n -> n <= 32);
    assertThat(model.batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(40);
  }

  @Test
  @Timeout(60)
  void should_pass_a_document_larger_than_the_memory_bound_alone() throws Exception {
    IndexerTest.GatedEmbedder model = new IndexerTest.GatedEmbedder();
    model.release.countDown();
    List<CorpusFile> files = files(3);
    List<EmbeddingPipeline.Done> done;
    // bound of 4 chunks in flight; the middle document has 10
    try (EmbeddingPipeline p = new EmbeddingPipeline(files,
        f -> loaded(f, f.source().equals("d01.md") ? 10 : 2), DenseRoutes.single(model), 3, 4)) {
      done = drain(p);
    }

    assertThat(done).extracting(d -> d.outcome().chunks().size()).containsExactly(2, 10, 2);
    assertThat(model.batchSizes).allMatch(n -> n <= 3);
    assertThat(model.batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(14);
  }
}
