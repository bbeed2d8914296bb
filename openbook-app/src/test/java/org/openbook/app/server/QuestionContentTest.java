package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.app.server.TestServer.json;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openbook.analysis.QuestionText;
import org.openbook.retrieve.Principal;

/**
 * Issue 30 item 8: a question with nothing to search for (only NBSP, zero-width space, BOM, NUL,
 * a lone surrogate, or the like) is a 400 naming {@code question} on every door, never a 500
 * or a stored FAILED turn.
 */
class QuestionContentTest {
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

  /**
   * Questions as JSON string literals (escapes as a client sends them): the five of the issue,
   * then U+3000, U+2060, tabs and newlines, a mix, a lone low surrogate, full-width spaces with a
   * soft hyphen, punctuation only.
   */
  private static final String[] EMPTY_QUESTIONS = {
      "\"\\u00a0\"", "\"\\u200b\"", "\"\\ufeff\"", "\"\\u0000\"", "\"\\ud800\"",
      "\"\\u3000\\u3000\"", "\"\\u2060\"", "\"\\t\\n\\t\\r\\n\"",
      "\"\\u00a0\\u200b\\ufeff\\u0000\\u2060\\t\\u3000\"", "\"\\udc00 hello\"",
      "\"\\u00ad\\u3000\\u200d\"", "\"?!\\u3002\\u00a0\""};

  @ParameterizedTest
  @ValueSource(strings = {"/v1/search", "/v1/ask", "/v1/ask sse"})
  void i30_8_should_refuse_a_question_without_searchable_content_with_400_naming_question(
      String door) throws Exception {
    String path = door.split(" ")[0];
    String accept = door.endsWith("sse") ? "text/event-stream" : "application/json";
    int before = json(s.get("/v1/conversations", "tok-visitor")).get("total").asInt();
    for (String literal : EMPTY_QUESTIONS) {
      HttpResponse<String> r = s.post(path, "tok-visitor", "{\"question\": " + literal + "}",
          accept);

      assertThat(r.statusCode()).as(door + " " + literal).isEqualTo(400);
      assertThat(r.headers().firstValue("Content-Type").orElse("")).contains("application/json");
      assertThat(json(r).at("/error/field").asText()).as(literal).isEqualTo("question");
    }
    assertThat(json(s.get("/v1/conversations", "tok-visitor")).get("total").asInt())
        .isEqualTo(before);
  }

  @Test
  void i30_8_should_still_answer_a_question_with_one_letter_among_invisible_characters()
      throws Exception {
    HttpResponse<String> r = s.post("/v1/search", "tok-visitor",
        "{\"question\": \"\\u200bwidget\\u00a0returns\\ufeff\"}");

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(s.post("/v1/search", "tok-visitor", "{\"question\": \"\\u3000年假\"}")
        .statusCode()).isEqualTo(200);
  }

  @Test
  void i30_8_should_refuse_such_a_question_in_the_engine_facade_with_a_clear_exception() {
    assertThatThrownBy(() -> s.engine.query("\u200b\u00a0", Principal.ANONYMOUS, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no letters");
    assertThatThrownBy(() -> s.engine.query("a\ud800", Principal.ANONYMOUS, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("surrogate");
    assertThat(QuestionText.problem("ERR_4517")).isNull();
    assertThat(QuestionText.problem("\uD83D\uDE00 年假")).isNull();
    assertThat(QuestionText.problem("\uD83D\uDE00")).isNotNull();
  }
}
