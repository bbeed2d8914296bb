package org.openbook.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

class DenseRouteMergeTest {

  private static Chunk chunk(String id) {
    return new Chunk(id, "d-" + id, 0, id, id, List.of(), 0, 0, id.length(), Map.of());
  }

  private static ScoredChunk hit(String id, int rank, double cosine) {
    return new ScoredChunk(chunk(id), rank, cosine);
  }

  @Test
  void should_let_the_language_field_lead_and_the_primary_field_break_ties() {
    // primary (zh model): b best; English field: a and b level, c last
    List<ScoredChunk> primary = List.of(hit("b", 1, 0.60), hit("a", 2, 0.40), hit("c", 3, 0.30));
    List<ScoredChunk> english = List.of(hit("a", 1, 0.90), hit("b", 2, 0.90), hit("c", 3, 0.70));

    List<ScoredChunk> merged = DenseRouteMerge.merge(primary, english);

    assertThat(merged).extracting(s -> s.chunk().id()).containsExactly("b", "a", "c");
    assertThat(merged).extracting(ScoredChunk::rank).containsExactly(1, 2, 3);
    // b: 1 (English) + 0.2 x 1 (primary); a: 1 + 0.2 x (0.40 - 0.30) / 0.30; c: 0 + 0
    assertThat(merged.get(0).score()).isCloseTo(1.2, within(1e-9));
    assertThat(merged.get(1).score()).isCloseTo(1 + 0.2 / 3, within(1e-9));
    assertThat(merged.get(2).score()).isCloseTo(0.0, within(1e-9));
  }

  @Test
  void should_not_let_the_primary_field_overturn_a_clear_english_ranking() {
    List<ScoredChunk> primary = List.of(hit("x", 1, 0.70), hit("y", 2, 0.20));
    List<ScoredChunk> english = List.of(hit("y", 1, 0.95), hit("x", 2, 0.60));

    assertThat(DenseRouteMerge.merge(primary, english)).extracting(s -> s.chunk().id())
        .containsExactly("y", "x");
  }

  @Test
  void should_keep_chunks_found_by_one_field_only() {
    // a Chinese passage (primary field only) for an English question
    List<ScoredChunk> primary = List.of(hit("zh", 1, 0.55), hit("en", 2, 0.35));
    List<ScoredChunk> english = List.of(hit("en", 1, 0.80));

    List<ScoredChunk> merged = DenseRouteMerge.merge(primary, english);

    assertThat(merged).extracting(s -> s.chunk().id()).containsExactly("en", "zh");
    // one candidate in the English list: no spread, counted fully
    assertThat(merged.get(0).score()).isCloseTo(1.0, within(1e-9));
    assertThat(merged.get(1).score()).isCloseTo(0.2, within(1e-9));
  }

  @Test
  void should_return_the_other_list_unchanged_when_one_is_empty() {
    List<ScoredChunk> primary = List.of(hit("a", 1, 0.5));

    assertThat(DenseRouteMerge.merge(primary, List.of())).isSameAs(primary);
    assertThat(DenseRouteMerge.merge(List.of(), primary)).isSameAs(primary);
  }
}
