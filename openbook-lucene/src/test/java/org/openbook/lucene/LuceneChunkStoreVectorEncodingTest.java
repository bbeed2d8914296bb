package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.lucene.TestCorpus.ANALYSIS;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.chunk.Chunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.index.ScoredChunk;
import org.openbook.index.VectorEncoding;

/** {@code store.lucene.vectorEncoding}: scalar-quantized HNSW vectors, recorded and enforced. */
class LuceneChunkStoreVectorEncodingTest {

  @TempDir Path dir;

  private static final String[] TEXTS = {"出差需提前申请。", "报销需附发票。", "加班需主管审批。",
      "年假每年十天。", "病假需医院证明。", "调休需提前一天申请。", "ERR_4517 表示磁盘已满。",
      "GB/T 22239 是等级保护标准。"};

  private LuceneChunkStore open(VectorEncoding encoding) throws IOException {
    return LuceneChunkStore.open(dir, TestCorpus.hashManifest().withVectorEncoding(encoding),
        ANALYSIS);
  }

  /** The Lucene vector format each segment of the index wrote its vector field with. */
  private List<String> vectorFormats() throws IOException {
    List<String> out = new ArrayList<>();
    try (FSDirectory d = FSDirectory.open(dir); DirectoryReader r = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : r.leaves()) {
        out.add(leaf.reader().getFieldInfos().fieldInfo("vector")
            .getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
      }
    }
    return out;
  }

  @ParameterizedTest
  @EnumSource(VectorEncoding.class)
  void should_write_the_vectors_in_the_configured_format_and_still_find_each_chunk_by_itself(
      VectorEncoding encoding) throws IOException {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < TEXTS.length; i++) {
      chunks.add(chunk("d" + i + ".md", "HR", TEXTS[i]));
    }
    try (LuceneChunkStore store = open(encoding)) {
      addAll(store, chunks.toArray(Chunk[]::new));

      assertThat(store.manifest().vectorEncoding()).isEqualTo(encoding.id());
      assertThat(LuceneChunkStore.readManifest(dir).orElseThrow().vectorEncoding())
          .isEqualTo(encoding.id());
      assertThat(vectorFormats()).isNotEmpty().allMatch(f -> f.equals(
          encoding == VectorEncoding.FLOAT32 ? "Lucene99HnswVectorsFormat"
              : "Lucene99HnswScalarQuantizedVectorsFormat"));
      // quantized scores are approximate: a chunk searched by its own vector still ranks first
      double tolerance = encoding == VectorEncoding.FLOAT32 ? 1e-5
          : encoding == VectorEncoding.INT8 ? 0.02 : 0.1;
      for (Chunk c : chunks) {
        List<ScoredChunk> hits = store.searchDense(TestCorpus.hashed(c).vector(), 3, HR);
        assertThat(hits.get(0).chunk().id()).isEqualTo(c.id());
        assertThat(hits.get(0).score()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(tolerance));
      }
    }
  }

  @Test
  void should_refuse_to_open_an_index_with_another_vector_encoding_and_say_how_to_rebuild()
      throws IOException {
    try (LuceneChunkStore store = open(VectorEncoding.INT8)) {
      addAll(store, chunk("a.md", "HR", TEXTS[0]));
    }

    assertThatThrownBy(() -> open(VectorEncoding.FLOAT32))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("vector encoding: index has 'int8', this run uses 'float32'")
        .hasMessageContaining("--reset");
    try (LuceneChunkStore rebuilt = LuceneChunkStore.create(dir,
        TestCorpus.hashManifest().withVectorEncoding(VectorEncoding.INT4), ANALYSIS)) {
      addAll(rebuilt, chunk("a.md", "HR", TEXTS[0]));
      assertThat(rebuilt.manifest().vectorEncoding()).isEqualTo("int4");
    }
  }

  @Test
  void should_read_a_manifest_without_an_encoding_as_float32() {
    IndexManifest old = new IndexManifest("m", 4, "cosine", "a", "c", 0, 0, null, null);

    assertThat(old.vectorEncoding()).isEqualTo("float32");
    assertThat(old.encoding()).isEqualTo(VectorEncoding.FLOAT32);
  }
}
