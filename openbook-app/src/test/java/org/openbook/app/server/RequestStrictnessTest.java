package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 30, items 10 and 12 (part): the method is the request line's, JSON bodies are exactly
 * one value without duplicate keys, and the replies Jetty makes itself are the API's JSON error
 * with the security headers and a request id.
 */
class RequestStrictnessTest {
  @TempDir static Path root;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private static String conversation(String token) throws Exception {
    HttpResponse<String> r = s.post("/v1/ask", token, q("When does the support hotline open?"));
    assertThat(r.statusCode()).isEqualTo(200);
    return json(r).get("conversationId").asText();
  }

  private static HttpResponse<String> send(String method, String path, String token,
      String contentType, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(path))
        .header("Authorization", "Bearer " + token).header("Content-Type", contentType)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return s.http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** The API's error shape: status, field, message, requestId equal to the header's. */
  private static void assertApiError(int status, String contentType, String body,
      Map<String, String> headers) throws Exception {
    assertThat(contentType).startsWith("application/json");
    JsonNode e = TestServer.JSON.readTree(body).get("error");
    assertThat(e.get("status").asInt()).isEqualTo(status);
    assertThat(e.has("field")).isTrue();
    assertThat(e.get("message").asText()).isNotBlank();
    assertThat(e.get("requestId").asText()).isEqualTo(headers.get("x-request-id"));
    assertThat(headers.get("content-security-policy")).contains("frame-ancestors 'none'");
    assertThat(headers.get("x-content-type-options")).isEqualTo("nosniff");
    assertThat(headers.get("referrer-policy")).isEqualTo("no-referrer");
  }

  private static void assertApiError(HttpResponse<String> r, int... statuses) throws Exception {
    assertThat(r.statusCode()).isIn((Object[]) java.util.Arrays.stream(statuses).boxed()
        .toArray(Integer[]::new));
    Map<String, String> h = new LinkedHashMap<>();
    r.headers().map().forEach((k, v) -> h.put(k.toLowerCase(Locale.ROOT), v.get(0)));
    assertApiError(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(),
        h);
  }

  // 10 --------------------------------------------------------------------------------------

  @ParameterizedTest
  @ValueSource(strings = {"X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override",
      "x-http-method-override"})
  void i30_10_should_ignore_a_method_override_header(String header) throws Exception {
    String id = conversation("tok-visitor");
    String path = "/v1/conversations/" + id;

    HttpResponse<String> r = send("POST", path, "tok-visitor", "application/json", "{}",
        header, "DELETE");
    // constructed: an override to PATCH must not rename either
    HttpResponse<String> rename = send("POST", path, "tok-visitor", "application/json",
        "{\"title\":\"renamed by override\"}", header, "PATCH");

    assertApiError(r, 404, 405);
    assertApiError(rename, 404, 405);
    HttpResponse<String> still = s.get(path, "tok-visitor");
    assertThat(still.statusCode()).isEqualTo(200);
    assertThat(json(still).get("title").asText()).isNotEqualTo("renamed by override");
  }

  @Test
  void i30_10_should_ignore_a_method_parameter_in_the_query_or_form() throws Exception {
    String id = conversation("tok-visitor");
    String path = "/v1/conversations/" + id;

    assertApiError(send("POST", path + "?_method=DELETE", "tok-visitor", "application/json",
        "{}"), 404, 405);
    assertApiError(send("POST", path, "tok-visitor", "application/x-www-form-urlencoded",
        "_method=DELETE"), 404, 405);
    assertApiError(send("POST", path + "?_method=DELETE", "tok-visitor",
        "application/x-www-form-urlencoded", "_method=DELETE"), 404, 405);
    assertThat(s.get(path, "tok-visitor").statusCode()).isEqualTo(200);
  }

  @Test
  void i30_10_should_not_let_a_writer_delete_a_document_through_an_override() throws Exception {
    HttpResponse<String> r = send("GET", "/v1/documents/about.md", "tok-admin",
        "application/json", null, "X-HTTP-Method-Override", "DELETE");

    assertApiError(r, 404, 405);
    assertThat(Files.exists(s.docs.resolve("about.md"))).isTrue();
    assertThat(s.engine.store().documentHashes()).containsKey("about.md");
  }

  // 12: strict JSON ----------------------------------------------------------------------------

  /** Every JSON-body route, as method, path and a valid body to spoil. */
  private static Map<String, String[]> routes() throws Exception {
    String id = conversation("tok-visitor");
    Map<String, String[]> r = new LinkedHashMap<>();
    r.put("ask", new String[] {"POST", "/v1/ask", "{\"question\":\"x\"}", "question"});
    r.put("search", new String[] {"POST", "/v1/search", "{\"question\":\"x\"}", "question"});
    r.put("feedback", new String[] {"POST", "/v1/feedback", "{\"conversationId\":\"" + id
        + "\",\"turn\":0,\"rating\":\"up\"}", "rating"});
    r.put("rename", new String[] {"PATCH", "/v1/conversations/" + id, "{\"title\":\"t\"}",
        "title"});
    return r;
  }

  @Test
  void i30_12_should_refuse_trailing_content_after_the_json_body_on_every_route()
      throws Exception {
    for (Map.Entry<String, String[]> e : routes().entrySet()) {
      String[] r = e.getValue();
      for (String trailing : new String[] {" {\"a\":1}", "garbage", "}", "\n[]", " \"x\"",
          "{\"question\":\"y\"}"}) {
        HttpResponse<String> reply = send(r[0], r[1], "tok-visitor", "application/json",
            r[2] + trailing);

        assertThat(reply.statusCode()).as(e.getKey() + " + " + trailing).isEqualTo(400);
        assertThat(json(reply).at("/error/field").asText()).as(e.getKey()).isEqualTo("body");
        assertApiError(reply, 400);
      }
      // trailing whitespace is not content
      assertThat(send(r[0], r[1], "tok-visitor", "application/json", r[2] + " \r\n\t")
          .statusCode()).as(e.getKey()).isIn(200, 201);
    }
  }

  @Test
  void i30_12_should_refuse_a_duplicate_key_on_every_route_naming_it() throws Exception {
    for (Map.Entry<String, String[]> e : routes().entrySet()) {
      String[] r = e.getValue();
      String field = r[3];
      String body = r[2];
      // the key's first value is valid, the second a different value (same or other type)
      String dup = body.substring(0, body.length() - 1) + ",\"" + field + "\":\"down\"}";
      // constructed: the duplicate spelled with a JSON escape
      String escaped = body.substring(0, body.length() - 1) + ",\"\\u00" +
          Integer.toHexString(field.charAt(0)) + field.substring(1) + "\":\"down\"}";
      for (String b : new String[] {dup, escaped}) {
        HttpResponse<String> reply = send(r[0], r[1], "tok-visitor", "application/json", b);

        assertThat(reply.statusCode()).as(e.getKey() + ": " + b).isEqualTo(400);
        assertThat(json(reply).at("/error/field").asText()).as(b).isEqualTo(field);
        assertApiError(reply, 400);
      }
    }
    HttpResponse<String> literal = s.post("/v1/search", "tok-visitor",
        "{\"question\":\"a\",\"question\":\"b\"}");
    assertThat(json(literal).at("/error/field").asText()).isEqualTo("question");
    assertThat(json(literal).at("/error/message").asText()).contains("duplicate");
    HttpResponse<String> k = s.post("/v1/search", "tok-visitor",
        "{\"question\":\"a\",\"k\":1,\"k\":20}");
    assertThat(json(k).at("/error/field").asText()).isEqualTo("k");
  }

  // 12: Jetty's own replies -------------------------------------------------------------------

  /** A reply read from a raw socket. */
  private record Raw(int status, Map<String, String> headers, String body) {}

  private static Raw raw(byte[] request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", s.server.port())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(request);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      byte[] chunk = new byte[8192];
      int n;
      // the server closes the connection after a bad message; read what it sent until then
      try {
        while ((n = in.read(chunk)) > 0) {
          buf.write(chunk, 0, n);
          String text = buf.toString(StandardCharsets.UTF_8);
          int end = text.indexOf("\r\n\r\n");
          if (end > 0) {
            int len = contentLength(text.substring(0, end));
            if (len >= 0 && buf.size() >= end + 4 + len) {
              break;
            }
          }
        }
      } catch (java.net.SocketException e) {
        // connection reset after the reply: keep what was read
      }
      String text = buf.toString(StandardCharsets.UTF_8);
      int end = text.indexOf("\r\n\r\n");
      assertThat(end).as("a complete reply: " + text).isPositive();
      String[] lines = text.substring(0, end).split("\r\n");
      Map<String, String> headers = new LinkedHashMap<>();
      for (int i = 1; i < lines.length; i++) {
        int colon = lines[i].indexOf(':');
        headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
            lines[i].substring(colon + 1).trim());
      }
      return new Raw(Integer.parseInt(lines[0].split(" ")[1]), headers,
          text.substring(end + 4));
    }
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).trim());
      }
    }
    return -1;
  }

  private static void assertJsonError(Raw r, int status) throws Exception {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).doesNotContain("<html", "<h2>");
    assertApiError(status, r.headers().getOrDefault("content-type", ""), r.body(), r.headers());
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  @Test
  void i30_12_should_answer_an_oversized_header_with_the_json_error() throws Exception {
    String big = "a".repeat(20 * 1024);

    assertJsonError(raw(ascii("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer tok-visitor\r\nX-Big: " + big + "\r\n\r\n")), 431);
    // constructed: many small headers over the limit, and an oversized request line
    StringBuilder many = new StringBuilder("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    for (int i = 0; i < 400; i++) {
      many.append("X-H").append(i).append(": ").append("b".repeat(40)).append("\r\n");
    }
    assertJsonError(raw(ascii(many.append("\r\n").toString())), 431);
    Raw longUri = raw(ascii("GET /v1/me?q=" + big + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    assertThat(longUri.status()).isIn(414, 431);
    assertJsonError(longUri, longUri.status());
  }

  @Test
  void i30_12_should_answer_a_malformed_request_with_the_json_error() throws Exception {
    assertJsonError(raw(ascii("GET /v1/me HTTP/1.1 junk\r\nHost: 127.0.0.1\r\n\r\n")), 400);
    assertJsonError(raw(ascii("\u0001\u0002 nonsense\r\n\r\n")), 400);
    assertJsonError(raw(ascii("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n")),
        400);
    assertJsonError(raw(ascii("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Length: abc\r\n\r\n")), 400);
    // an absolute-form target naming another authority than Host
    assertJsonError(raw(ascii("GET http://other.example/v1/me HTTP/1.1\r\n"
        + "Host: 127.0.0.1\r\n\r\n")), 400);
  }

  @Test
  void i30_12_should_answer_a_badly_encoded_uri_with_the_json_error() throws Exception {
    for (String path : new String[] {"/v1/%zz", "/v1/sections/%E9%A2", "/%", "/v1/me%00",
        "/v1/sections/%C0%AF", "/..;/v1/me"}) {
      Raw r = raw(ascii("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          + "Authorization: Bearer tok-visitor\r\nConnection: close\r\n\r\n"));

      assertThat(r.status()).as(path).isBetween(400, 404);
      assertJsonError(r, r.status());
    }
  }

  // ---- the upload form is as strict as a JSON body ---------------------------------------

  /** A multipart upload with the given text fields (name, value pairs, in order) and one file. */
  private static HttpResponse<String> uploadForm(String... fields) throws Exception {
    String boundary = "----strict-form";
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < fields.length; i += 2) {
      b.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"")
          .append(fields[i]).append("\"\r\n\r\n").append(fields[i + 1]).append("\r\n");
    }
    b.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"files\";"
        + " filename=\"form-note.md\"\r\nContent-Type: text/markdown\r\n\r\n# Note\n\nA note.\n"
        + "\r\n--").append(boundary).append("--\r\n");
    return send("POST", "/v1/documents", "tok-admin", "multipart/form-data; boundary=" + boundary,
        b.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"principal", "dept", "departments", "user", "role"})
  void i30_12_should_refuse_an_access_field_in_the_upload_form_with_400_naming_it(String field)
      throws Exception {
    HttpResponse<String> r = uploadForm(field, "public");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
    assertThat(json(r).at("/error/field").asText()).isEqualTo(field);
    assertThat(json(r).at("/error/message").asText()).contains("bearer token");
    assertThat(Files.exists(s.docs.resolve("form-note.md"))).isFalse();
  }

  @Test
  void i30_12_should_refuse_an_unknown_or_repeated_upload_form_field_with_400_naming_it()
      throws Exception {
    HttpResponse<String> unknown = uploadForm("colour", "blue");
    HttpResponse<String> twice = uploadForm("folder", "support", "folder", "hr");

    assertThat(unknown.statusCode()).as(unknown.body()).isEqualTo(400);
    assertThat(json(unknown).at("/error/field").asText()).isEqualTo("colour");
    assertThat(twice.statusCode()).as(twice.body()).isEqualTo(400);
    assertThat(json(twice).at("/error/field").asText()).isEqualTo("folder");
    assertThat(json(twice).at("/error/message").asText()).contains("2 times");
    assertThat(Files.exists(s.docs.resolve("support/form-note.md"))).isFalse();
    assertThat(Files.exists(s.docs.resolve("hr/form-note.md"))).isFalse();
    // one folder field is the ordinary upload
    HttpResponse<String> once = uploadForm("folder", "support");
    assertThat(once.statusCode()).as(once.body()).isEqualTo(202);
    s.awaitJob("tok-admin", json(once).get("jobId").asText());
    assertThat(s.delete("/v1/documents/support%2Fform-note.md", "tok-admin").statusCode())
        .isEqualTo(200);
  }
}
