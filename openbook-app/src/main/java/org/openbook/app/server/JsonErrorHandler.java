package org.openbook.app.server;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's own error replies in the API's shape: a request Jetty refuses before Javalin sees it
 * (a malformed request line, a 20 KB header → 431, an ambiguous or badly encoded URI) gets the
 * {@code {"error": {status, field, message, requestId}}} body, {@code application/json}, the
 * security headers and an {@code X-Request-Id}, like every other reply. Set on the Jetty
 * {@code Server}: bad messages are answered by {@link #badMessageError}; an error Jetty dispatches
 * inside the servlet context (which has no handler of its own) by {@link #handle}.
 */
final class JsonErrorHandler extends ErrorHandler {
  private static final Logger LOG = LoggerFactory.getLogger(JsonErrorHandler.class);
  /** Longest Jetty reason quoted in the message, characters. */
  static final int MAX_REASON = 200;

  /**
   * The security headers every reply carries: the API's, the static files' and Jetty's own
   * refusals (one map, so none can miss a header the others send).
   */
  static final Map<String, String> SECURITY_HEADERS = Map.of(
      "Content-Security-Policy", ApiServer.CSP,
      "X-Content-Type-Options", "nosniff",
      "Referrer-Policy", "no-referrer",
      "X-Frame-Options", "DENY");

  @Override
  public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
    String id = UUID.randomUUID().toString();
    LOG.debug("request {}: refused by Jetty with {}: {}", id, status, LogSafe.of(reason));
    fields.put("Content-Type", "application/json;charset=utf-8");
    fields.put("X-Request-Id", id);
    fields.put("Cache-Control", "no-store");
    SECURITY_HEADERS.forEach(fields::put);
    return ByteBuffer.wrap(body(status, reason, id).getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void handle(String target, Request baseRequest, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    baseRequest.setHandled(true);
    if (response.isCommitted()) {
      return;
    }
    String id = response.getHeader("X-Request-Id");
    if (id == null) {
      id = UUID.randomUUID().toString();
      response.setHeader("X-Request-Id", id);
    }
    int status = response.getStatus();
    Object message = request.getAttribute("jakarta.servlet.error.message");
    LOG.debug("request {}: Jetty error {}: {}", id, status, LogSafe.of(message));
    SECURITY_HEADERS.forEach(response::setHeader);
    response.setHeader("Cache-Control", "no-store");
    response.setContentType("application/json;charset=utf-8");
    byte[] body = body(status, message == null ? null : message.toString(), id)
        .getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /** The API error body for a Jetty refusal, with Jetty's reason when it has one. */
  static String body(int status, String reason, String requestId) {
    String text = HttpStatus.getMessage(status).toLowerCase(java.util.Locale.ROOT);
    if (reason != null && !reason.isBlank() && !reason.equalsIgnoreCase(text)) {
      String r = reason.length() > MAX_REASON ? reason.substring(0, MAX_REASON) + "…" : reason;
      text = text + ": " + r;
    }
    String field = switch (status) {
      case 431 -> "headers";
      case 414 -> "path";
      default -> null;
    };
    return new ApiException(status, field, text).toJson(requestId);
  }
}
