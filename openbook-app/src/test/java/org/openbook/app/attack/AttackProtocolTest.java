package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 30, attack suite: protocol-level inputs against a real {@code openbook serve}: blank or
 * invisible questions (item 8), method override headers (item 10), Jetty's own error replies and
 * lax JSON (item 12).
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackProtocolTest {
  private static RealServer s;

  @BeforeAll
  static void setUp() {
    s = RealServer.shared();
  }

  private static String enc(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
  }

  // ---- item 8: blank and zero-width questions ----------------------------------------------

  /** JSON string contents (escapes as sent) that hold no visible character. */
  static Stream<Arguments> invisibleQuestions() {
    return Stream.of("\\u00a0", "\\u200b", "\\ufeff", "\\u0000", "\\ud800", "\\udc00", "\\u00a0\\u200b\\ufeff\\u0000", "\\u3000\\u2028\\u2029",
        "\\u200c\\u200d\\u2060", "\\u00ad\\u180e", "\\t\\n\\r \\u000b\\u000c", "\\ud83d")
        .map(Arguments::of);
  }

  /** Issue 30 item 8: a question of only invisible characters is a 400 naming question. */
  @ParameterizedTest(name = "question \"{0}\"")
  @MethodSource("invisibleQuestions")
  void i30_8_should_refuse_an_invisible_question_with_400_and_store_nothing(String escaped)
      throws Exception {
    String body = "{\"question\":\"" + escaped + "\"}";
    int before = json(s.get("/v1/conversations?limit=500", "tok-finance")).get("total").asInt();
    long mark = s.logMark();

    HttpResponse<String> search = s.post("/v1/search", "tok-finance", body);
    HttpResponse<String> ask = s.post("/v1/ask", "tok-finance", body);
    HttpResponse<String> stream = s.post("/v1/ask", "tok-finance", body, "text/event-stream");

    for (HttpResponse<String> r : new HttpResponse[] {search, ask, stream}) {
      assertThat(r.statusCode()).as("%s %s", r.request().uri(), r.body()).isEqualTo(400);
      assertThat(json(r).at("/error/field").asText()).isEqualTo("question");
    }
    assertThat(json(s.get("/v1/conversations?limit=500", "tok-finance")).get("total").asInt())
        .as("conversations stored").isEqualTo(before);
    assertThat(s.logSince(mark)).doesNotContain("Exception");
  }

  // ---- item 10: method override ---------------------------------------------------------------

  static Stream<Arguments> overrides() {
    return Stream.of(Arguments.of("X-HTTP-Method-Override", ""),
        Arguments.of("X-HTTP-Method", ""), Arguments.of("X-Method-Override", ""),
        Arguments.of(null, "?_method=DELETE"), Arguments.of("X-HTTP-Method-Override", "?_method=DELETE"));
  }

  /** Issue 30 item 10: a POST with a method override never deletes a conversation. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("overrides")
  void i30_10_should_ignore_a_method_override_on_a_conversation(String header, String query)
      throws Exception {
    String id = json(s.ask("tok-finance", "研发投入是多少？")).get("conversationId").asText();
    HttpRequest.Builder b = HttpRequest.newBuilder(s.uri("/v1/conversations/" + id + query))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{}"));
    if (header != null) {
      b.header(header, "DELETE");
    }

    HttpResponse<String> r = s.send(b, "tok-finance");

    assertThat(r.statusCode()).as(r.body()).isNotIn(200, 204);
    assertThat(s.get("/v1/conversations/" + id, "tok-finance").statusCode()).isEqualTo(200);
  }

  /** Issue 30 item 10: nor a document. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("overrides")
  void i30_10_should_ignore_a_method_override_on_a_document(String header, String query)
      throws Exception {
    JsonNode job = s.uploadAndWait("tok-admin", "public", RealServer.file("override.md",
        "# Override\n\nThe override probe document.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(s.uri("/v1/documents/"
              + enc("public/override.md") + query)).header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString("{}"));
      if (header != null) {
        b.header(header, "DELETE");
      }

      HttpResponse<String> r = s.send(b, "tok-admin");

      assertThat(r.statusCode()).as(r.body()).isNotIn(200, 204);
      assertThat(Files.exists(s.docs.resolve("public/override.md"))).isTrue();
      assertThat(s.get("/v1/documents?limit=500", "tok-admin").body())
          .contains("public/override.md");
    } finally {
      s.delete("/v1/documents/" + enc("public/override.md"), "tok-admin");
    }
  }

  // ---- item 12: Jetty's own errors and lax JSON ---------------------------------------------

  static Stream<Arguments> jettyErrors() {
    return Stream.of(
        Arguments.of("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + "b".repeat(64 * 1024)
            + "\r\nConnection: close\r\n\r\n", 431),
        Arguments.of("GET /v1/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 400),
        Arguments.of("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad\u0001: y\r\n"
            + "Connection: close\r\n\r\n", 400),
        Arguments.of("POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n"
            + "Connection: close\r\n\r\n", 400));
  }

  /** Issue 30 item 12: every error, Jetty's too, in the API's JSON shape with the headers. */
  @ParameterizedTest(name = "{1}")
  @MethodSource("jettyErrors")
  void i30_12_should_answer_every_protocol_error_in_the_api_json_shape(String request,
      int status) throws Exception {
    RealServer.Raw r = s.raw(request, 30);

    assertThat(r.status()).as(r.head()).isEqualTo(status);
    assertThat(r.head().toLowerCase()).contains("content-type: application/json",
        "x-request-id:", "content-security-policy:", "x-content-type-options: nosniff");
    JsonNode body = RealServer.JSON.readTree(r.body());
    assertThat(body.at("/error/status").asInt()).isEqualTo(status);
    assertThat(r.body()).doesNotContain("<h1>", "jetty", "Jetty");
  }

  /** Issue 30 item 12: strict JSON bodies. */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"{\"question\":\"hotline\"} trailing", "{\"question\":\"hotline\"}{\"k\":5}",
      "{\"question\":\"hotline\",\"question\":\"bonus\"}", "{\"question\":\"hotline\",\"k\":5,\"k\":20}",
      "{\"question\":\"hotline\"}]", "{'question':'hotline'}", "{\"question\":\"hotline\",}"})
  void i30_12_should_refuse_lax_json(String body) throws Exception {
    for (String path : new String[] {"/v1/search", "/v1/ask"}) {
      HttpResponse<String> r = s.post(path, "tok-visitor", body);

      assertThat(r.statusCode()).as("%s %s", path, r.body()).isEqualTo(400);
    }
  }
}
