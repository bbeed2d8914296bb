package org.openbook.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.analysis.QuestionText;

/**
 * Reads and validates the JSON bodies of {@code /v1/ask} and {@code /v1/search} (and the object
 * bodies of the other routes). Every error is an {@link ApiException} naming the field. Bodies
 * are parsed strictly ({@link StrictJson}): one JSON value, no duplicate keys. Fields that
 * would choose who is asking ({@code principal}, {@code dept}, …) are rejected: the principal
 * comes only from the token.
 */
public final class ApiRequests {
  /** Body fields that try to choose access; refused so a client learns they have no effect. */
  static final Set<String> ACCESS_FIELDS =
      Set.of("principal", "dept", "depts", "department", "departments", "user", "role");

  private static final Set<String> ASK_FIELDS = Set.of("question", "conversationId", "k", "agent");
  private static final Set<String> SEARCH_FIELDS = Set.of("question", "k");
  /**
   * Fields of the upload form: {@code folder}, and the file parts named {@code files} (which
   * the servlet layer may list among the form fields too).
   */
  private static final Set<String> UPLOAD_FIELDS = Set.of("folder", "files");

  private final long maxBodyBytes;
  private final int maxK;
  private final int maxQuestionChars;

  /**
   * @param maxBodyBytes     largest body accepted, bytes
   * @param maxK             largest {@code k} accepted, ≥ 1
   * @param maxQuestionChars longest question accepted, characters (UTF-16 code units)
   */
  public ApiRequests(long maxBodyBytes, int maxK, int maxQuestionChars) {
    this.maxBodyBytes = maxBodyBytes;
    this.maxK = maxK;
    this.maxQuestionChars = maxQuestionChars;
  }

  /**
   * Parses a JSON object body whose fields are all in {@code allowed} (e.g. a rename or a
   * feedback body).
   */
  public JsonNode object(InputStream body, long declaredLength, Set<String> allowed) {
    return read(body, declaredLength, allowed);
  }

  /**
   * An ask request.
   *
   * @param question       the question, not blank
   * @param conversationId an existing conversation, or {@code null} to start one
   * @param k              sources to retrieve in [1, maxK], or {@code null} for the configured default
   * @param agent          answer with the tool-calling agent (the LLM searches the index itself,
   *                       as the caller's principal) instead of retrieving once
   */
  public record Ask(String question, String conversationId, Integer k, boolean agent) {}

  /**
   * A search request.
   *
   * @param question the query text, not blank
   * @param k        hits in [1, maxK], or {@code null} for the configured default
   */
  public record Search(String question, Integer k) {}

  /** Parses an ask body. */
  public Ask ask(InputStream body, long declaredLength) {
    JsonNode root = read(body, declaredLength, ASK_FIELDS);
    JsonNode conv = root.get("conversationId");
    String conversationId = null;
    if (conv != null && !conv.isNull()) {
      if (!conv.isTextual() || conv.asText().isBlank()) {
        throw ApiException.badRequest("conversationId", "conversationId must be a non-empty string");
      }
      conversationId = conv.asText();
    }
    JsonNode agent = root.get("agent");
    if (agent != null && !agent.isNull() && !agent.isBoolean()) {
      throw ApiException.badRequest("agent", "'agent' must be true or false");
    }
    return new Ask(question(root), conversationId, k(root), agent != null && agent.asBoolean());
  }

  /** Parses a search body. */
  public Search search(InputStream body, long declaredLength) {
    JsonNode root = read(body, declaredLength, SEARCH_FIELDS);
    return new Search(question(root), k(root));
  }

  private JsonNode read(InputStream body, long declaredLength, Set<String> allowed) {
    if (declaredLength > maxBodyBytes) {
      throw tooLarge(declaredLength);
    }
    byte[] bytes;
    try {
      // Read one byte past the limit so a body without Content-Length is bounded too.
      bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
    } catch (IOException e) {
      throw ApiException.badRequest("body", "cannot read request body: " + e.getMessage());
    }
    if (bytes.length > maxBodyBytes) {
      throw tooLarge(-1);
    }
    if (bytes.length == 0) {
      throw ApiException.badRequest("body", "empty body: expected a JSON object");
    }
    JsonNode root = StrictJson.read(bytes);
    if (root == null || !root.isObject()) {
      throw ApiException.badRequest("body", "expected a JSON object");
    }
    for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
      requireAllowed(it.next(), allowed);
    }
    return root;
  }

  /**
   * The {@code folder} of an upload form, checked like a JSON body: besides the {@code files}
   * parts the only field is {@code folder}, given at most once; {@code principal}, {@code dept} and the other access
   * fields are refused, as is any other field, so a client learns that they have no effect.
   *
   * @param form the form's text fields (name → values); the file parts are not in it
   * @return the folder, or {@code null} when none is given
   * @throws ApiException 400 naming the field
   */
  static String uploadFolder(Map<String, List<String>> form) {
    for (String name : form.keySet()) {
      requireAllowed(name, UPLOAD_FIELDS);
    }
    List<String> folder = form.getOrDefault("folder", List.of());
    if (folder.size() > 1) {
      throw ApiException.badRequest("folder", "given " + folder.size() + " times; give it once");
    }
    return folder.isEmpty() ? null : folder.get(0);
  }

  private static void requireAllowed(String name, Set<String> allowed) {
    if (ACCESS_FIELDS.contains(name)) {
      throw ApiException.badRequest(name, "'" + name
          + "' is not accepted: who is asking comes from the bearer token only");
    }
    if (!allowed.contains(name)) {
      throw ApiException.badRequest(name, "unknown field '" + name + "'; allowed: "
          + String.join(", ", allowed.stream().sorted().toList()));
    }
  }

  private ApiException tooLarge(long length) {
    return new ApiException(413, "body", "request body "
        + (length >= 0 ? "of " + length + " bytes " : "")
        + "exceeds the limit of " + maxBodyBytes + " bytes (server.maxBodyBytes)");
  }

  private String question(JsonNode root) {
    JsonNode q = root.get("question");
    if (q == null || q.isNull()) {
      throw ApiException.badRequest("question", "missing field 'question'");
    }
    if (!q.isTextual()) {
      throw ApiException.badRequest("question", "'question' must be a string, got "
          + q.getNodeType().name().toLowerCase());
    }
    if (q.asText().isBlank()) {
      throw ApiException.badRequest("question", "'question' must not be empty");
    }
    // NBSP, zero-width space, BOM, NUL or a lone surrogate alone: nothing to search for
    String problem = QuestionText.problem(q.asText());
    if (problem != null) {
      throw ApiException.badRequest("question", "'question' is not searchable: " + problem);
    }
    if (q.asText().length() > maxQuestionChars) {
      throw ApiException.badRequest("question", "'question' has " + q.asText().length()
          + " characters; at most " + maxQuestionChars + " are accepted");
    }
    return q.asText();
  }

  private Integer k(JsonNode root) {
    JsonNode k = root.get("k");
    if (k == null || k.isNull()) {
      return null;
    }
    if (!k.isIntegralNumber() || !k.canConvertToInt()) {
      throw ApiException.badRequest("k", "'k' must be an integer in [1, " + maxK + "], got "
          + k.toString());
    }
    int v = k.intValue();
    if (v < 1 || v > maxK) {
      throw ApiException.badRequest("k", "'k' must be in [1, " + maxK + "], got " + v);
    }
    return v;
  }
}
