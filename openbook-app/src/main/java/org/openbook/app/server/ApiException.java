package org.openbook.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A request the server refuses, answered as {@code {"error": {"status", "field", "message",
 * "requestId"}}}.
 * {@code field} names the offending request field (JSON pointer-like, e.g. {@code k},
 * {@code files[1]}, {@code Authorization}) or is {@code null} when no single field is at fault.
 */
public final class ApiException extends RuntimeException {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final int status;
  private final String field;

  /**
   * @param status  HTTP status, 4xx or 5xx
   * @param field   the offending field, or {@code null}
   * @param message what is wrong and, where useful, what would be right
   */
  public ApiException(int status, String field, String message) {
    super(message);
    this.status = status;
    this.field = field;
  }

  /** 400 Bad Request for {@code field}. */
  public static ApiException badRequest(String field, String message) {
    return new ApiException(400, field, message);
  }

  public int status() {
    return status;
  }

  public String field() {
    return field;
  }

  /** The JSON error body without a request id. */
  public String toJson() {
    return toJson(null);
  }

  /** The JSON error body, {@code requestId} included when not null. */
  public String toJson(String requestId) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("status", status);
    if (field == null) {
      error.putNull("field");
    } else {
      error.put("field", field);
    }
    error.put("message", getMessage());
    if (requestId != null) {
      error.put("requestId", requestId);
    }
    return root.toString();
  }
}
