package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openbook.answer.GenerationException;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.RefusalPolicy;
import org.openbook.answer.Source;
import org.openbook.answer.TruncatedReplyException;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;

/** Runs the generator against a scripted OpenAI-compatible server on 127.0.0.1. */
class OpenAiGeneratorTest {

  private static final String KEY = "sk-test-secret";
  private static final List<Source> SOURCES = List.of(Source.of(1, new Hit(
      new Chunk("it/cert.md#0", "it/cert.md", 0, "证书已过期时请联系管理员。", "证书已过期时请联系管理员。",
          List.of(), 0, 0, 13, Map.of("source", "it/cert.md")), 1, 0.9, 1, 3.0, 0.03, Double.NaN)));

  private MockOpenAiServer server;

  @BeforeEach
  void startServer() throws IOException {
    server = MockOpenAiServer.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private String baseUrl() {
    return server.baseUrl();
  }

  private OpenAiGenerator generator(int timeoutSeconds) {
    return new OpenAiGenerator(new LlmConfig(baseUrl(), KEY, "test-model", timeoutSeconds),
        new PromptBuilder(RefusalPolicy.DEFAULT));
  }

  @Test
  void should_reassemble_a_cited_answer_whose_utf8_bytes_are_split_across_writes_r19() throws Exception {
    String expected = "证书已过期，请联系管理员[1]。𠮷";
    // 7-byte writes cut most 3-byte CJK characters and the 4-byte 𠮷 in the middle
    server.then(MockOpenAiServer.streamInPieces(
        MockOpenAiServer.sse("证书已过", "期，请联系管理员[", "1]。", "𠮷"), 7));
    List<String> streamed = new ArrayList<>();

    String text = generator(10).generate("证书过期怎么办", SOURCES, streamed::add);

    assertThat(text).isEqualTo(expected).doesNotContain("\uFFFD");
    assertThat(String.join("", streamed)).isEqualTo(expected);
    assertThat(streamed).hasSizeGreaterThan(1)
        .allSatisfy(p -> assertThat(SurrogateSafeBufferTest.isWellFormed(p)).isTrue());
    assertThat(server.lastAuthorization()).isEqualTo("Bearer " + KEY);
    JsonNode request = server.requests().get(0);
    assertThat(request.path("model").asText()).isEqualTo("test-model");
    assertThat(request.path("temperature").asDouble()).isEqualTo(0.0);
    assertThat(request.path("stream").asBoolean()).isTrue();
    assertThat(request.path("messages").get(0).path("role").asText()).isEqualTo("system");
    assertThat(request.path("messages").get(0).path("content").asText())
        .contains("根据现有文档无法回答该问题。");
    assertThat(request.path("messages").get(1).path("content").asText())
        .isEqualTo("资料：\n\n[1] (it/cert.md)\n证书已过期时请联系管理员。\n\n问题：证书过期怎么办");
  }

  @Test
  void should_not_emit_a_lone_high_surrogate_when_a_token_ends_inside_a_pair_r19() throws Exception {
    // feed 3: the JSON escapes put the high and low surrogate of 𠮷 into two different events
    server.then(MockOpenAiServer.streamInPieces(
        MockOpenAiServer.sseRaw("请联系管理员[1]。\\ud842", "\\udfb7"), 1024));
    List<String> streamed = new ArrayList<>();

    String text = generator(10).generate("证书过期怎么办", SOURCES, streamed::add);

    assertThat(text).isEqualTo("请联系管理员[1]。𠮷");
    assertThat(streamed).containsExactly("请联系管理员[1]。", "𠮷");
  }

  @Test
  void should_return_the_refusal_sentence_as_streamed() throws Exception {
    server.then(MockOpenAiServer.stream("根据现有文档", "无法回答该问题。"));

    String text = generator(10).generate("公司有几个食堂", SOURCES, s -> {});

    assertThat(text).isEqualTo("根据现有文档无法回答该问题。");
    assertThat(RefusalPolicy.DEFAULT.isRefusal(text)).isTrue();
  }

  @Test
  void should_fail_with_the_status_and_base_url_but_not_the_key_on_http_500() {
    server.then(MockOpenAiServer.error(500, "upstream overloaded"));

    assertThatThrownBy(() -> generator(10).generate("证书过期怎么办", SOURCES, s -> {}))
        .isInstanceOf(GenerationException.class)
        .hasMessageContaining(baseUrl())
        .hasMessageContaining("HTTP 500")
        .hasMessageNotContaining(KEY);
  }

  @Test
  void should_time_out_when_the_server_never_answers() {
    server.then(server.hang());

    assertThatThrownBy(() -> generator(2).generate("证书过期怎么办", SOURCES, s -> {}))
        .isInstanceOf(GenerationException.class)
        .hasMessageContaining(baseUrl())
        .hasMessageContaining("timeout")
        .hasMessageNotContaining(KEY);
  }

  @Test
  void should_fail_when_nothing_listens_on_the_port() throws Exception {
    int port = java.net.URI.create(server.baseUrl()).getPort();
    server.close();
    OpenAiGenerator g = new OpenAiGenerator(
        new LlmConfig("http://127.0.0.1:" + port + "/v1", KEY, "test-model", 2),
        new PromptBuilder(RefusalPolicy.DEFAULT));

    assertThatThrownBy(() -> g.generate("证书过期怎么办", SOURCES, s -> {}))
        .isInstanceOf(GenerationException.class)
        .hasMessageContaining("http://127.0.0.1:" + port + "/v1")
        .hasMessageNotContaining(KEY);
  }

  @Test
  void should_name_the_model_in_its_id() {
    assertThat(generator(2).id()).isEqualTo("openai:test-model");
  }

  @Test
  void should_report_a_reply_cut_off_by_the_length_limit_as_truncated_with_the_partial_text()
      throws Exception {
    server.then(MockOpenAiServer.streamEndingWith("length", "证书已过期，", "请联系"));
    List<String> streamed = new ArrayList<>();

    assertThatThrownBy(() -> generator(10).generate("证书过期怎么办", SOURCES, streamed::add))
        .isInstanceOfSatisfying(TruncatedReplyException.class, e -> {
          assertThat(e.partialText()).isEqualTo("证书已过期，请联系");
          assertThat(e.finishReason()).isEqualTo("length");
          assertThat(e.getMessage()).contains("finish_reason: length");
        });
    assertThat(String.join("", streamed)).isEqualTo("证书已过期，请联系");
  }

  @Test
  void should_report_a_stream_that_ends_without_a_finish_reason_as_truncated() throws Exception {
    server.then(MockOpenAiServer.streamEndingWith(null, "The certificate has"));

    assertThatThrownBy(() -> generator(10).generate("What if the certificate expired?", SOURCES,
        s -> {}))
        .isInstanceOfSatisfying(TruncatedReplyException.class, e -> {
          assertThat(e.partialText()).isEqualTo("The certificate has");
          assertThat(e.finishReason()).isEmpty();
        });
  }

  @Test
  void should_accept_a_reply_that_ends_with_stop() throws Exception {
    server.then(MockOpenAiServer.streamEndingWith("stop", "请联系管理员[1]。"));

    assertThat(generator(10).generate("证书过期怎么办", SOURCES, s -> {}))
        .isEqualTo("请联系管理员[1]。");
  }
}
