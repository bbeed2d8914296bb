package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadResult;
import org.openbook.document.MarkdownLoader;

/**
 * Issue 30 item 12 (quotas): what one principal may keep stored — conversations, turns per
 * conversation, ratings, upload jobs — is bounded; one more is 429 naming the limit, and other
 * principals are not affected.
 */
class QuotaTest {
  @TempDir static Path root;
  static TestServer s;
  static final CountDownLatch RELEASE = new CountDownLatch(1);
  static final CountDownLatch STARTED = new CountDownLatch(1);

  /** Markdown under {@code .wait}, loaded once the test releases it. */
  static final class WaitLoader implements DocumentLoader {
    @Override
    public Set<String> extensions() {
      return Set.of("wait");
    }

    @Override
    public LoadResult load(Path file, String source) throws IOException,
        org.openbook.document.LoadException {
      STARTED.countDown();
      try {
        RELEASE.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new MarkdownLoader().load(file, source);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1, null, """
          quotas:
            maxConversationsPerPrincipal: 3
            maxTurnsPerConversation: 2
            maxFeedbackPerPrincipal: 2
            maxJobsPerPrincipal: 2
        """, List.of(new WaitLoader()));
  }

  @AfterAll
  static void stop() throws Exception {
    RELEASE.countDown();
    s.close();
  }

  private static String ask(String token, String conversationId, String question)
      throws Exception {
    var body = TestServer.JSON.createObjectNode().put("question", question);
    if (conversationId != null) {
      body.put("conversationId", conversationId);
    }
    HttpResponse<String> r = s.post("/v1/ask", token, body.toString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return json(r).get("conversationId").asText();
  }

  @Test
  void i30_12_should_refuse_a_fourth_conversation_with_429_until_one_is_deleted()
      throws Exception {
    String first = ask("tok-visitor", null, "How long may customers return a widget?");
    ask("tok-visitor", null, "When was Acme founded?");
    ask("tok-visitor", null, "When does the support hotline open?");

    HttpResponse<String> fourth = s.post("/v1/ask", "tok-visitor", q("Where is Acme?"));
    HttpResponse<String> streamed = s.post("/v1/ask", "tok-visitor", q("Where is Acme?"),
        "text/event-stream");

    assertThat(fourth.statusCode()).isEqualTo(429);
    assertThat(json(fourth).at("/error/message").asText())
        .contains("server.quotas.maxConversationsPerPrincipal", "3");
    assertThat(streamed.statusCode()).isEqualTo(429); // refused before the stream starts
    assertThat(json(s.get("/v1/conversations", "tok-visitor")).get("total").asInt())
        .isEqualTo(3);
    // another principal is not affected
    ask("tok-admin", null, "When was Acme founded?");
    // deleting one makes room
    assertThat(s.delete("/v1/conversations/" + first, "tok-visitor").statusCode())
        .isEqualTo(204);
    ask("tok-visitor", null, "Where is Acme?");
  }

  @Test
  void i30_12_should_refuse_a_third_turn_of_a_conversation_with_429_naming_the_field()
      throws Exception {
    String c = ask("tok-hr", null, "What are the core hours?");
    ask("tok-hr", c, "And the annual leave?");

    HttpResponse<String> third = s.post("/v1/ask", "tok-hr", TestServer.JSON.createObjectNode()
        .put("question", "And expenses?").put("conversationId", c).toString());

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(json(third).at("/error/field").asText()).isEqualTo("conversationId");
    assertThat(json(third).at("/error/message").asText())
        .contains("server.quotas.maxTurnsPerConversation", "2");
    assertThat(json(s.get("/v1/conversations/" + c, "tok-hr")).get("turns")).hasSize(2);
  }

  @Test
  void i30_12_should_refuse_a_third_rating_but_let_a_turn_be_rated_again() throws Exception {
    String a = ask("tok-editor", null, "How long may customers return a widget?");
    ask("tok-editor", a, "And refunds?");
    String b = ask("tok-editor", null, "When was Acme founded?");

    assertThat(rate(a, 0, "up").statusCode()).isEqualTo(201);
    assertThat(rate(a, 1, "down").statusCode()).isEqualTo(201);
    HttpResponse<String> third = rate(b, 0, "up");
    HttpResponse<String> again = rate(a, 0, "down");

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(json(third).at("/error/message").asText())
        .contains("server.quotas.maxFeedbackPerPrincipal", "2");
    assertThat(again.statusCode()).isEqualTo(201);
  }

  private static HttpResponse<String> rate(String conversation, int turn, String rating)
      throws Exception {
    return s.post("/v1/feedback", "tok-editor", TestServer.JSON.createObjectNode()
        .put("conversationId", conversation).put("turn", turn).put("rating", rating)
        .toString());
  }

  @Test
  void i30_12_should_refuse_a_third_unfinished_upload_job_with_429_and_keep_no_staged_file()
      throws Exception {
    HttpResponse<String> running = s.upload("tok-admin", "q", Map.of("one.wait", "# One\n\nx\n"));
    assertThat(running.statusCode()).isEqualTo(202);
    assertThat(STARTED.await(30, TimeUnit.SECONDS)).isTrue();
    HttpResponse<String> queued = s.upload("tok-admin", "q", Map.of("two.md", "# Two\n\ny\n"));
    assertThat(queued.statusCode()).isEqualTo(202);

    HttpResponse<String> third = s.upload("tok-admin", "q", Map.of("three.md", "# 3\n\nz\n"));
    HttpResponse<String> other = s.upload("tok-editor", "q", Map.of("four.md", "# 4\n\nw\n"));

    assertThat(third.statusCode()).isEqualTo(429);
    assertThat(json(third).at("/error/message").asText())
        .contains("server.quotas.maxJobsPerPrincipal", "2");
    assertThat(other.statusCode()).isEqualTo(202);
    RELEASE.countDown();
    for (HttpResponse<String> r : List.of(running, queued)) {
      JsonNode job = s.awaitJob("tok-admin", json(r).get("jobId").asText());
      assertThat(job.get("status").asText()).as(job.toString()).isEqualTo("succeeded");
    }
    s.awaitJob("tok-editor", json(other).get("jobId").asText());
    try (var files = Files.walk(s.docs.resolve(".openbook-upload"))) {
      assertThat(files.filter(Files::isRegularFile)).isEmpty();
    }
    // with both finished, the oldest is forgotten to make room
    HttpResponse<String> later = s.upload("tok-admin", "q", Map.of("five.md", "# 5\n\nv\n"));
    assertThat(later.statusCode()).isEqualTo(202);
    assertThat(s.get("/v1/jobs/" + json(running).get("jobId").asText(), "tok-admin")
        .statusCode()).isEqualTo(404);
  }
}
