package org.openbook.llm;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.openbook.embed.remote.EmbeddingEndpoint;
import org.openbook.embed.remote.EndpointException;
import org.openbook.embed.remote.HttpEmbeddingEndpoint;

/**
 * The OpenAI-compatible {@code POST <baseUrl>/embeddings} (OpenAI, vLLM, Xinference, LocalAI,
 * SiliconFlow, …) through LangChain4j's {@link OpenAiEmbeddingModel}, one request per call,
 * without LangChain4j's own retries ({@link org.openbook.embed.remote.RemoteEmbedder} retries,
 * honouring {@code Retry-After}, which {@link StatusHttpClient} keeps).
 *
 * <p>Errors are {@link EndpointException}s naming {@link #url()}; the key is removed from any
 * message a server or LangChain4j produced, so it can appear in no log line.
 */
public final class OpenAiEmbeddingEndpoint implements EmbeddingEndpoint {

  private final OpenAiEmbeddingModel model;
  private final String url;
  private final String apiKey;

  /**
   * @param baseUrl    the API's base URL ending in {@code /v1}, e.g. {@code
   *                   http://gpu:8000/v1}; {@code /embeddings} is appended
   * @param modelName  model name sent in {@code model}
   * @param apiKey     bearer key, or null/blank for servers that need none
   * @param dimensions requested output length ({@code dimensions}, for models that can shorten
   *                   their vectors), or null to send none
   * @param batchSize  texts per request
   * @param timeout    time limit of one request
   * @throws IllegalArgumentException when {@code baseUrl} is not an http(s) URL
   */
  public OpenAiEmbeddingEndpoint(String baseUrl, String modelName, String apiKey,
      Integer dimensions, int batchSize, Duration timeout) {
    String base = HttpEmbeddingEndpoint.base(baseUrl, "http://localhost:8000/v1");
    this.url = HttpEmbeddingEndpoint.safe(base + "/embeddings");
    this.apiKey = apiKey == null ? "" : apiKey.strip();
    this.model = OpenAiEmbeddingModel.builder()
        .httpClientBuilder(StatusHttpClient.builder(timeout))
        .baseUrl(base)
        // servers without authentication accept any key; LangChain4j requires one
        .apiKey(this.apiKey.isEmpty() ? "none" : this.apiKey)
        .modelName(modelName)
        .dimensions(dimensions)
        .maxSegmentsPerBatch(batchSize)
        .timeout(timeout)
        .maxRetries(0)
        .logRequests(false)
        .logResponses(false)
        .build();
  }

  @Override
  public String url() {
    return url;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    List<TextSegment> segments = texts.stream().map(TextSegment::from).toList();
    List<Embedding> embeddings;
    try {
      embeddings = model.embedAll(segments).content();
    } catch (RuntimeException e) {
      throw translate(e);
    }
    List<float[]> out = new ArrayList<>(embeddings.size());
    for (Embedding e : embeddings) {
      out.add(e.vector());
    }
    return out;
  }

  /** The status, {@code Retry-After} and a key-free message of a LangChain4j failure. */
  private EndpointException translate(RuntimeException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StatusHttpClient.StatusException s) {
        return new EndpointException(url + " answered HTTP " + s.statusCode() + ": "
            + scrub(s.getMessage()), s.statusCode(),
            EndpointException.parseRetryAfter(s.retryAfter()), null);
      }
      if (t instanceof HttpException h) {
        return new EndpointException(url + " answered HTTP " + h.statusCode() + ": "
            + scrub(h.getMessage()), h.statusCode(), null, null);
      }
      if (t instanceof HttpTimeoutException || t instanceof dev.langchain4j.exception.TimeoutException) {
        return new EndpointException(url + " did not answer in time",
            EndpointException.NO_RESPONSE, null, null);
      }
      if (t instanceof IOException io) {
        return new EndpointException(url + " unreachable: " + io.getClass().getSimpleName()
            + (io.getMessage() == null ? "" : " " + scrub(io.getMessage())),
            EndpointException.NO_RESPONSE, null, null);
      }
    }
    // a reply LangChain4j could not read: asking again would get the same
    return new EndpointException(url + " sent a reply that is not an embeddings response: "
        + e.getClass().getSimpleName() + " " + scrub(e.getMessage()), 200, null, null);
  }

  private String scrub(String message) {
    if (message == null) {
      return "";
    }
    String m = apiKey.isEmpty() ? message : message.replace(apiKey, "***");
    return m.length() <= 200 ? m : m.substring(0, 200) + "…";
  }

  @Override
  public String toString() {
    return "OpenAiEmbeddingEndpoint[" + url + (apiKey.isEmpty() ? "" : ", apiKey=***") + "]";
  }
}
