package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 30, items 2 and 9, through the HTTP server: identities from a token issuer never become
 * a static principal or writer by name, their groups map through {@code server.oidc.groups},
 * writing is granted by {@code server.oidc.writers}, and claim values cannot forge log lines.
 */
class TokenIdentityTest {
  @TempDir static Path root;
  static TestIssuer issuer;
  static TestServer s;
  /** A conversation of the static admin whose answer quotes a finance document. */
  static String adminConversation;

  @BeforeAll
  static void start() throws Exception {
    issuer = new TestIssuer();
    s = new TestServer(root, 0.1, null, issuer.config("""
            groups:
              finance-team: [finance]
            writers:
              groups: [doc-writers]
              subjects: [u-granted]
        """));
    HttpResponse<String> r = s.post("/v1/ask", "tok-admin",
        q("When is the annual bonus for 2024 paid?"));
    assertThat(r.statusCode()).isEqualTo(200);
    adminConversation = json(r).get("conversationId").asText();
    assertThat(s.get("/v1/conversations/" + adminConversation, "tok-admin").body())
        .contains(TestServer.FINANCE_FACT);
    assertThat(s.post("/v1/feedback", "tok-admin", "{\"conversationId\":\"" + adminConversation
        + "\",\"turn\":0,\"rating\":\"up\",\"comment\":\"bonus date right\"}").statusCode())
        .isEqualTo(201);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
    issuer.close();
  }

  private static String token(String sub, Map<String, Object> claims) throws Exception {
    var b = TestIssuer.claims(sub);
    claims.forEach(b::claim);
    return issuer.sign(b.build());
  }

  private static HttpResponse<String> send(String method, String path, String token, String body)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(s.uri(path))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    return s.http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Asserts the token cannot see, continue, rate, rename or delete the admin's conversation. */
  private static void assertCannotTouchAdminConversation(String token) throws Exception {
    String path = "/v1/conversations/" + adminConversation;
    assertThat(s.get(path, token).statusCode()).isEqualTo(404);
    JsonNode list = json(s.get("/v1/conversations", token));
    assertThat(list.toString()).doesNotContain(adminConversation);
    HttpResponse<String> cont = s.post("/v1/ask", token, "{\"question\":\"and the factor?\","
        + "\"conversationId\":\"" + adminConversation + "\"}");
    assertThat(cont.statusCode()).isEqualTo(404);
    assertThat(cont.body()).doesNotContain(TestServer.FINANCE_FACT);
    assertThat(s.post("/v1/feedback", token, "{\"conversationId\":\"" + adminConversation
        + "\",\"turn\":0,\"rating\":\"down\"}").statusCode()).isEqualTo(404);
    assertThat(send("PATCH", path, token, "{\"title\":\"mine\"}").statusCode()).isEqualTo(404);
    assertThat(send("DELETE", path, token, null).statusCode()).isEqualTo(404);
    String feedback = s.get("/v1/feedback", token).body();
    assertThat(feedback).doesNotContain(adminConversation).doesNotContain("bonus date right");
    assertThat(s.get("/v1/feedback", "tok-admin").body()).contains("bonus date right");
    assertThat(s.get(path, "tok-admin").statusCode()).isEqualTo(200);
  }

  private static void assertCannotWrite(String token) throws Exception {
    HttpResponse<String> up = s.upload(token, "finance", Map.of("new.md", "# New\n\nText.\n"));
    assertThat(up.statusCode()).isEqualTo(403);
    assertThat(json(up).at("/error/field").asText()).isEqualTo("Authorization");
    assertThat(s.delete("/v1/documents/finance/bonus.md", token).statusCode()).isEqualTo(403);
    assertThat(Files.exists(s.docs.resolve("finance/bonus.md"))).isTrue();
    assertThat(Files.exists(s.docs.resolve("finance/new.md"))).isFalse();
  }

  // 2 ---------------------------------------------------------------------------------------

  @Test
  void i30_2_should_keep_a_token_named_admin_apart_from_the_static_admin() throws Exception {
    String token = token("u-100", Map.of("preferred_username", "admin"));

    JsonNode me = json(s.get("/v1/me", token));

    assertThat(me.get("principal").asText())
        .isEqualTo("oidc:" + TestIssuer.ISSUER + "#u-100");
    assertThat(me.get("displayName").asText()).isEqualTo("admin");
    assertThat(me.get("writer").asBoolean()).isFalse();
    assertThat(me.get("departments")).extracting(JsonNode::asText).containsExactly("public");
    assertCannotWrite(token);
    assertCannotTouchAdminConversation(token);
    assertThat(s.post("/v1/search", token, q("annual bonus 2024 paid")).body())
        .doesNotContain(TestServer.FINANCE_FACT);
  }

  @Test
  void i30_2_should_not_make_a_token_whose_sub_names_a_writer_a_writer() throws Exception {
    // "editor" and "admin" are static writers; a sub of that name is someone else
    for (String sub : List.of("editor", "admin", "Admin", "ａｄｍｉｎ")) {
      String token = token(sub, Map.of());

      JsonNode me = json(s.get("/v1/me", token));

      assertThat(me.get("principal").asText()).isEqualTo("oidc:" + TestIssuer.ISSUER + "#" + sub);
      assertThat(me.get("writer").asBoolean()).isFalse();
      assertCannotWrite(token);
      assertCannotTouchAdminConversation(token);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"admin", "/admin", "hr", "editor"})
  void i30_2_should_not_look_token_groups_up_in_the_principals_table(String group)
      throws Exception {
    String token = token("u-200", Map.of("groups", List.of(group)));

    JsonNode me = json(s.get("/v1/me", token));

    assertThat(me.get("departments")).extracting(JsonNode::asText).containsExactly("public");
    assertThat(me.get("writer").asBoolean()).isFalse();
    assertThat(s.post("/v1/search", token, q("annual bonus 2024 paid")).body())
        .doesNotContain(TestServer.FINANCE_FACT);
  }

  @Test
  void i30_2_should_map_a_group_of_server_oidc_groups_to_its_departments() throws Exception {
    String token = token("u-300", Map.of("groups", List.of("/finance-team")));

    JsonNode me = json(s.get("/v1/me", token));

    assertThat(me.get("departments")).extracting(JsonNode::asText)
        .containsExactly("finance", "public");
    assertThat(me.get("writer").asBoolean()).isFalse();
    assertThat(s.post("/v1/search", token, q("annual bonus 2024 paid")).body())
        .contains(TestServer.FINANCE_FACT);
    // reading finance does not make it the admin
    assertCannotTouchAdminConversation(token);
  }

  @Test
  void i30_2_should_let_a_granted_group_or_subject_write() throws Exception {
    String byGroup = token("u-400", Map.of("groups", List.of("doc-writers"),
        "preferred_username", "dora"));
    String bySub = token("u-granted", Map.of());

    assertThat(json(s.get("/v1/me", byGroup)).get("writer").asBoolean()).isTrue();
    assertThat(json(s.get("/v1/me", bySub)).get("writer").asBoolean()).isTrue();
    JsonNode job = s.uploadAndWait(byGroup, "tokens", Map.of("dora.md", "# Dora\n\nHeron.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    assertThat(Files.exists(s.docs.resolve("tokens/dora.md"))).isTrue();
    // the job belongs to the identity, not to the display name or another writer
    String jobId = job.get("id").asText();
    assertThat(s.get("/v1/jobs/" + jobId, bySub).statusCode()).isEqualTo(404);
    assertThat(s.get("/v1/jobs/" + jobId, token("u-401",
        Map.of("preferred_username", "dora"))).statusCode()).isEqualTo(404);
    assertThat(s.delete("/v1/documents/tokens/dora.md", bySub).statusCode()).isEqualTo(200);
  }

  @Test
  void i30_2_should_keep_a_token_users_conversations_from_the_static_principal_of_that_name()
      throws Exception {
    String token = token("admin", Map.of("preferred_username", "admin"));
    String id = json(s.post("/v1/ask", token, q("When does the support hotline open?")))
        .get("conversationId").asText();

    assertThat(s.get("/v1/conversations/" + id, token).statusCode()).isEqualTo(200);
    assertThat(s.get("/v1/conversations/" + id, "tok-admin").statusCode()).isEqualTo(404);
    assertThat(json(s.get("/v1/conversations", "tok-admin")).toString()).doesNotContain(id);
  }

  // 9 ---------------------------------------------------------------------------------------

  /** Runs {@code r} with System.err (slf4j-simple's target) captured; returns what was logged. */
  private static synchronized String captureLog(ThrowingRunnable r) throws Exception {
    PrintStream old = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
    try {
      r.run();
    } finally {
      System.setErr(old);
    }
    return buf.toString(StandardCharsets.UTF_8);
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @ParameterizedTest
  @ValueSource(strings = {"\r\n", "\n", "\r", "\u2028", "\u2029", "\u0085", "\u000b", "\f"})
  void i30_9_should_not_let_a_claim_forge_a_log_line(String breaker) throws Exception {
    String forged = "eve" + breaker + "[main] ERROR forged line";
    String sub = "u-log-" + Integer.toHexString(breaker.hashCode()) + breaker + "[main] ERROR x";
    String token = token(sub, Map.of("preferred_username", forged,
        "groups", List.of("g" + breaker + "[main] ERROR forged group")));

    String log = captureLog(() -> {
      assertThat(s.get("/v1/me", token).statusCode()).isEqualTo(200);
      assertThat(s.post("/v1/search", token, q("support hotline")).statusCode())
          .isEqualTo(200);
    });

    String escaped = switch (breaker) {
      case "\r\n" -> "\\r\\n";
      case "\n" -> "\\n";
      case "\r" -> "\\r";
      default -> String.format("\\u%04X", (int) breaker.charAt(0));
    };
    assertThat(log).contains("(eve" + escaped + "[main] ERROR forged line)")
        .contains("[main] ERROR x").doesNotContain(forged);
    for (String line : log.split("\r\n|[\n\r\u2028\u2029\u0085\u000b\f]")) {
      assertThat(line).doesNotStartWith("[main] ERROR");
    }
  }

  @Test
  void i30_9_should_escape_an_ansi_escape_and_bidi_override_in_a_claim() throws Exception {
    String token = token("u-ansi", Map.of("preferred_username",
        "eve\u001b[2K\u001b[1G[main] ERROR forged \u202Eenil"));

    String log = captureLog(() -> assertThat(s.get("/v1/me", token).statusCode())
        .isEqualTo(200));

    assertThat(log).contains("eve\\u001B[2K").contains("\\u202E")
        .doesNotContain("\u001b").doesNotContain("\u202E");
  }
}
