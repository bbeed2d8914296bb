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

  // R35's kind: BM25 returns one weak candidate (one common word of the question), the dense
  // route ranks the right passage first. Plain min-max gives the lone match 1.0 x 0.7.
  @Test
  void should_not_give_a_lone_weak_bm25_match_the_full_weight() {
    List<ScoredChunk> dense = List.of(sc("shuttle", 1, 0.62), sc("party", 2, 0.48));
    List<ScoredChunk> sparse = List.of(sc("party", 1, 0.40));
    double attainable = 12.0;

    List<Hit> plain = new MinMaxFusion(0.3, 0.7).fuse(dense, sparse, attainable);
    List<Hit> spread = new MinMaxFusion(0.3, 0.7, 0.1, 0.2).fuse(dense, sparse, attainable);

    assertThat(plain).extracting(h -> h.chunk().id()).containsExactly("party", "shuttle");
    // BM25 scale [0, 0.2 x 12 = 2.4]: party 0.4 / 2.4; dense scale [0.48, 0.62] is wider than 0.1.
    assertThat(spread).extracting(h -> h.chunk().id()).containsExactly("shuttle", "party");
    assertThat(spread.get(0).fusedScore()).isCloseTo(0.3, within(1e-12));
    assertThat(spread.get(1).fusedScore()).isCloseTo(0.7 * 0.4 / 2.4, within(1e-12));
  }

  @Test
  void should_still_give_a_lone_strong_bm25_match_the_full_weight() {
    // An exact identifier question: BM25's only match reaches the minimum spread (3 >= 2.4).
    List<ScoredChunk> dense = List.of(sc("vpn", 1, 0.50), sc("device", 2, 0.45));
    List<ScoredChunk> sparse = List.of(sc("device", 1, 3.0));

    List<Hit> hits = new MinMaxFusion(0.3, 0.7, 0.1, 0.2).fuse(dense, sparse, 12.0);

    assertThat(hits).extracting(h -> h.chunk().id()).containsExactly("device", "vpn");
    // dense scale widened to [0.40, 0.50]: device (0.45 - 0.40) / 0.1 = 0.5
    assertThat(hits.get(0).fusedScore()).isCloseTo(0.7 + 0.3 * 0.5, within(1e-12));
  }

  @Test
  void should_keep_near_equal_scores_near_equal() {
    // Two BM25 scores 0.5 % apart and two cosines 0.01 apart: plain min-max makes them 1 and 0.
    List<ScoredChunk> dense = List.of(sc("a", 1, 0.61), sc("b", 2, 0.60));
    List<ScoredChunk> sparse = List.of(sc("b", 1, 5.00), sc("a", 2, 4.975));

    List<Hit> hits = new MinMaxFusion(0.5, 0.5, 0.1, 0.2).fuse(dense, sparse, 10.0);

    // dense scale [0.51, 0.61]: a 1, b 0.9; BM25 scale [3, 5]: b 1, a 0.9875
    assertThat(hits).extracting(h -> h.chunk().id()).containsExactly("a", "b");
    assertThat(hits.get(0).fusedScore()).isCloseTo(0.5 + 0.5 * 0.9875, within(1e-9));
    assertThat(hits.get(1).fusedScore()).isCloseTo(0.5 * 0.9 + 0.5, within(1e-9));
  }

  @Test
  void should_equal_plain_min_max_when_the_lists_are_wider_than_the_minimum_spread() {
    List<ScoredChunk> dense = List.of(sc("a", 1, 0.9), sc("b", 2, 0.8), sc("c", 3, 0.5));
    List<ScoredChunk> sparse = List.of(sc("c", 1, 30), sc("a", 2, 10));

    List<Hit> plain = new MinMaxFusion(0.3, 0.7).fuse(dense, sparse, 60);
    List<Hit> spread = new MinMaxFusion(0.3, 0.7, 0.1, 0.2).fuse(dense, sparse, 60);

    assertThat(spread).isEqualTo(plain);
  }

  @Test
  void should_fall_back_to_plain_min_max_when_the_bm25_bound_is_unknown() {
    List<ScoredChunk> dense = List.of(sc("shuttle", 1, 0.62), sc("party", 2, 0.48));
    List<ScoredChunk> sparse = List.of(sc("party", 1, 0.40));

    assertThat(new MinMaxFusion(0.3, 0.7, 0.1, 0.2).fuse(dense, sparse, Double.NaN))
        .isEqualTo(new MinMaxFusion(0.3, 0.7).fuse(dense, sparse));
  }

  @Test
  void should_reject_a_minimum_spread_out_of_range() {
    assertThatThrownBy(() -> new MinMaxFusion(0.3, 0.7, 0, 1.5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[0, 1]");
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

  @Test
  void should_ask_for_the_bm25_scale_only_with_a_minimum_share() {
    assertThat(new MinMaxFusion(0.3, 0.7, 0, 0.1).usesSparseMaxScore()).isTrue();
    assertThat(new MinMaxFusion(0.3, 0.7).usesSparseMaxScore()).isFalse();
    assertThat(RrfFusion.DEFAULT.usesSparseMaxScore()).isFalse();
  }
}
