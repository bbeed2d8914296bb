package org.openbook.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.eval.Judged;
import org.openbook.eval.RankingMetrics;
import org.openbook.eval.SquadDataset;

class SquadCorpusTest {

  private final SquadDataset data = new SquadDataset("t",
      List.of(new SquadDataset.Paragraph("p0", "标题", "第一句话在这里。第二句话也在这里。第三句话还在这里。"),
          new SquadDataset.Paragraph("p1", "别的", "无关的段落。")),
      List.of(new SquadDataset.Question("q", "第二句话？", 0)));

  @Test
  void should_map_every_chunk_back_to_its_paragraph_with_title_prefix() {
    List<List<Chunk>> chunks = SquadCorpus.chunk(data, new StructuredChunker(
        new ChunkerSettings(10, 0, 80)));

    assertThat(chunks.get(0)).hasSizeGreaterThan(1)
        .allSatisfy(c -> assertThat(c.docId()).isEqualTo("p0"))
        .allSatisfy(c -> assertThat(c.embedText()).startsWith("标题"));
    assertThat(chunks.get(1)).extracting(Chunk::docId).containsExactly("p1");
  }

  @Test
  void should_judge_any_chunk_of_the_gold_paragraph_as_the_single_gold_item() {
    Judged j = SquadCorpus.judge(data.questions().get(0), List.of("p1", "p0", "p0"));

    assertThat(RankingMetrics.recall(j, 1)).isEqualTo(0.0);
    assertThat(RankingMetrics.reciprocalRank(j, 10)).isEqualTo(0.5);
    // the second chunk of p0 adds nothing: nDCG = (1/log2 3) / 1
    assertThat(RankingMetrics.ndcg(j, 10)).isEqualTo(Math.log(2) / Math.log(3));
  }
}
