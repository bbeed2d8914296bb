package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.app.cli.OpenBookCommand;
import org.openbook.eval.EvalCase;
import org.openbook.eval.EvalCases;
import picocli.CommandLine;

/** Feedback is stored from the stored turn and exported as eval cases. */
class FeedbackTest {
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

  @Test
  void should_store_feedback_from_the_turn_and_export_it_as_eval_cases() throws Exception {
    JsonNode first = json(s.post("/v1/ask", "tok-hr", q("What are the core hours?")));
    String cid = first.get("conversationId").asText();
    JsonNode second = json(s.post("/v1/ask", "tok-hr",
        "{\"question\":\"How long is annual leave in the first year?\",\"conversationId\":\""
            + cid + "\"}"));
    assertThat(first.get("turn").asInt()).isZero();
    assertThat(second.get("turn").asInt()).isEqualTo(1);

    assertThat(s.post("/v1/feedback", "tok-hr", "{\"conversationId\":\"" + cid
        + "\",\"turn\":0,\"rating\":\"up\"}").statusCode()).isEqualTo(201);
    assertThat(s.post("/v1/feedback", "tok-hr", "{\"conversationId\":\"" + cid
        + "\",\"turn\":1,\"rating\":\"up\"}").statusCode()).isEqualTo(201);
    // rating the same turn again replaces the earlier rating
    assertThat(s.post("/v1/feedback", "tok-hr", "{\"conversationId\":\"" + cid
        + "\",\"turn\":1,\"rating\":\"down\",\"comment\":\"wrong year\"}").statusCode())
        .isEqualTo(201);
    assertThat(s.post("/v1/feedback", "tok-hr", "{\"conversationId\":\"" + cid
        + "\",\"turn\":2,\"rating\":\"up\"}").statusCode()).isEqualTo(404);
    assertThat(s.post("/v1/feedback", "tok-hr", "{\"conversationId\":\"" + cid
        + "\",\"turn\":0,\"rating\":\"meh\"}").statusCode()).isEqualTo(400);
    assertThat(s.post("/v1/feedback", "tok-visitor", "{\"conversationId\":\"" + cid
        + "\",\"turn\":0,\"rating\":\"up\"}").statusCode()).isEqualTo(404);
    assertThat(json(s.get("/v1/feedback", "tok-hr")).get("feedback")).hasSize(2);
    assertThat(json(s.get("/v1/feedback", "tok-visitor")).get("feedback")).isEmpty();

    Path out = root.resolve("cases.jsonl");
    int code = new CommandLine(new OpenBookCommand()).execute("feedback", "export",
        "--data", root.resolve("docs-data").toString(), "--out", out.toString());

    assertThat(code).isZero();
    List<EvalCase> cases = EvalCases.read(out);
    assertThat(cases).extracting(EvalCase::question).containsExactlyInAnyOrder(
        "What are the core hours?", "How long is annual leave in the first year?");
    EvalCase core = cases.stream().filter(c -> c.question().startsWith("What are")).findFirst()
        .orElseThrow();
    assertThat(core.principal()).isEqualTo("hr");
    assertThat(core.gold()).isNotEmpty().allSatisfy(g -> {
      assertThat(g.source()).isEqualTo("hr/handbook.md");
      assertThat(Files.readString(s.docs.resolve(g.source()))).contains(g.contains());
    });
    List<JsonNode> lines = Files.readAllLines(out).stream().map(l -> {
      try {
        return TestServer.JSON.readTree(l);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).toList();
    assertThat(lines).filteredOn(n -> n.path("review").asBoolean()).singleElement()
        .satisfies(n -> {
          assertThat(n.get("question").asText()).startsWith("How long");
          assertThat(n.get("comment").asText()).isEqualTo("wrong year");
        });
  }
}
