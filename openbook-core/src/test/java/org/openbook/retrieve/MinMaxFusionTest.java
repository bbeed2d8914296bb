package org.openbook.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

class MinMaxFusionTest {

  @Test
  void should_rank_by_weighted_min_max_normalised_scores() {
    // dense: a 0.9, b 0.8, c 0.5 -> 1, 0.75, 0; bm25: c 30, a 10 -> 1, 0
    List<ScoredChunk> dense = List.of(sc("a", 1, 0.9), sc("b", 2, 0.8), sc("c", 3, 0.5));
    List<ScoredChunk> sparse = List.of(sc("c", 1, 30), sc("a", 2, 10));

    List<Hit> hits = new MinMaxFusion(0.5, 0.5).fuse(dense, sparse);

    // a 0.5, c 0.5, b 0.375; a and c tie on score and best rank (1), so chunk id decides.
    assertThat(hits).extracting(h -> h.chunk().id()).containsExactly("a", "c", "b");
    assertThat(hits.get(0).fusedScore()).isCloseTo(0.5, within(1e-12));
    assertThat(hits.get(1).fusedScore()).isCloseTo(0.5, within(1e-12));
    assertThat(hits.get(2).fusedScore()).isCloseTo(0.375, within(1e-12));
    assertThat(hits.get(1).denseRank()).isEqualTo(3);
    assertThat(hits.get(1).sparseRank()).isEqualTo(1);
    assertThat(hits.get(2).sparseRank()).isZero();
    assertThat(hits.get(2).sparseScore()).isNaN();
  }

  @Test
  void should_let_bm25_weight_decide_when_dense_weight_is_low() {
    List<ScoredChunk> dense = List.of(sc("a", 1, 0.9), sc("c", 2, 0.5));
    List<ScoredChunk> sparse = List.of(sc("c", 1, 30), sc("a", 2, 10));

    List<Hit> hits = new MinMaxFusion(0.3, 0.7).fuse(dense, sparse);

    assertThat(hits).extracting(h -> h.chunk().id()).containsExactly("c", "a");
    assertThat(hits.get(0).fusedScore()).isCloseTo(0.7, within(1e-12));
  }

  @Test
  void should_give_full_score_to_a_route_whose_scores_are_all_equal() {
    List<Hit> hits = new MinMaxFusion(0.5, 0.5).fuse(List.of(sc("a", 1, 0.7)), List.of());

    assertThat(hits).hasSize(1);
    assertThat(hits.get(0).fusedScore()).isEqualTo(0.5);
  }

  @Test
  void should_reject_negative_weights() {
    assertThatThrownBy(() -> new MinMaxFusion(-0.1, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weights >= 0");
  }

  private static ScoredChunk sc(String id, int rank, double score) {
    return new ScoredChunk(new Chunk(id, id, 0, id, id, List.of(), 0, 0, 1, Map.of()), rank,
        score);
  }
}
