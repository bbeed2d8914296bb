package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 14, "Done when" 3: a visitor never reads, through any endpoint, another principal's
 * conversations or feedback, or any passage, title, file name or chunk id of a department it
 * cannot read. The admin (hr + finance) first asks about finance, rates the answer and uploads a
 * finance document; then every endpoint is called as the visitor, with the admin's ids where an
 * endpoint takes one, and no response (status, headers aside) may contain any of those strings.
 */
class VisitorIsolationTest {
  private static final String ADMIN_QUESTION = "When is the annual bonus for 2024 paid?";

  @TempDir static Path root;
  static TestServer s;
  static String conversationId;
  static String jobId;
  static String financeChunkId;
  static String hrChunkId;
  /** Strings the visitor must never see. */
  static final List<String> SECRETS = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1);
    JsonNode ask = json(s.post("/v1/ask", "tok-admin", q(ADMIN_QUESTION)));
    conversationId = ask.get("conversationId").asText();
    assertThat(s.post("/v1/feedback", "tok-admin", "{\"conversationId\":\"" + conversationId
        + "\",\"turn\":0,\"rating\":\"down\",\"comment\":\"secret remark about pay\"}")
        .statusCode()).isEqualTo(201);
    JsonNode job = s.uploadAndWait("tok-admin", "finance",
        Map.of("forecast.md", "---\ndept: finance\ntitle: Confidential forecast\n---\n"
            + "# Forecast\n\nRevenue grows by 17.5 percent in the forecast.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    jobId = job.get("id").asText();
    financeChunkId = "finance/bonus.md#0";
    hrChunkId = "hr/handbook.md#0";
    SECRETS.addAll(List.of(TestServer.FINANCE_FACT, TestServer.PAYROLL_FACT, TestServer.HR_FACT,
        "finance/", "hr/handbook", "Annual bonus policy", "Payroll calendar",
        "Employee handbook", "Confidential forecast", "17.5 percent", "forecast.md",
        ADMIN_QUESTION, "secret remark", conversationId, jobId));
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  static Stream<Arguments> endpoints() {
    return Stream.of(
        Arguments.of("POST", "/v1/search", "{\"question\":\"annual bonus payroll finance\",\"k\":20}"),
        Arguments.of("POST", "/v1/search", "{\"question\":\"core hours annual leave\",\"k\":20}"),
        Arguments.of("POST", "/v1/ask", q("On which date is the 2024 bonus paid out?")),
        Arguments.of("POST", "/v1/ask", q("What are the core hours?")),
        Arguments.of("POST-SSE", "/v1/ask", q("When are salaries paid each month?")),
        Arguments.of("POST", "/v1/ask",
            "{\"question\":\"and the bonus?\",\"conversationId\":\"CID\"}"),
        Arguments.of("GET", "/v1/me", null),
        Arguments.of("GET", "/v1/documents?limit=500", null),
        Arguments.of("GET", "/v1/conversations", null),
        Arguments.of("GET", "/v1/conversations/CID", null),
        Arguments.of("PATCH", "/v1/conversations/CID", "{\"title\":\"mine now\"}"),
        Arguments.of("DELETE", "/v1/conversations/CID", null),
        Arguments.of("GET", "/v1/feedback", null),
        Arguments.of("POST", "/v1/feedback",
            "{\"conversationId\":\"CID\",\"turn\":0,\"rating\":\"up\"}"),
        Arguments.of("GET", "/v1/jobs/JID", null),
        Arguments.of("GET", "/v1/sections/FIN", null),
        Arguments.of("GET", "/v1/sections/HR", null),
        Arguments.of("DELETE", "/v1/documents/finance/bonus.md", null),
        Arguments.of("GET", "/healthz", null),
        Arguments.of("GET", "/metrics", null),
        Arguments.of("GET", "/", null),
        Arguments.of("GET", "/app.js", null));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("endpoints")
  void should_never_show_a_visitor_anything_of_other_principals_or_departments(String method,
      String path, String body) throws Exception {
    String p = path.replace("CID", conversationId).replace("JID", jobId)
        .replace("FIN", enc(financeChunkId)).replace("HR", enc(hrChunkId));
    String b = body == null ? null : body.replace("CID", conversationId);
    HttpRequest.Builder req = HttpRequest.newBuilder(s.uri(p))
        .header("Authorization", "Bearer tok-visitor");
    switch (method) {
      case "GET" -> req.GET();
      case "DELETE" -> req.DELETE();
      case "PATCH" -> req.method("PATCH", HttpRequest.BodyPublishers.ofString(b))
          .header("Content-Type", "application/json");
      case "POST", "POST-SSE" -> req.POST(HttpRequest.BodyPublishers.ofString(b))
          .header("Content-Type", "application/json")
          .header("Accept", method.equals("POST-SSE") ? "text/event-stream" : "application/json");
      default -> throw new IllegalArgumentException(method);
    }

    HttpResponse<String> r = s.http.send(req.build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

    assertThat(r.statusCode()).isLessThan(500);
    for (String secret : SECRETS) {
      assertThat(r.body()).as("%s %s -> %d must not contain '%s'", method, p, r.statusCode(),
          secret).doesNotContain(secret);
    }
    // the admin's conversation is untouched by the visitor's attempts
    assertThat(s.get("/v1/conversations/" + conversationId, "tok-admin").statusCode())
        .isEqualTo(200);
  }
}
