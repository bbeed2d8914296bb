package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;

/** {@code rerankScore}, {@code rerankRank} and the stage outcome in {@code search --json}. */
class JsonOutputRerankTest {

  private static Hit hit(String id) {
    return new Hit(new Chunk(id, "a.md", 0, "text", "text", List.of(), 0, 0, 4,
        Map.of("source", "a.md", "dept", "public")), 1, 0.7, 2, 3.5, 0.9, Double.NaN);
  }

  @Test
  void should_write_rerank_score_and_rank_or_null_when_unscored() throws Exception {
    SearchResult r = new SearchResult(List.of(hit("a.md#0").withRerank(0.87, 1), hit("a.md#1")), 0.7,
        2, 2, "http:bge: 20 → 2", 14);

    JsonNode json = new ObjectMapper().readTree(
        JsonOutput.search(Query.of("q", Principal.ANONYMOUS, 2), r, 30));

    assertThat(json.get("rerank").asText()).isEqualTo("http:bge: 20 → 2");
    assertThat(json.get("rerankMillis").asLong()).isEqualTo(14);
    assertThat(json.at("/hits/0/rerankScore").asDouble()).isEqualTo(0.87);
    assertThat(json.at("/hits/0/rerankRank").asInt()).isEqualTo(1);
    assertThat(json.at("/hits/1/rerankScore").isNull()).isTrue();
    assertThat(json.at("/hits/1/rerankRank").isNull()).isTrue();
    assertThat(json.at("/hits/1/fusedScore").asDouble()).isEqualTo(0.9);
  }

  @Test
  void should_write_an_empty_rerank_without_a_reranker() throws Exception {
    JsonNode json = new ObjectMapper().readTree(JsonOutput.search(
        Query.of("q", Principal.ANONYMOUS, 1), new SearchResult(List.of(hit("a.md#0")), 0.7, 1, 1),
        5));

    assertThat(json.get("rerank").asText()).isEmpty();
    assertThat(json.get("rerankMillis").asLong()).isZero();
  }
}
