package org.openbook.retrieve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.index.ScoredChunk;

/** R12: fusion keys entries by chunk id, never by text, and keeps each chunk's own metadata. */
class RrfFusionTest {

  private static Chunk chunk(String id, String source, String dept, String text) {
    return new Chunk(id, source, 0, text, text, List.of(), 0, 0, text.length(),
        Map.of("source", source, "dept", dept));
  }

  private static final Chunk C1 = chunk("hr/handbook.md#3", "hr/handbook.md", "HR", "请使用VPN访问内网。");
  private static final Chunk C2 = chunk("it/faq.md#7", "it/faq.md", "IT", "请使用VPN访问内网。");
  private static final Chunk C3 = chunk("it/faq.md#8", "it/faq.md", "IT", "VPN账号由IT部门开通。");

  @Test
  void should_fuse_equal_texts_from_different_files_as_separate_hits_with_exact_rrf_scores() {
    List<ScoredChunk> vector = List.of(new ScoredChunk(C1, 1, 0.9), new ScoredChunk(C3, 2, 0.8));
    List<ScoredChunk> bm25 = List.of(new ScoredChunk(C2, 1, 7.0), new ScoredChunk(C1, 2, 6.5));

    List<Hit> fused = RrfFusion.DEFAULT.fuse(vector, bm25);

    assertThat(fused).extracting(h -> h.chunk().id())
        .containsExactly("hr/handbook.md#3", "it/faq.md#7", "it/faq.md#8");
    assertThat(fused.get(0).fusedScore()).isCloseTo(1.0 / 61 + 1.0 / 62, within(1e-9));
    assertThat(fused.get(0).fusedScore()).isCloseTo(0.032522, within(1e-6));
    assertThat(fused.get(1).fusedScore()).isCloseTo(0.016393, within(1e-6));
    assertThat(fused.get(2).fusedScore()).isCloseTo(0.016129, within(1e-6));
    assertThat(fused.get(0).chunk().source()).isEqualTo("hr/handbook.md");
    assertThat(fused.get(0).chunk().dept()).isEqualTo("HR");
    assertThat(fused.get(1).chunk().source()).isEqualTo("it/faq.md");
    assertThat(fused.get(1).chunk().dept()).isEqualTo("IT");
  }

  @Test
  void should_keep_each_routes_rank_and_score_and_mark_missing_routes() {
    List<Hit> fused = RrfFusion.DEFAULT.fuse(
        List.of(new ScoredChunk(C1, 1, 0.9), new ScoredChunk(C3, 2, 0.8)),
        List.of(new ScoredChunk(C2, 1, 7.0), new ScoredChunk(C1, 2, 6.5)));

    Hit c1 = fused.get(0);
    assertThat(c1.denseRank()).isEqualTo(1);
    assertThat(c1.denseScore()).isEqualTo(0.9);
    assertThat(c1.sparseRank()).isEqualTo(2);
    assertThat(c1.sparseScore()).isEqualTo(6.5);
    Hit c3 = fused.get(2);
    assertThat(c3.sparseRank()).isZero();
    assertThat(c3.sparseScore()).isNaN();
  }

  @Test
  void should_weight_routes() {
    RrfFusion sparseHeavy = new RrfFusion(60, 1.0, 2.0);
    List<Hit> fused = sparseHeavy.fuse(List.of(new ScoredChunk(C3, 1, 0.9)),
        List.of(new ScoredChunk(C2, 1, 7.0)));
    assertThat(fused.get(0).chunk().id()).isEqualTo("it/faq.md#7");
    assertThat(fused.get(0).fusedScore()).isCloseTo(2.0 / 61, within(1e-12));
  }
}
