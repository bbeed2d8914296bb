package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.llm.MockOpenAiServer.completion;
import static org.openbook.llm.MockOpenAiServer.lastUserMessage;
import static org.openbook.llm.MockOpenAiServer.numberOf;
import static org.openbook.llm.MockOpenAiServer.searches;
import static org.openbook.llm.MockOpenAiServer.stream;
import static org.openbook.llm.MockOpenAiServer.streamFrom;
import static org.openbook.llm.MockOpenAiServer.toolResults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.KbDemoIndex;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.MockOpenAiServer;
import picocli.CommandLine;

/**
 * {@code openbook ask} end to end: the kb-demo index, a scripted OpenAI-compatible endpoint on
 * 127.0.0.1 configured through the config file, and the command's printed output.
 */
class AskCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CROSS_BORDER_REFUND = "跨境订单退款在验货通过后 7 个工作日内发起";
  private static final String KEY = "sk-test-secret";

  @TempDir Path tmp;
  private MockOpenAiServer server;

  private record Run(int exit, String out, String err) {}

  @BeforeEach
  void start() throws IOException {
    Assumptions.assumeTrue(System.getenv(LlmConfig.ENV_BASE_URL) == null,
        LlmConfig.ENV_BASE_URL + " is set; these tests configure the endpoint themselves");
    server = MockOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Path config(boolean withLlm, int timeoutSeconds) throws IOException {
    Path file = tmp.resolve(withLlm ? "llm.yaml" : "offline.yaml");
    Files.writeString(file, withLlm
        ? "llm:\n  baseUrl: " + server.baseUrl() + "\n  model: test-model\n  apiKey: " + KEY
            + "\n  timeoutSeconds: " + timeoutSeconds + "\n"
        : "gate: {}\n");
    return file;
  }

  private Run ask(Path config, String... args) throws IOException {
    List<String> all = new ArrayList<>(List.of("ask", "--index", KbDemoIndex.index().toString(),
        "--config", config.toString()));
    all.addAll(List.of(args));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("error: " + e.getMessage());
      return OpenBookCommand.EXIT_ERROR;
    });
    int exit = cl.execute(all.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  /** The number the prompt gave the cross-border refund passage. */
  private static int refundNumber(JsonNode request) {
    return numberOf(lastUserMessage(request), CROSS_BORDER_REFUND);
  }

  @Test
  void should_show_the_sources_then_stream_the_answer_and_report_answered() throws IOException {
    server.then(streamFrom(r -> CROSS_BORDER_REFUND + "[" + refundNumber(r) + "]。", 1 << 20));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？");

    int n = refundNumber(server.requests().get(0));
    String answer = CROSS_BORDER_REFUND + "[" + n + "]。";
    assertThat(run.exit()).isZero();
    assertThat(run.out()).startsWith("Sources:\n  [1] ")
        .contains("  [" + n + "] after-sales/售后政策.md")
        .contains("\n" + answer + "\n")
        .contains("[status: ANSWERED; generator: openai:test-model]")
        .doesNotContain("[warning");
    assertThat(run.out().indexOf("Sources:")).isLessThan(run.out().indexOf(answer));
    assertThat(run.out().indexOf(answer)).isLessThan(run.out().indexOf("[status:"));
    assertThat(server.requests().get(0).path("stream").asBoolean()).isTrue();
  }

  @Test
  void should_remove_and_report_an_out_of_range_citation_r21() throws IOException {
    server.then(streamFrom(r -> CROSS_BORDER_REFUND + "[" + refundNumber(r) + "][9]。", 1 << 20));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？", "-k", "5");

    int n = refundNumber(server.requests().get(0));
    assertThat(run.exit()).isZero();
    assertThat(run.out())
        .contains("[warning: citations to sources that were not given, removed: [9]]")
        .contains("Checked answer: " + CROSS_BORDER_REFUND + "[" + n + "]。");
  }

  @Test
  void should_report_the_out_of_range_citation_in_the_json_diagnostics_r21() throws IOException {
    server.then(streamFrom(r -> CROSS_BORDER_REFUND + "[" + refundNumber(r) + "][0][9]。", 1 << 20));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？", "--json");

    JsonNode json = JSON.readTree(run.out());
    int n = refundNumber(server.requests().get(0));
    assertThat(json.path("status").asText()).isEqualTo("ANSWERED");
    assertThat(json.path("answer").asText()).isEqualTo(CROSS_BORDER_REFUND + "[" + n + "]。");
    assertThat(json.path("citations")).hasSize(1);
    assertThat(json.path("citations").get(0).path("n").asInt()).isEqualTo(n);
    assertThat(json.path("citations").get(0).path("source").asText())
        .isEqualTo("after-sales/售后政策.md");
    assertThat(json.path("diagnostics").path("invalidCitations").toString()).isEqualTo("[0,9]");
    assertThat(json.path("diagnostics").path("rewrittenQuestion").asText()).isEmpty();
  }

  @Test
  void should_report_a_citation_whose_passage_has_another_number() throws IOException {
    // the passage says 7 working days; the model claims 3
    server.then(streamFrom(r -> "跨境订单退款在验货通过后 3 个工作日内发起[" + refundNumber(r) + "]。", 1 << 20));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？");

    int n = refundNumber(server.requests().get(0));
    assertThat(run.out()).contains("[status: ANSWERED; generator: openai:test-model]")
        .contains("[warning: citations not supported by their passage: [" + n + "]]");
  }

  @Test
  void should_detect_the_refusal_sentence_as_refused_by_model() throws IOException {
    server.then(stream("根据现有文档", "无法回答该问题。"));

    Run run = ask(config(true, 10), "跨境订单的退款到账后能开发票吗？");

    assertThat(run.exit()).isZero();
    assertThat(run.out()).contains("根据现有文档无法回答该问题。")
        .contains("[status: REFUSED_BY_MODEL; generator: openai:test-model]");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void should_print_a_stream_split_inside_multibyte_characters_exactly_r19() throws IOException {
    // 5-byte writes cut the 3-byte CJK characters and the 4-byte 𠮷 between writes
    server.then(streamFrom(r -> CROSS_BORDER_REFUND + "[" + refundNumber(r) + "]。𠮷", 5));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？");

    int n = refundNumber(server.requests().get(0));
    assertThat(run.out()).contains("\n" + CROSS_BORDER_REFUND + "[" + n + "]。𠮷\n")
        .doesNotContain("\uFFFD");
  }

  @Test
  void should_keep_a_surrogate_pair_split_across_stream_events_whole_r19() throws IOException {
    server.then(MockOpenAiServer.streamInPieces(
        MockOpenAiServer.sseRaw("根据现有文档无法回答该问题。\\ud842", "\\udfb7"), 1 << 20));

    Run run = ask(config(true, 10), "跨境订单的退款到账后能开发票吗？");

    assertThat(run.out()).contains("根据现有文档无法回答该问题。𠮷").doesNotContain("\uFFFD");
  }

  @Test
  void should_fail_as_truncated_with_the_partial_text_when_the_reply_is_cut_off()
      throws IOException {
    server.then(MockOpenAiServer.streamEndingWith("length", "跨境订单退款在验货", "通过后"));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？", "--json");

    assertThat(run.exit()).isEqualTo(OpenBookCommand.EXIT_FAILED);
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.path("status").asText()).isEqualTo("FAILED");
    assertThat(json.path("answer").asText()).isEmpty();
    assertThat(json.path("diagnostics").path("reason").asText()).isEqualTo("truncated");
    assertThat(json.path("diagnostics").path("partialText").asText())
        .isEqualTo("跨境订单退款在验货通过后");
  }

  @Test
  void should_answer_a_question_longer_than_the_embedding_model_reads() throws IOException {
    // 554 characters, over bge-small-zh's 512 tokens: the dense route embeds the bounded
    // form, BM25 reads it all, and the answer is the cross-border refund
    String question = "我上个月在澜岳商城买了一台空气净化器，".repeat(28)
        + "跨境订单的退款在验货通过后几个工作日内发起？";
    assertThat(question.length()).isGreaterThan(520);

    Run run = ask(config(false, 10), question, "--json");

    assertThat(run.exit()).as(run.err()).isNotEqualTo(OpenBookCommand.EXIT_FAILED);
    JsonNode json = JSON.readTree(run.out());
    assertThat(json.path("status").asText()).isIn("ANSWERED", "REFUSED_BY_MODEL",
        "REFUSED_NO_EVIDENCE");
    assertThat(json.path("sources").toString()).contains("after-sales/售后政策.md");
  }

  @Test
  void should_fail_with_a_clear_error_on_http_500() throws IOException {
    server.then(MockOpenAiServer.error(500, "upstream overloaded"));

    Run run = ask(config(true, 10), "跨境订单的退款在验货通过后几个工作日内发起？");

    assertThat(run.exit()).isEqualTo(OpenBookCommand.EXIT_FAILED);
    assertThat(run.out()).contains("[status: FAILED — openai:test-model failed: LLM endpoint "
        + server.baseUrl() + " failed: HTTP 500").doesNotContain(KEY);
  }

  @Test
  void should_fail_with_a_timeout_instead_of_hanging() throws IOException {
    server.then(server.hang());

    Run run = ask(config(true, 2), "跨境订单的退款在验货通过后几个工作日内发起？");

    assertThat(run.exit()).isEqualTo(OpenBookCommand.EXIT_FAILED);
    assertThat(run.out()).contains("[status: FAILED — openai:test-model failed: LLM endpoint "
        + server.baseUrl()).contains("timeout");
  }

  @Test
  void should_retrieve_the_cross_border_refund_for_a_follow_up_without_an_llm() throws IOException {
    Path offline = config(false, 10);
    JsonNode alone = JSON.readTree(ask(offline, "那退款多久发起？", "--json").out());

    JsonNode first = JSON.readTree(ask(offline, "跨境订单的质量问题退货要在签收后几天内申请？",
        "--json", "--conversation", "offline-1").out());
    JsonNode second = JSON.readTree(ask(offline, "那退款多久发起？",
        "--json", "--conversation", "offline-1").out());

    // asked alone, the follow-up finds the general refund rule first
    assertThat(alone.path("sources").get(0).path("text").asText()).doesNotContain(CROSS_BORDER_REFUND);
    assertThat(first.path("diagnostics").path("rewrittenQuestion").asText()).isEmpty();
    assertThat(second.path("question").asText()).isEqualTo("那退款多久发起？");
    assertThat(second.path("diagnostics").path("rewrittenQuestion").asText())
        .isEqualTo("跨境订单 质量问题退货 签收后 申请 那退款多久发起？");
    assertThat(second.path("sources").get(0).path("source").asText())
        .isEqualTo("after-sales/售后政策.md");
    assertThat(second.path("sources").get(0).path("text").asText()).contains(CROSS_BORDER_REFUND);
    assertThat(KbDemoIndex.index().resolve("conversations/offline-1.json")).exists();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void should_let_the_llm_rewrite_a_follow_up_before_retrieval() throws IOException {
    server.then(
        stream("跨境商品出现质量问题的，需在签收之日起 10 天内申请退换[1]。"),
        completion("跨境订单的退款在验货通过后多久发起？", 100),
        streamFrom(r -> CROSS_BORDER_REFUND + "[" + refundNumber(r) + "]。", 1 << 20));
    Path llm = config(true, 10);

    ask(llm, "跨境订单的质量问题退货要在签收后几天内申请？", "--conversation", "llm-1");
    Run second = ask(llm, "那退款多久发起？", "--conversation", "llm-1");

    JsonNode rewrite = server.requests().get(1);
    assertThat(rewrite.path("stream").asBoolean(false)).isFalse();
    assertThat(lastUserMessage(rewrite)).isEqualTo("对话历史：\n问：跨境订单的质量问题退货要在签收后几天内申请？\n"
        + "答：跨境商品出现质量问题的，需在签收之日起 10 天内申请退换[1]。\n\n追问：那退款多久发起？");
    assertThat(lastUserMessage(server.requests().get(2))).endsWith("问题：跨境订单的退款在验货通过后多久发起？");
    assertThat(second.out()).contains("[follow-up rewritten as: 跨境订单的退款在验货通过后多久发起？]")
        .contains("[status: ANSWERED; generator: openai:test-model]")
        .doesNotContain("[warning");
  }

  private void scriptTwoSearches() {
    server.then(
        searches(500, "无理由退货 申请期限"),
        searches(500, "质量问题 换货 申请期限"),
        MockOpenAiServer.completionFrom(r -> {
          String seen = String.join("\n\n", toolResults(r));
          return "自签收之日起 7 天内可申请无理由退货[" + numberOf(seen, "可申请无理由退货")
              + "]；质量问题自签收之日起 15 天内可申请换货[" + numberOf(seen, "可申请换货") + "]。";
        }));
  }

  @Test
  void should_answer_with_the_agent_and_print_its_searches() throws IOException {
    scriptTwoSearches();
    Run text = ask(config(true, 10), "退货和换货分别要在签收后多少天内申请？", "--agent");

    assertThat(text.exit()).isZero();
    assertThat(text.out()).startsWith("Sources:\n  [1] ")
        .contains("[agent searches: 1) \"无理由退货 申请期限\" → [1]")
        .contains("; 2) \"质量问题 换货 申请期限\" → [")
        .contains("[status: ANSWERED; generator: agent:openai:test-model]")
        .doesNotContain("[warning");

    scriptTwoSearches();
    Run run = ask(config(true, 10), "退货和换货分别要在签收后多少天内申请？", "--agent", "--json");

    JsonNode json = JSON.readTree(run.out());
    assertThat(json.path("status").asText()).isEqualTo("ANSWERED");
    assertThat(json.path("citations")).hasSize(2);
    JsonNode trace = json.path("diagnostics").path("agentTrace");
    assertThat(trace).hasSize(2);
    assertThat(trace.get(0).path("query").asText()).isEqualTo("无理由退货 申请期限");
    assertThat(trace.get(1).path("query").asText()).isEqualTo("质量问题 换货 申请期限");
    assertThat(trace.get(0).path("chunkIds")).isNotEmpty();
    assertThat(json.path("diagnostics").path("generator").asText())
        .isEqualTo("agent:openai:test-model");
  }

  @Test
  void should_refuse_agent_mode_without_an_llm_endpoint() throws IOException {
    Run run = ask(config(false, 10), "退货要在几天内申请？", "--agent");

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.err()).contains("--agent needs an LLM endpoint: set OPENBOOK_LLM_BASE_URL and "
        + "OPENBOOK_LLM_MODEL (or llm.baseUrl and llm.model in the config)");
  }
}
