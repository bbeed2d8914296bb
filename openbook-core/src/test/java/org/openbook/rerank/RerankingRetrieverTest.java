package org.openbook.rerank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.rerank.ScriptedRerankServer.ok;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;
import org.openbook.retrieve.Retriever;
import org.openbook.rerank.HttpReranker.Api;
import org.openbook.rerank.ScriptedRerankServer.Reply;

/**
 * The reranking stage against a scripted rerank server on 127.0.0.1, for each wire shape, and
 * its fallbacks: timeout, malformed JSON, bad indexes, HTTP errors, empty lists.
 */
class RerankingRetrieverTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the scripted cross-encoder thinks of each passage. */
  private static final Map<String, Double> RELEVANCE =
      Map.of("alpha", 0.10, "bravo", 0.90, "charlie", 0.50, "delta", 0.70, "echo", 0.30);

  /** Fused order alpha, bravo, charlie, delta, echo (fused rank 1..5). */
  private static final List<Hit> FUSED = hits("alpha", "bravo", "charlie", "delta", "echo");

  private static List<Hit> hits(String... texts) {
    List<Hit> out = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      Chunk c = new Chunk("doc.md#" + i, "doc.md", i, texts[i], texts[i], List.of(), 0, 0,
          texts[i].length(), Map.of("source", "doc.md", "dept", "public"));
      out.add(new Hit(c, i + 1, 0.8 - i * 0.1, i + 1, 10 - i, 1.0 - i * 0.1, Double.NaN));
    }
    return out;
  }

  /** A fused retriever that returns the first top-k of {@code hits}. */
  private static Retriever fused(List<Hit> hits) {
    return q -> new SearchResult(hits.subList(0, Math.min(q.topK(), hits.size())), 0.8,
        hits.size(), hits.size());
  }

  private static Query query(int k) {
    return new Query("which passage?", Principal.ANONYMOUS, k, 50);
  }

  private static List<String> texts(SearchResult r) {
    return r.hits().stream().map(h -> h.chunk().raw()).toList();
  }

  /** Cohere/Jina reply: the best {@code top_n} by score, with the vendor's extra fields. */
  private static Reply cohereReply(JsonNode request) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "0c5b1f4e");
    ArrayNode results = root.putArray("results");
    for (int i : byRelevance(request.get("documents"))
        .subList(0, request.get("top_n").asInt())) {
      ObjectNode r = results.addObject();
      r.put("index", i);
      r.put("relevance_score", RELEVANCE.get(request.get("documents").get(i).asText()));
      r.putObject("document").put("text", request.get("documents").get(i).asText());
    }
    root.putObject("meta").putObject("billed_units").put("search_units", 1);
    root.putObject("usage").put("total_tokens", 42);
    return ok(root.toString());
  }

  /** TEI reply: every text, {@code [{index, score}]} sorted by score. */
  private static Reply teiReply(JsonNode request) {
    ArrayNode out = JSON.createArrayNode();
    for (int i : byRelevance(request.get("texts"))) {
      out.addObject().put("index", i).put("score", RELEVANCE.get(request.get("texts").get(i).asText()));
    }
    return ok(out.toString());
  }

  private static List<Integer> byRelevance(JsonNode docs) {
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < docs.size(); i++) {
      idx.add(i);
    }
    idx.sort(Comparator.comparing((Integer i) -> RELEVANCE.get(docs.get(i).asText())).reversed());
    return idx;
  }

  private static RerankingRetriever stage(ScriptedRerankServer server, Api api, String key,
      List<Hit> fused, long timeoutMillis) {
    return new RerankingRetriever(fused(fused),
        new HttpReranker(server.url(), api, "bge-reranker-v2-m3", key,
            Duration.ofMillis(timeoutMillis)), 20, timeoutMillis);
  }

  @Test
  void should_reorder_by_relevance_score_with_cohere_shape_and_bearer_key() throws Exception {
    try (var server = ScriptedRerankServer.start("/v1/rerank",
        RerankingRetrieverTest::cohereReply)) {
      SearchResult r = stage(server, Api.COHERE, "jina_secret", FUSED, 5000).retrieve(query(3));

      assertThat(texts(r)).containsExactly("bravo", "delta", "charlie");
      assertThat(r.hits()).extracting(Hit::rerankScore).containsExactly(0.90, 0.70, 0.50);
      assertThat(r.hits()).extracting(Hit::rerankRank).containsExactly(1, 2, 3);
      // fused scores keep their own meaning: bravo was fused rank 2
      assertThat(r.hits().get(0).fusedScore()).isEqualTo(0.9);
      assertThat(r.rerank()).isEqualTo("http:bge-reranker-v2-m3: 5 → 3");
      JsonNode sent = server.requests().get(0);
      assertThat(sent.get("model").asText()).isEqualTo("bge-reranker-v2-m3");
      assertThat(sent.get("query").asText()).isEqualTo("which passage?");
      assertThat(sent.get("documents")).hasSize(5);
      assertThat(sent.get("top_n").asInt()).isEqualTo(3);
      assertThat(server.authorizations()).containsExactly("Bearer jina_secret");
    }
  }

  @Test
  void should_read_vllm_and_xinference_replies_at_slash_rerank_without_key() throws Exception {
    // Xinference: results carry "document": null and a "meta" block; no key configured
    Function<JsonNode, Reply> xinference = req -> ok("{\"id\":\"x1\",\"results\":["
        + "{\"index\":3,\"relevance_score\":0.7,\"document\":null},"
        + "{\"index\":1,\"relevance_score\":0.9,\"document\":null}],"
        + "\"meta\":{\"api_version\":null,\"billed_units\":null,\"tokens\":null,\"warnings\":null}}");
    try (var server = ScriptedRerankServer.start("/rerank", xinference)) {
      SearchResult r = stage(server, Api.parse("xinference"), "", FUSED, 5000).retrieve(query(4));

      // the two scored first by score; alpha and charlie, unscored, follow in fused order
      assertThat(texts(r)).containsExactly("bravo", "delta", "alpha", "charlie");
      assertThat(r.hits()).extracting(Hit::rerankRank).containsExactly(1, 2, 0, 0);
      assertThat(r.hits().get(2).rerankScore()).isNaN();
      assertThat(server.authorizations()).containsExactly("");
    }
  }

  @Test
  void should_reorder_by_score_with_tei_shape() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank", RerankingRetrieverTest::teiReply)) {
      SearchResult r = stage(server, Api.TEI, null, FUSED, 5000).retrieve(query(5));

      assertThat(texts(r)).containsExactly("bravo", "delta", "charlie", "echo", "alpha");
      assertThat(r.hits()).extracting(Hit::rerankScore).containsExactly(0.9, 0.7, 0.5, 0.3, 0.1);
      JsonNode sent = server.requests().get(0);
      assertThat(sent.get("texts")).hasSize(5);
      assertThat(sent.has("documents")).isFalse();
      assertThat(sent.has("top_n")).isFalse();
      assertThat(sent.get("raw_scores").asBoolean()).isFalse();
    }
  }

  @Test
  void should_keep_fused_order_and_say_why_when_the_server_times_out() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank",
        req -> new Reply(200, cohereReply(req).body(), 10_000))) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 200).retrieve(query(3));

      assertThat(texts(r)).containsExactly("alpha", "bravo", "charlie");
      assertThat(r.hits()).allSatisfy(h -> {
        assertThat(h.rerankScore()).isNaN();
        assertThat(h.rerankRank()).isZero();
      });
      assertThat(r.rerank()).startsWith("skipped: ").containsAnyOf("timed out", "did not answer");
    }
  }

  @Test
  void should_keep_fused_order_on_malformed_json() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank",
        req -> ok("{\"results\": [{\"index\": 1, \"relevance_score\": 0.9"))) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(3));

      assertThat(texts(r)).containsExactly("alpha", "bravo", "charlie");
      assertThat(r.rerank()).startsWith("skipped: ").contains("malformed JSON");
    }
  }

  @Test
  void should_keep_fused_order_when_the_reply_has_the_wrong_shape() throws Exception {
    // a TEI-shaped reply to a Cohere-shaped request: no "results"
    try (var server = ScriptedRerankServer.start("/rerank", RerankingRetrieverTest::teiReply2)) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(2));

      assertThat(texts(r)).containsExactly("alpha", "bravo");
      assertThat(r.rerank()).startsWith("skipped: ").contains("\"results\" array");
    }
  }

  private static Reply teiReply2(JsonNode request) {
    return ok("[{\"index\":1,\"score\":0.9}]");
  }

  @Test
  void should_keep_fused_order_when_an_index_is_out_of_range_or_repeated() throws Exception {
    for (String body : List.of(
        "{\"results\":[{\"index\":7,\"relevance_score\":0.9}]}",
        "{\"results\":[{\"index\":1,\"relevance_score\":0.9},{\"index\":1,\"relevance_score\":0.8}]}",
        "{\"results\":[{\"index\":\"1\",\"relevance_score\":0.9}]}")) {
      try (var server = ScriptedRerankServer.start("/rerank", req -> ok(body))) {
        SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(3));

        assertThat(texts(r)).as(body).containsExactly("alpha", "bravo", "charlie");
        assertThat(r.rerank()).as(body).startsWith("skipped: ");
      }
    }
  }

  @Test
  void should_keep_fused_order_on_http_error_and_name_the_status() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank",
        req -> new Reply(503, "{\"error\":\"model loading\"}", 0))) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(2));

      assertThat(texts(r)).containsExactly("alpha", "bravo");
      assertThat(r.rerank()).startsWith("skipped: ").contains("HTTP 503").contains("model loading");
    }
  }

  @Test
  void should_ask_top_n_no_larger_than_the_candidates() throws Exception {
    List<Hit> three = hits("alpha", "bravo", "charlie");
    try (var server = ScriptedRerankServer.start("/v1/rerank",
        RerankingRetrieverTest::cohereReply)) {
      SearchResult r = stage(server, Api.COHERE, "", three, 5000).retrieve(query(10));

      assertThat(server.requests().get(0).get("top_n").asInt()).isEqualTo(3);
      assertThat(texts(r)).containsExactly("bravo", "charlie", "alpha");
      assertThat(r.rerank()).isEqualTo("http:bge-reranker-v2-m3: 3 → 3");
    }
  }

  @Test
  void should_not_call_the_server_when_there_are_no_candidates() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank", RerankingRetrieverTest::cohereReply)) {
      SearchResult r = stage(server, Api.COHERE, "", List.of(), 5000).retrieve(query(3));

      assertThat(r.hits()).isEmpty();
      assertThat(server.requests()).isEmpty();
      assertThat(r.rerank()).isEqualTo("skipped: no candidates");
    }
  }

  @Test
  void should_keep_fused_order_when_the_server_scores_nothing() throws Exception {
    try (var server = ScriptedRerankServer.start("/rerank", req -> ok("{\"results\":[]}"))) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(3));

      assertThat(texts(r)).containsExactly("alpha", "bravo", "charlie");
      assertThat(r.hits()).extracting(Hit::rerankRank).containsExactly(0, 0, 0);
    }
  }

  @Test
  void should_break_ties_by_fused_rank() throws Exception {
    // all equal: the fused order must come back unchanged, on every call
    try (var server = ScriptedRerankServer.start("/rerank", req -> ok("{\"results\":["
        + "{\"index\":4,\"relevance_score\":0.5},{\"index\":2,\"relevance_score\":0.5},"
        + "{\"index\":0,\"relevance_score\":0.5},{\"index\":3,\"relevance_score\":0.5},"
        + "{\"index\":1,\"relevance_score\":0.5}]}"))) {
      RerankingRetriever stage = stage(server, Api.COHERE, "", FUSED, 5000);
      for (int i = 0; i < 3; i++) {
        assertThat(texts(stage.retrieve(query(5))))
            .containsExactly("alpha", "bravo", "charlie", "delta", "echo");
      }
    }
  }

  @Test
  void should_rerank_fetch_k_candidates_not_only_top_k() throws Exception {
    // echo is fused rank 5; with k = 1 it still competes because fetchK = 20 candidates go in
    try (var server = ScriptedRerankServer.start("/rerank", req -> ok(
        "{\"results\":[{\"index\":4,\"relevance_score\":0.99}]}"))) {
      SearchResult r = stage(server, Api.COHERE, "", FUSED, 5000).retrieve(query(1));

      assertThat(texts(r)).containsExactly("echo");
      assertThat(server.requests().get(0).get("documents")).hasSize(5);
      assertThat(server.requests().get(0).get("top_n").asInt()).isEqualTo(1);
    }
  }

  @Test
  void should_fall_back_when_a_reranker_throws_a_runtime_exception() throws Exception {
    Reranker broken = new Reranker() {
      @Override
      public String id() {
        return "broken";
      }

      @Override
      public List<RerankScore> rerank(String q, List<String> p, int n) {
        throw new IllegalStateException("native library missing");
      }
    };
    SearchResult r = new RerankingRetriever(fused(FUSED), broken, 20, 1000).retrieve(query(2));

    assertThat(texts(r)).containsExactly("alpha", "bravo");
    assertThat(r.rerank()).isEqualTo(
        "skipped: broken failed: java.lang.IllegalStateException: native library missing");
  }

  @Test
  void should_name_the_config_field_for_a_bad_url_or_api() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() ->
            new HttpReranker("localhost:8080/rerank", Api.COHERE, "", "", Duration.ofSeconds(1)))
        .hasMessageContaining("rerank.url");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Api.parse("openai"))
        .hasMessageContaining("rerank.api");
  }
}
