package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.openbook.llm.MockOpenAiServer.completion;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.GenerationException;
import org.openbook.conversation.Turn;

class LlmQuestionRewriterTest {

  private static final List<Turn> HISTORY = List.of(
      new Turn("跨境订单的质量问题退货要在签收后几天内申请？", null, "需在签收之日起 10 天内申请退换[1]。",
          List.of("after-sales/售后政策.md#5"), AnswerStatus.ANSWERED));

  private MockOpenAiServer server;

  @BeforeEach
  void start() throws IOException {
    server = MockOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void should_send_the_history_and_return_the_first_line_without_quotes() throws Exception {
    server.then(completion("“跨境订单的退款在验货通过后多久发起？”\n（补全了跨境订单）", 80));

    String rewritten = new LlmQuestionRewriter(server.config(5)).rewrite("那退款多久发起？", HISTORY);

    assertThat(rewritten).isEqualTo("跨境订单的退款在验货通过后多久发起？");
    var request = server.requests().get(0);
    assertThat(request.path("messages").get(0).path("content").asText())
        .isEqualTo(LlmQuestionRewriter.SYSTEM_ZH);
    assertThat(MockOpenAiServer.lastUserMessage(request)).isEqualTo(
        "对话历史：\n问：跨境订单的质量问题退货要在签收后几天内申请？\n答：需在签收之日起 10 天内申请退换[1]。\n\n"
            + "追问：那退款多久发起？");
    assertThat(request.path("temperature").asDouble()).isEqualTo(0.0);
  }

  @Test
  void should_fail_on_an_empty_rewrite() {
    server.then(completion("  \n ", 10));

    assertThatThrownBy(() -> new LlmQuestionRewriter(server.config(5)).rewrite("那退款呢？", HISTORY))
        .isInstanceOf(GenerationException.class)
        .hasMessage("LLM endpoint " + server.baseUrl()
            + " returned an empty rewrite of the follow-up question");
  }

  @Test
  void should_fail_with_the_endpoint_and_status_on_http_errors() {
    server.then(MockOpenAiServer.error(503, "busy"));

    assertThatThrownBy(() -> new LlmQuestionRewriter(server.config(5)).rewrite("那退款呢？", HISTORY))
        .isInstanceOf(GenerationException.class)
        .hasMessageStartingWith("LLM endpoint " + server.baseUrl() + " failed: HTTP 503")
        .hasMessageNotContaining("sk-test-secret");
  }
}
