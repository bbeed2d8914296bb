package org.openbook.rerank;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A cross-encoder behind HTTP, in one of the two request shapes rerank servers speak.
 *
 * <p>{@link Api#COHERE} — {@code POST <url>} with
 * {@code {"model": M, "query": Q, "documents": [..], "top_n": N}} and the reply
 * {@code {"results": [{"index": i, "relevance_score": s}, ..]}} (other fields ignored). Spoken by
 * Cohere ({@code /v1/rerank}, {@code /v2/rerank}; docs.cohere.com/reference/rerank), Jina
 * ({@code https://api.jina.ai/v1/rerank}; jina.ai/reranker), SiliconFlow
 * ({@code https://api.siliconflow.cn/v1/rerank}), Xinference ({@code /v1/rerank}), vLLM
 * ({@code /rerank}, {@code /v1/rerank}; docs.vllm.ai "Re-rank API") and OpenVINO Model Server.
 * Scores: Cohere, Jina and SiliconFlow document {@code relevance_score} in [0, 1]; vLLM and
 * Xinference pass on what the model gives (in [0, 1] for the bge-reranker family, which ends in
 * a sigmoid).
 *
 * <p>{@link Api#TEI} — Hugging Face Text Embeddings Inference, {@code POST /rerank} with
 * {@code {"query": Q, "texts": [..], "raw_scores": false}} and the reply
 * {@code [{"index": i, "score": s}, ..]} (huggingface.github.io/text-embeddings-inference,
 * "rerank"); TEI has no {@code model} or {@code top_n}: it scores all texts, with a sigmoid, so
 * scores are in [0, 1].
 *
 * <p>{@code url} is the full endpoint URL (e.g. {@code http://localhost:8080/rerank}), since
 * servers mount the route at different paths. An API key, when given, goes in
 * {@code Authorization: Bearer <key>} as all the hosted services above expect. The request
 * times out after the given duration; a non-2xx status, a body that is not the expected JSON, or
 * a result without index or score is a {@link RerankException} naming the URL.
 */
public final class HttpReranker implements Reranker {

  /** The request and reply shapes. */
  public enum Api {
    /** {@code documents}/{@code top_n} → {@code results[].relevance_score}: Cohere, Jina, …. */
    COHERE,
    /** {@code texts} → {@code [].score}: Hugging Face Text Embeddings Inference. */
    TEI;

    /**
     * Parses a config value, {@code cohere} (default when null or blank) or {@code tei};
     * {@code jina}, {@code siliconflow}, {@code xinference} and {@code vllm} are accepted as
     * names for {@code cohere}.
     *
     * @throws IllegalArgumentException naming {@code rerank.api} for another value
     */
    public static Api parse(String name) {
      if (name == null || name.isBlank()) {
        return COHERE;
      }
      return switch (name.strip().toLowerCase(Locale.ROOT)) {
        case "cohere", "jina", "siliconflow", "xinference", "vllm" -> COHERE;
        case "tei" -> TEI;
        default -> throw new IllegalArgumentException("rerank.api must be 'cohere' (also for "
            + "Jina, SiliconFlow, Xinference, vLLM) or 'tei', got '" + name + "'");
      };
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI url;
  private final Api api;
  private final String model;
  private final String apiKey;
  private final Duration timeout;
  private final HttpClient client;

  /**
   * @param url     full endpoint URL, http or https
   * @param api     request/reply shape
   * @param model   model name sent in {@code model} (Cohere shape); may be empty for servers
   *                that serve one model
   * @param apiKey  bearer key, or empty/null for none
   * @param timeout time limit of one request
   * @throws IllegalArgumentException naming {@code rerank.url} when it is not an http(s) URL
   */
  public HttpReranker(String url, Api api, String model, String apiKey, Duration timeout) {
    if (url == null || !(url.startsWith("http://") || url.startsWith("https://"))) {
      throw new IllegalArgumentException(
          "rerank.url must be an http(s) URL such as http://localhost:8080/rerank, got '" + url
              + "'");
    }
    this.url = URI.create(url.strip());
    this.api = api;
    this.model = model == null ? "" : model.strip();
    this.apiKey = apiKey == null ? "" : apiKey.strip();
    this.timeout = timeout;
    // HTTP/1.1: on plain http the JDK client would otherwise send an h2c upgrade request, which
    // some Python rerank servers reject; every rerank API above speaks HTTP/1.1.
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(timeout).build();
  }

  @Override
  public String id() {
    return "http:" + (model.isEmpty() ? api.name().toLowerCase(Locale.ROOT) : model);
  }

  @Override
  public List<RerankScore> rerank(String query, List<String> passages, int topN)
      throws RerankException {
    HttpRequest.Builder request = HttpRequest.newBuilder(url)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body(query, passages, topN),
            StandardCharsets.UTF_8));
    if (!apiKey.isEmpty()) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (java.net.http.HttpTimeoutException e) {
      throw new RerankException("rerank server " + url + " did not answer within "
          + timeout.toMillis() + " ms", e);
    } catch (IOException e) {
      throw new RerankException("rerank server " + url + " unreachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RerankException("rerank request to " + url + " interrupted", e);
    }
    if (response.statusCode() / 100 != 2) {
      throw new RerankException("rerank server " + url + " answered HTTP "
          + response.statusCode() + ": " + abbreviate(response.body()));
    }
    return parse(response.body());
  }

  String body(String query, List<String> passages, int topN) {
    ObjectNode root = JSON.createObjectNode();
    if (api == Api.TEI) {
      root.put("query", query);
      root.set("texts", JSON.valueToTree(passages));
      root.put("raw_scores", false);
      // TEI rejects over-long inputs unless told to truncate; the stage must not fail on them
      root.put("truncate", true);
    } else {
      if (!model.isEmpty()) {
        root.put("model", model);
      }
      root.put("query", query);
      root.set("documents", JSON.valueToTree(passages));
      root.put("top_n", topN);
      root.put("return_documents", false);
    }
    return root.toString();
  }

  /** Reads the reply; the shape depends on {@link #api}. */
  List<RerankScore> parse(String body) throws RerankException {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new RerankException("rerank server " + url + " sent malformed JSON: "
          + abbreviate(body), e);
    }
    JsonNode results = api == Api.TEI ? root : root == null ? null : root.get("results");
    String scoreField = api == Api.TEI ? "score" : "relevance_score";
    if (results == null || !results.isArray()) {
      throw new RerankException("rerank server " + url + " sent no "
          + (api == Api.TEI ? "JSON array" : "\"results\" array") + ": " + abbreviate(body));
    }
    List<RerankScore> out = new ArrayList<>(results.size());
    for (JsonNode r : results) {
      JsonNode index = r.get("index");
      JsonNode score = r.get(scoreField);
      if (index == null || !index.canConvertToInt() || !index.isIntegralNumber()
          || score == null || !score.isNumber()) {
        throw new RerankException("rerank server " + url + " sent a result without integer "
            + "\"index\" and numeric \"" + scoreField + "\": " + abbreviate(r.toString()));
      }
      out.add(new RerankScore(index.intValue(), score.doubleValue()));
    }
    return out;
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "";
    }
    return s.length() <= 200 ? s : s.substring(0, 200) + "…";
  }

  @Override
  public String toString() {
    return "HttpReranker[url=" + url + ", api=" + api + ", model=" + model
        + (apiKey.isEmpty() ? "" : ", apiKey=***") + "]";
  }
}
