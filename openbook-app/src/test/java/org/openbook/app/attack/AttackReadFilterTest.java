package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;
import static org.openbook.app.attack.RealServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 30, attack suite: the read filter on every route of a real {@code openbook serve}. The
 * admin (hr + finance) asks about finance, rates and renames that conversation and uploads a
 * finance document; hr asks about hr. Then every route is called as the visitor (static token
 * and JWT), as hr and as finance, with the others' ids where a route takes one: no reply may
 * contain a passage, title, file name, conversation, feedback or job of a department or
 * principal the caller cannot read.
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackReadFilterTest {
  private static final String ADMIN_QUESTION = "2025 年度预算的研发投入是多少？";
  private static RealServer s;
  private static String adminConversation;
  private static String hrConversation;
  private static String adminJob;
  private static String financeChunk;
  private static String hrChunk;
  private static String jwtVisitor;
  /** What a public-only caller must never see. */
  private static final List<String> NOT_PUBLIC = new ArrayList<>();

  @BeforeAll
  static void setUp() throws Exception {
    s = RealServer.shared();
    JsonNode ask = json(s.ask("tok-admin", ADMIN_QUESTION));
    adminConversation = ask.get("conversationId").asText();
    assertThat(ask.toString()).as("the admin reads the budget").contains("4,800");
    assertThat(s.post("/v1/feedback", "tok-admin", "{\"conversationId\":\"" + adminConversation
        + "\",\"turn\":0,\"rating\":\"down\",\"comment\":\"secret remark on the plan\"}")
        .statusCode()).isEqualTo(201);
    assertThat(s.patch("/v1/conversations/" + adminConversation, "tok-admin",
        "{\"title\":\"Quarterly plan talk\"}").statusCode()).isEqualTo(200);
    JsonNode job = s.uploadAndWait("tok-admin", "finance", RealServer.file("forecast.md",
        "# Confidential forecast\n\nRevenue grows by 17.5 percent in the forecast.\n"));
    assertThat(job.get("status").asText()).as(job.toString()).isEqualTo("succeeded");
    adminJob = job.get("id").asText();
    hrConversation = json(s.ask("tok-hr", "核心工作时间是几点？")).get("conversationId").asText();
    financeChunk = firstHit("tok-admin", "FINBONUS-8812 annual bonus", "finance/bonus.md");
    hrChunk = firstHit("tok-admin", "parental leave code HRX-5521", "hr/handbook.md");
    jwtVisitor = s.jwt(s.claims("jwt-visitor", List.of("contractors")).build());
    NOT_PUBLIC.addAll(AttackCorpus.FINANCE_SECRETS);
    NOT_PUBLIC.addAll(AttackCorpus.HR_SECRETS);
    NOT_PUBLIC.addAll(List.of("Confidential forecast", "17.5 percent", "forecast.md",
        "secret remark", "Quarterly plan", ADMIN_QUESTION, adminConversation, hrConversation,
        adminJob, financeChunk, hrChunk));
  }

  private static String firstHit(String token, String question, String source) throws Exception {
    JsonNode hits = json(s.post("/v1/search", token, "{\"question\":\"" + question
        + "\",\"k\":20}")).get("hits");
    for (JsonNode h : hits) {
      if (h.get("source").asText().equals(source)) {
        return h.get("chunkId").asText();
      }
    }
    throw new AssertionError("no hit of " + source + " for '" + question + "': " + hits);
  }

  private static String enc(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8);
  }

  /** Questions that name no secret (a reply may echo the question). */
  static Stream<Arguments> routes() {
    return Stream.of(
        Arguments.of("POST", "/v1/search", "{\"question\":\"研发投入和市场费用是多少？\",\"k\":20}"),
        Arguments.of("POST", "/v1/search", "{\"question\":\"When is the annual bonus paid?\",\"k\":20}"),
        Arguments.of("POST", "/v1/search", "{\"question\":\"core working hours and parental leave\",\"k\":20}"),
        Arguments.of("POST", "/v1/search", "{\"question\":\"第一季度名单上有谁？\",\"k\":20}"),
        Arguments.of("POST", "/v1/ask", q("研发投入是多少万元？")),
        Arguments.of("POST", "/v1/ask", q("On which date is the annual bonus for 2024 paid?")),
        Arguments.of("POST", "/v1/ask", q("第一季度名单上有谁？")),
        Arguments.of("POST-SSE", "/v1/ask", q("What are the core hours for every employee?")),
        Arguments.of("POST-SSE", "/v1/ask", q("How much revenue growth does the forecast expect?")),
        Arguments.of("POST", "/v1/ask", "{\"question\":\"and the bonus?\",\"conversationId\":\"ADMINCONV\"}"),
        Arguments.of("GET", "/v1/me", null),
        Arguments.of("GET", "/v1/documents?limit=500", null),
        Arguments.of("GET", "/v1/conversations?limit=500", null),
        Arguments.of("GET", "/v1/conversations/ADMINCONV", null),
        Arguments.of("GET", "/v1/conversations/HRCONV", null),
        Arguments.of("PATCH", "/v1/conversations/ADMINCONV", "{\"title\":\"mine now\"}"),
        Arguments.of("DELETE", "/v1/conversations/ADMINCONV", null),
        Arguments.of("GET", "/v1/feedback?limit=500", null),
        Arguments.of("GET", "/v1/feedback?conversationId=ADMINCONV", null),
        Arguments.of("POST", "/v1/feedback", "{\"conversationId\":\"ADMINCONV\",\"turn\":0,\"rating\":\"up\"}"),
        Arguments.of("GET", "/v1/jobs/ADMINJOB", null),
        Arguments.of("GET", "/v1/jobs/ADMINJOB?listUnchanged=true", null),
        Arguments.of("GET", "/v1/sections/FINCHUNK", null),
        Arguments.of("GET", "/v1/sections/HRCHUNK", null),
        Arguments.of("DELETE", "/v1/documents/finance/bonus.md", null),
        Arguments.of("GET", "/healthz", null),
        Arguments.of("GET", "/metrics", null),
        Arguments.of("GET", "/", null));
  }

  private static HttpResponse<String> call(String method, String path, String body, String token)
      throws Exception {
    String p = path.replace("ADMINCONV", adminConversation).replace("HRCONV", hrConversation)
        .replace("ADMINJOB", adminJob).replace("FINCHUNK", enc(financeChunk))
        .replace("HRCHUNK", enc(hrChunk));
    String b = body == null ? null : body.replace("ADMINCONV", adminConversation);
    HttpRequest.Builder req = HttpRequest.newBuilder(s.uri(p));
    switch (method) {
      case "GET" -> req.GET();
      case "DELETE" -> req.DELETE();
      case "PATCH" -> req.method("PATCH", HttpRequest.BodyPublishers.ofString(b))
          .header("Content-Type", "application/json");
      case "POST", "POST-SSE" -> req.POST(HttpRequest.BodyPublishers.ofString(b,
              StandardCharsets.UTF_8)).header("Content-Type", "application/json")
          .header("Accept", method.equals("POST-SSE") ? "text/event-stream" : "application/json");
      default -> throw new IllegalArgumentException(method);
    }
    return s.send(req, token);
  }

  private static void assertNoneOf(HttpResponse<String> r, List<String> secrets, String what) {
    assertThat(r.statusCode()).as("%s -> %s", what, r.body()).isLessThan(500);
    for (String secret : secrets) {
      assertThat(r.body()).as("%s -> %d must not contain '%s'", what, r.statusCode(), secret)
          .doesNotContain(secret);
    }
  }

  @ParameterizedTest(name = "visitor {0} {1}")
  @MethodSource("routes")
  void should_show_a_visitor_nothing_of_other_departments_or_principals(String method,
      String path, String body) throws Exception {
    assertNoneOf(call(method, path, body, "tok-visitor"), NOT_PUBLIC, "visitor " + method + " " + path);
    // the admin's conversation is untouched by the attempt
    assertThat(s.get("/v1/conversations/" + adminConversation, "tok-admin").statusCode())
        .isEqualTo(200);
  }

  @ParameterizedTest(name = "jwt visitor {0} {1}")
  @MethodSource("routes")
  void should_show_a_jwt_caller_of_an_unknown_group_nothing_of_others(String method, String path,
      String body) throws Exception {
    assertNoneOf(call(method, path, body, jwtVisitor), NOT_PUBLIC, "jwt " + method + " " + path);
  }

  @ParameterizedTest(name = "hr {0} {1}")
  @MethodSource("routes")
  void should_show_hr_nothing_of_finance(String method, String path, String body)
      throws Exception {
    List<String> secrets = new ArrayList<>(AttackCorpus.FINANCE_SECRETS);
    secrets.addAll(List.of("Confidential forecast", "17.5 percent", "forecast.md",
        "secret remark", adminConversation, adminJob, financeChunk));
    assertNoneOf(call(method, path, body, "tok-hr"), secrets, "hr " + method + " " + path);
  }

  @ParameterizedTest(name = "finance {0} {1}")
  @MethodSource("routes")
  void should_show_finance_nothing_of_hr(String method, String path, String body)
      throws Exception {
    List<String> secrets = new ArrayList<>(AttackCorpus.HR_SECRETS);
    secrets.addAll(List.of(hrConversation, hrChunk, "secret remark", adminConversation,
        "Quarterly plan"));
    assertNoneOf(call(method, path, body, "tok-finance"), secrets,
        "finance " + method + " " + path);
  }

  @Test
  void should_page_the_document_list_of_a_visitor_over_public_documents_only() throws Exception {
    JsonNode first = json(s.get("/v1/documents?offset=0&limit=1", "tok-visitor"));
    int total = first.get("total").asInt();
    JsonNode admin = json(s.get("/v1/documents?limit=500", "tok-admin"));
    assertThat(total).isPositive().isLessThan(admin.get("total").asInt());
    for (int offset = 0; offset <= total + 2; offset++) {
      HttpResponse<String> page = s.get("/v1/documents?offset=" + offset + "&limit=1",
          "tok-visitor");
      assertNoneOf(page, NOT_PUBLIC, "visitor documents offset " + offset);
      assertThat(json(page).get("total").asInt()).isEqualTo(total);
      for (JsonNode d : json(page).get("documents")) {
        assertThat(d.get("dept").asText()).isEqualTo("public");
      }
    }
  }

  @Test
  void should_let_the_admin_read_what_the_visitor_may_not_so_the_checks_can_fail()
      throws Exception {
    // A control: the secrets are really in the index and reachable by a caller who may read them.
    String search = s.post("/v1/search", "tok-admin",
        "{\"question\":\"研发投入和市场费用是多少？\",\"k\":20}").body();
    assertThat(search).contains("4,800 万元", AttackCorpus.FINANCE_BUDGET);
    assertThat(s.get("/v1/sections/" + enc(financeChunk), "tok-admin").body())
        .contains("FINBONUS-8812");
    assertThat(s.get("/v1/documents?limit=500", "tok-admin").body())
        .contains("Confidential forecast", AttackCorpus.LAYOFF_LIST, "hr/handbook.md");
    assertThat(s.get("/v1/jobs/" + adminJob, "tok-admin").body()).contains("forecast.md");
    assertThat(s.get("/v1/feedback", "tok-admin").body()).contains(adminConversation);
  }
}
