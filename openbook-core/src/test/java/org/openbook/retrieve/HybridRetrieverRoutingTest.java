package org.openbook.retrieve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.embed.DenseRoutes;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore;
import org.openbook.index.ScoredChunk;
import org.openbook.testing.HashEmbedder;

/** Which dense field a question reaches, by its language. */
class HybridRetrieverRoutingTest {

  private static Chunk chunk(String id) {
    return new Chunk(id, "d-" + id, 0, id, id, List.of(), 0, 0, id.length(), Map.of());
  }

  /** Answers every dense search with fixed lists and records the field and vector length. */
  private static class RecordingStore implements ChunkStore.DenseSearch,
      ChunkStore.SparseSearch {
    final List<String> calls = new ArrayList<>();

    @Override
    public List<ScoredChunk> searchDense(float[] queryVector, int topN, AccessFilter filter) {
      calls.add("primary/" + queryVector.length);
      return List.of(new ScoredChunk(chunk("zh-passage"), 1, 0.61),
          new ScoredChunk(chunk("en-passage"), 2, 0.42));
    }

    @Override
    public List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
        AccessFilter filter) {
      calls.add(field + "/" + queryVector.length);
      return List.of(new ScoredChunk(chunk("en-passage"), 1, 0.88));
    }

    @Override
    public List<ScoredChunk> searchSparse(String queryText, int topN, AccessFilter filter) {
      return List.of();
    }
  }

  private final RecordingStore store = new RecordingStore();
  private final HybridRetriever dense = new HybridRetriever(
      DenseRoutes.bilingual(new HashEmbedder(32, 512), new HashEmbedder(16, 512)), store, store,
      new MinMaxFusion(0.3, 0.7), HybridRetriever.Mode.DENSE);
  private final Principal reader = Principal.ANONYMOUS;

  private SearchResult ask(String question) throws Exception {
    return dense.retrieve(new Query(question, reader, 5, 20));
  }

  @Test
  void should_search_only_the_primary_field_for_a_chinese_question() throws Exception {
    SearchResult r = ask("夜间备份保留多少天？");

    assertThat(store.calls).containsExactly("primary/32");
    assertThat(r.hits()).extracting(h -> h.chunk().id()).containsExactly("zh-passage",
        "en-passage");
  }

  @Test
  void should_search_the_english_field_too_for_an_english_question() throws Exception {
    SearchResult r = ask("How long are nightly backups kept?");

    assertThat(store.calls).containsExactly("primary/32", "en/16");
    // the English field leads: en-passage first although the primary field ranks it second
    assertThat(r.hits()).extracting(h -> h.chunk().id()).containsExactly("en-passage",
        "zh-passage");
  }

  @Test
  void should_keep_the_primary_cosine_as_the_gate_signal_for_every_language() throws Exception {
    assertThat(ask("How long are nightly backups kept?").bestDenseScore()).isEqualTo(0.61);
    assertThat(ask("夜间备份保留多少天？").bestDenseScore()).isEqualTo(0.61);
  }

  @Test
  void should_give_every_hit_the_primary_cosine_as_its_dense_score() throws Exception {
    // the merged list orders the hits; their dense score stays a bge-small-zh cosine, which
    // gate 1 compares with its threshold (a merged score would be up to 1.2)
    SearchResult r = ask("How long are nightly backups kept?");

    assertThat(r.hits())
        .extracting(h -> h.chunk().id() + "=" + h.denseScore() + "@" + h.denseRank())
        .containsExactly("en-passage=0.42@1", "zh-passage=0.61@2");
  }

  @Test
  void should_leave_no_cosine_on_a_hit_only_the_english_field_found() throws Exception {
    RecordingStore onlyEnglish = new RecordingStore() {
      @Override
      public List<ScoredChunk> searchDense(String field, float[] queryVector, int topN,
          AccessFilter filter) {
        return List.of(new ScoredChunk(chunk("en-only"), 1, 0.9));
      }
    };
    HybridRetriever r = new HybridRetriever(
        DenseRoutes.bilingual(new HashEmbedder(32, 512), new HashEmbedder(16, 512)), onlyEnglish,
        onlyEnglish, new MinMaxFusion(0.3, 0.7), HybridRetriever.Mode.DENSE);

    SearchResult res = r.retrieve(new Query("How long are nightly backups kept?", reader, 5, 20));

    assertThat(res.hits()).filteredOn(h -> h.chunk().id().equals("en-only"))
        .singleElement().satisfies(h -> {
          assertThat(h.denseRank()).isEqualTo(1);
          assertThat(h.denseScore()).isNaN();
        });
    assertThat(res.bestDenseScore()).isEqualTo(0.61);
  }

  @Test
  void should_search_the_primary_field_only_with_one_model() throws Exception {
    HybridRetriever single = new HybridRetriever(new HashEmbedder(32, 512), store, store,
        new MinMaxFusion(0.3, 0.7), HybridRetriever.Mode.DENSE);

    single.retrieve(new Query("How long are nightly backups kept?", reader, 5, 20));

    assertThat(store.calls).containsExactly("primary/32");
  }
}
