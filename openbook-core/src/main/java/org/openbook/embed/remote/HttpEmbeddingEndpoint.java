package org.openbook.embed.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedding API spoken with the JDK's HTTP client and Jackson, for the servers LangChain4j
 * has no client for at the project's version (langchain4j-ollama has no release at the pinned
 * LangChain4j version, and no LangChain4j module speaks TEI's {@code /embed}).
 *
 * <ul>
 *   <li>{@link Api#OLLAMA} — {@code POST <base>/api/embed} with {@code {"model": M, "input":
 *       [..]}}, reply {@code {"embeddings": [[..], ..]}} (Ollama API docs, "Generate
 *       Embeddings").</li>
 *   <li>{@link Api#TEI} — Hugging Face Text Embeddings Inference, {@code POST <base>/embed} with
 *       {@code {"inputs": [..], "truncate": false}}, reply {@code [[..], ..]}; TEI serves the one
 *       model it was started with, so no model is sent. {@code truncate: false}: an over-long
 *       input is an error, never silently cut.</li>
 * </ul>
 *
 * A key, when given, goes in {@code Authorization: Bearer <key>} (TEI's {@code --api-key}, an
 * Ollama behind a proxy). Every request times out after the given duration. Errors are {@link
 * EndpointException}s naming {@link #url()} — never the key — with the status and {@code
 * Retry-After} for {@link RemoteEmbedder}'s retries.
 */
public final class HttpEmbeddingEndpoint implements EmbeddingEndpoint {

  /** The request and reply shapes. */
  public enum Api {
    /** Ollama {@code /api/embed}. */
    OLLAMA("/api/embed"),
    /** Hugging Face Text Embeddings Inference {@code /embed}. */
    TEI("/embed");

    final String path;

    Api(String path) {
      this.path = path;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Api api;
  private final URI uri;
  private final String safeUrl;
  private final String model;
  private final String apiKey;
  private final Duration timeout;
  private final HttpClient client;

  /**
   * @param api     request/reply shape
   * @param baseUrl the server's base URL, e.g. {@code http://localhost:11434}; the API's path is
   *                appended unless the URL already ends with it
   * @param model   model name sent to Ollama; ignored by TEI
   * @param apiKey  bearer key, or null/blank for none
   * @param timeout time limit of one request
   * @throws IllegalArgumentException when {@code baseUrl} is not an http(s) URL
   */
  public HttpEmbeddingEndpoint(Api api, String baseUrl, String model, String apiKey,
      Duration timeout) {
    this.api = api;
    this.uri = withPath(baseUrl, api.path);
    this.safeUrl = safe(uri);
    this.model = model == null ? "" : model.strip();
    this.apiKey = apiKey == null ? "" : apiKey.strip();
    this.timeout = timeout;
    // HTTP/1.1: the JDK client would otherwise try an h2c upgrade, which some servers reject
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(timeout).build();
  }

  /**
   * {@code baseUrl} with {@code path} appended (unless it ends with it already).
   *
   * @throws IllegalArgumentException when it is not an http(s) URL
   */
  static URI withPath(String baseUrl, String path) {
    String b = base(baseUrl, "http://localhost:8080");
    return URI.create(b.endsWith(path) ? b : b + path);
  }

  /**
   * {@code baseUrl} stripped of white space and trailing slashes.
   *
   * @param example a URL of the endpoint's kind, quoted when {@code baseUrl} is not one
   * @throws IllegalArgumentException when it is not an http(s) URL (the message shows it
   *     without credentials, see {@link #safe})
   */
  public static String base(String baseUrl, String example) {
    if (baseUrl == null || !(baseUrl.startsWith("http://") || baseUrl.startsWith("https://"))) {
      throw new IllegalArgumentException("embedding url must be an http(s) URL such as "
          + example + ", got '" + (baseUrl == null ? null : safe(baseUrl)) + "'");
    }
    String b = baseUrl.strip();
    while (b.endsWith("/")) {
      b = b.substring(0, b.length() - 1);
    }
    return b;
  }

  /** {@code url} without user info, query or fragment: what messages may show. */
  public static String safe(String url) {
    try {
      return safe(new URI(url.strip()));
    } catch (URISyntaxException e) {
      return "(unparsable URL)";
    }
  }

  static String safe(URI u) {
    try {
      return new URI(u.getScheme(), null, u.getHost(), u.getPort(), u.getPath(), null, null)
          .toString();
    } catch (URISyntaxException e) {
      return "(unparsable URL)";
    }
  }

  @Override
  public String url() {
    return safeUrl;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body(texts), StandardCharsets.UTF_8));
    if (!apiKey.isEmpty()) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    HttpResponse<String> response;
    try {
      response = client.send(request.build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new EndpointException(safeUrl + " did not answer within " + timeout.toMillis()
          + " ms", EndpointException.NO_RESPONSE, null, null);
    } catch (IOException e) {
      throw new EndpointException(safeUrl + " unreachable: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : " " + e.getMessage()), EndpointException.NO_RESPONSE,
          null, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EndpointException(safeUrl + ": request interrupted",
          EndpointException.NO_RESPONSE, null, null);
    }
    if (response.statusCode() / 100 != 2) {
      throw new EndpointException(safeUrl + " answered HTTP " + response.statusCode() + ": "
          + abbreviate(response.body()), response.statusCode(),
          EndpointException.parseRetryAfter(
              response.headers().firstValue("Retry-After").orElse(null)), null);
    }
    return parse(response.body());
  }

  String body(List<String> texts) {
    ObjectNode root = JSON.createObjectNode();
    if (api == Api.OLLAMA) {
      root.put("model", model);
      root.set("input", JSON.valueToTree(texts));
      // an over-long input is an error, never silently cut (Ollama truncates by default)
      root.put("truncate", false);
    } else {
      root.set("inputs", JSON.valueToTree(texts));
      root.put("truncate", false);
    }
    return root.toString();
  }

  List<float[]> parse(String body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new EndpointException(safeUrl + " sent malformed JSON: " + abbreviate(body), 200,
          null, null);
    }
    JsonNode rows = api == Api.OLLAMA ? (root == null ? null : root.get("embeddings")) : root;
    if (rows == null || !rows.isArray()) {
      throw new EndpointException(safeUrl + " sent no "
          + (api == Api.OLLAMA ? "\"embeddings\" array" : "JSON array of vectors") + ": "
          + abbreviate(body), 200, null, null);
    }
    List<float[]> out = new ArrayList<>(rows.size());
    for (JsonNode row : rows) {
      if (!row.isArray()) {
        throw new EndpointException(safeUrl + " sent a vector that is not an array: "
            + abbreviate(row.toString()), 200, null, null);
      }
      float[] v = new float[row.size()];
      for (int i = 0; i < v.length; i++) {
        JsonNode x = row.get(i);
        if (!x.isNumber()) {
          throw new EndpointException(safeUrl + " sent a non-numeric vector component",
              200, null, null);
        }
        v[i] = x.floatValue();
      }
      out.add(v);
    }
    return out;
  }

  /** At most 200 characters of a server's text, with the key (should a server echo it) masked. */
  private String abbreviate(String s) {
    if (s == null) {
      return "";
    }
    String m = apiKey.isEmpty() ? s : s.replace(apiKey, "***");
    return m.length() <= 200 ? m : m.substring(0, 200) + "…";
  }

  @Override
  public String toString() {
    return "HttpEmbeddingEndpoint[" + api + ", " + safeUrl + ", model=" + model
        + (apiKey.isEmpty() ? "" : ", apiKey=***") + "]";
  }
}
