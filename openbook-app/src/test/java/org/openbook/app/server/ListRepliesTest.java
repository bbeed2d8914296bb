package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replies that could grow with the corpus or the history: an upload job's result names only the
 * files that changed or were skipped (unchanged ones on request), and list endpoints are paged
 * with a total.
 */
class ListRepliesTest {
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

  private static List<String> sources(JsonNode files) {
    List<String> out = new ArrayList<>();
    files.forEach(f -> out.add(f.get("source").asText() + ":" + f.get("status").asText()));
    return out;
  }

  @Test
  void should_name_only_changed_files_of_an_upload_and_all_on_request() throws Exception {
    String a = "---\ndept: public\n---\n# A\n\nThe aardvark archive opens at nine.\n";
    String b = "---\ndept: public\n---\n# B\n\nThe badger bakery bakes rye.\n";
    s.uploadAndWait("tok-editor", "lists", Map.of("a.md", a, "b.md", b));

    JsonNode job = s.uploadAndWait("tok-editor", "lists", Map.of("a.md", a,
        "b.md", b.replace("rye", "spelt"), "c.md", "---\ndept: public\n---\n# C\n\nCoypu cafe.\n"));

    JsonNode result = job.get("result");
    assertThat(result.get("added").asInt()).isEqualTo(1);
    assertThat(result.get("updated").asInt()).isEqualTo(1);
    assertThat(result.get("unchanged").asInt()).isEqualTo(1);
    assertThat(result.get("skipped").asInt()).isZero();
    assertThat(result.get("removed").asInt()).isZero();
    assertThat(sources(result.get("files")))
        .containsExactlyInAnyOrder("lists/b.md:updated", "lists/c.md:added");

    JsonNode all = json(s.get("/v1/jobs/" + job.get("id").asText() + "?listUnchanged=true",
        "tok-editor")).get("result");
    assertThat(sources(all.get("files"))).containsExactlyInAnyOrder("lists/a.md:unchanged",
        "lists/b.md:updated", "lists/c.md:added");
    assertThat(all.get("unchanged").asInt()).isEqualTo(1);
    assertThat(s.get("/v1/jobs/" + job.get("id").asText() + "?listUnchanged=yes", "tok-editor")
        .statusCode()).isEqualTo(400);
  }

  @Test
  void should_page_conversations_and_feedback_with_a_total() throws Exception {
    List<String> ids = new ArrayList<>();
    for (String question : List.of("What are the core hours?", "How long is annual leave?",
        "Who approves overtime?")) {
      ids.add(json(s.post("/v1/ask", "tok-admin", q(question))).get("conversationId").asText());
    }
    for (String id : ids) {
      assertThat(s.post("/v1/feedback", "tok-admin", "{\"conversationId\":\"" + id
          + "\",\"turn\":0,\"rating\":\"up\"}").statusCode()).isEqualTo(201);
    }

    JsonNode first = json(s.get("/v1/conversations?limit=2", "tok-admin"));
    JsonNode rest = json(s.get("/v1/conversations?offset=2&limit=2", "tok-admin"));
    JsonNode past = json(s.get("/v1/conversations?offset=9", "tok-admin"));

    assertThat(first.get("total").asInt()).isEqualTo(3);
    assertThat(first.get("offset").asInt()).isZero();
    assertThat(first.get("limit").asInt()).isEqualTo(2);
    assertThat(first.get("conversations")).hasSize(2);
    assertThat(rest.get("conversations")).hasSize(1);
    List<String> paged = new ArrayList<>();
    first.get("conversations").forEach(c -> paged.add(c.get("id").asText()));
    rest.get("conversations").forEach(c -> paged.add(c.get("id").asText()));
    // the pages are the unpaged list (newest first), cut in order
    List<String> unpaged = new ArrayList<>();
    json(s.get("/v1/conversations", "tok-admin")).get("conversations")
        .forEach(c -> unpaged.add(c.get("id").asText()));
    assertThat(paged).isEqualTo(unpaged).containsExactlyInAnyOrderElementsOf(ids);
    assertThat(past.get("total").asInt()).isEqualTo(3);
    assertThat(past.get("conversations")).isEmpty();
    assertThat(json(s.get("/v1/conversations", "tok-admin")).get("limit").asInt())
        .isEqualTo(ApiServer.DEFAULT_LIST_PAGE);
    assertThat(s.get("/v1/conversations?limit=0", "tok-admin").statusCode()).isEqualTo(400);

    JsonNode fb = json(s.get("/v1/feedback?limit=1&offset=1", "tok-admin"));
    assertThat(fb.get("total").asInt()).isEqualTo(3);
    assertThat(fb.get("feedback")).hasSize(1);
    JsonNode one = json(s.get("/v1/feedback?conversationId=" + ids.get(1), "tok-admin"));
    assertThat(one.get("total").asInt()).isEqualTo(1);
    assertThat(one.at("/feedback/0/conversationId").asText()).isEqualTo(ids.get(1));
  }
}
