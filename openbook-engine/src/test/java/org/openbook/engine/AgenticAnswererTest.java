package org.openbook.engine;

import org.openbook.llm.AgentAnswer;
import org.openbook.llm.AgentStep;
import org.openbook.llm.AgenticAnswerer;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.MockOpenAiServer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.llm.MockOpenAiServer.completion;
import static org.openbook.llm.MockOpenAiServer.completionFrom;
import static org.openbook.llm.MockOpenAiServer.numberOf;
import static org.openbook.llm.MockOpenAiServer.searches;
import static org.openbook.llm.MockOpenAiServer.toolResults;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openbook.answer.AnswerService;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Citation;
import org.openbook.answer.RefusalPolicy;
import org.openbook.answer.Source;
import org.openbook.engine.OpenBook;
import org.openbook.engine.KbDemoIndex;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retrieval;
import org.openbook.retrieve.Retriever;

/** The agentic loop against a scripted OpenAI-compatible server and the kb-demo index. */
class AgenticAnswererTest {

  private static final String REFUSAL_ZH = RefusalPolicy.DEFAULT.chinese();
  private static final Principal VISITOR = new Principal("visitor", Set.of());
  private static OpenBook kbDemo;

  private MockOpenAiServer server;

  @BeforeEach
  void start() throws IOException {
    server = MockOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @AfterAll
  static void closeIndex() throws IOException {
    if (kbDemo != null) {
      kbDemo.close();
    }
  }

  private static synchronized OpenBook kbDemo() throws IOException {
    if (kbDemo == null) {
      kbDemo = OpenBook.forSearch(KbDemoIndex.index(), OpenBookConfig.defaults());
    }
    return kbDemo;
  }

  private AgenticAnswerer agent(Retriever retriever, double gate, AgenticAnswerer.Budget budget) {
    return new AgenticAnswerer(server.config(5), retriever, gate, RefusalPolicy.DEFAULT, budget);
  }

  /** Records what the listener receives. */
  private static final class Recorder implements AnswerService.Listener {
    final List<List<Source>> sources = new ArrayList<>();
    final StringBuilder text = new StringBuilder();

    @Override
    public void onSources(List<Source> s) {
      sources.add(s);
    }

    @Override
    public void onText(String t) {
      text.append(t);
    }
  }

  /** A retriever that returns the same retrieval for every query and records the queries. */
  private static final class FixedRetriever implements Retriever {
    final Retrieval retrieval;
    final List<Query> queries = new ArrayList<>();

    FixedRetriever(Retrieval retrieval) {
      this.retrieval = retrieval;
    }

    @Override
    public Retrieval retrieve(Query query) {
      queries.add(query);
      return retrieval;
    }
  }

  private static Hit hit(String id, String source, String text, double cosine) {
    return new Hit(new Chunk(id, source, 0, text, text, List.of(), 0, 0, text.length(),
        Map.of("source", source, "dept", "public")), 1, cosine, 1, 1.0, 0.03, Double.NaN);
  }

  @Test
  void should_search_twice_and_cite_both_the_return_and_the_exchange_passage() throws IOException {
    server.then(
        searches(800, "无理由退货 申请期限"),
        searches(1600, "换货 申请期限"),
        completionFrom(request -> {
          String seen = String.join("\n\n", toolResults(request));
          int returns = numberOf(seen, "可申请无理由退货");
          int exchanges = numberOf(seen, "可申请换货");
          return "自签收之日起 7 天内可申请无理由退货[" + returns + "]；质量问题自签收之日起 15 天内可申请换货["
              + exchanges + "]。";
        }));
    Recorder listener = new Recorder();

    AgentAnswer result = agent(kbDemo().retriever(), kbDemo().gateThreshold(),
        AgenticAnswerer.Budget.DEFAULT)
        .ask(Query.of("退货和换货分别要在签收后多少天内申请？", VISITOR, 5), listener);

    var answer = result.answer();
    assertThat(answer.status()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(result.trace()).extracting(AgentStep::query)
        .containsExactly("无理由退货 申请期限", "换货 申请期限");
    assertThat(answer.citations()).hasSize(2).allMatch(Citation::supported)
        .allMatch(c -> c.source().equals("after-sales/售后政策.md"));
    Source returns = answer.sources().get(answer.citations().get(0).n() - 1);
    Source exchanges = answer.sources().get(answer.citations().get(1).n() - 1);
    assertThat(returns.text()).contains("自签收之日起 7 天内").contains("可申请无理由退货");
    assertThat(exchanges.text()).contains("自签收之日起 15 天内").contains("可申请换货");
    assertThat(answer.diagnostics().invalidCitations()).isEmpty();
    assertThat(answer.diagnostics().unsupportedCitations()).isEmpty();
    // sources = every passage seen, numbered 1..n globally, one per chunk id
    assertThat(answer.sources()).extracting(Source::n)
        .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(
            1, answer.sources().size()).boxed().toList());
    assertThat(answer.sources()).extracting(Source::chunkId).doesNotHaveDuplicates();
    assertThat(result.trace().stream().flatMap(s -> s.chunkIds().stream()).distinct())
        .containsExactlyInAnyOrderElementsOf(
            answer.sources().stream().map(Source::chunkId).toList());
    assertThat(listener.sources).containsExactly(answer.sources());
    assertThat(listener.text.toString()).isEqualTo(answer.text());
    assertThat(answer.diagnostics().generator()).isEqualTo("agent:openai:test-model");

    List<JsonNode> requests = server.requests();
    assertThat(requests).hasSize(3);
    JsonNode tool = requests.get(0).path("tools").get(0);
    assertThat(tool.path("type").asText()).isEqualTo("function");
    assertThat(tool.path("function").path("name").asText()).isEqualTo("search_knowledge_base");
    assertThat(tool.path("function").path("parameters").path("properties").path("query")
        .path("type").asText()).isEqualTo("string");
    assertThat(tool.path("function").path("parameters").path("required").toString())
        .isEqualTo("[\"query\"]");
    assertThat(toolResults(requests.get(2))).hasSize(2);
  }

  @Test
  void should_search_only_what_the_callers_principal_may_read() throws IOException {
    server.then(searches(500, "年度奖金 发放时间 发放月份"), completion(REFUSAL_ZH, 500));

    AgentAnswer visitor = agent(kbDemo().retriever(), kbDemo().gateThreshold(),
        AgenticAnswerer.Budget.DEFAULT)
        .ask(Query.of("2024 年度奖金什么时候发放？", VISITOR, 5), new Recorder());

    assertThat(visitor.answer().status()).isEqualTo(AnswerStatus.REFUSED_BY_MODEL);
    assertThat(visitor.trace()).hasSize(1);
    assertThat(visitor.trace().get(0).chunkIds()).noneMatch(id -> id.startsWith("finance/"));
    assertThat(String.join("", toolResults(server.requests().get(1)))).doesNotContain("2025-03-15");

    server.then(searches(500, "年度奖金 发放时间 发放月份"), completion(REFUSAL_ZH, 500));
    AgentAnswer finance = agent(kbDemo().retriever(), kbDemo().gateThreshold(),
        AgenticAnswerer.Budget.DEFAULT)
        .ask(Query.of("2024 年度奖金什么时候发放？", new Principal("finance", Set.of("finance")), 5),
            new Recorder());

    assertThat(finance.trace().get(0).chunkIds()).anyMatch(id -> id.startsWith("finance/"));
  }

  @Test
  void should_stop_at_the_search_budget_when_the_tool_never_helps() {
    FixedRetriever nothing = new FixedRetriever(Retrieval.empty());
    server.then(searches(200, "食堂 菜单")); // the model asks the same thing forever
    Recorder listener = new Recorder();
    long start = System.nanoTime();

    AgentAnswer result = agent(nothing, 0.5, new AgenticAnswerer.Budget(4, 20_000))
        .ask(Query.of("公司食堂几点开饭？", VISITOR, 5), listener);

    assertThat(result.answer().status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(result.answer().text()).isEqualTo(REFUSAL_ZH);
    assertThat(result.answer().diagnostics().reason()).isEqualTo(
        "agent stopped: search budget of 4 searches spent without finding a passage");
    assertThat(result.trace()).hasSize(4).allMatch(s -> s.note().equals("no hits"));
    assertThat(server.requests()).hasSize(5); // 4 searches, then the 5th request is refused
    assertThat(nothing.queries).hasSize(4).allMatch(q -> q.principal().equals(VISITOR));
    assertThat(listener.text.toString()).isEqualTo(REFUSAL_ZH);
    assertThat((System.nanoTime() - start) / 1e9).isLessThan(10.0); // no hang, no sleeps
  }

  @Test
  void should_stop_at_the_token_budget_and_fail_when_evidence_was_found_but_never_used() {
    FixedRetriever one = new FixedRetriever(new Retrieval(
        List.of(hit("a.md#0", "a.md", "年假需提前三天申请。", 0.9)), 0.9, 1, 1));
    server.then(searches(15_000, "年假"));

    AgentAnswer result = agent(one, 0.5, new AgenticAnswerer.Budget(4, 20_000))
        .ask(Query.of("年假怎么申请？", VISITOR, 5), new Recorder());

    assertThat(result.answer().status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(result.answer().diagnostics().reason()).isEqualTo(
        "agent stopped: token budget of 20000 spent (30000 used) before the model answered");
    assertThat(result.trace()).hasSize(1);
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void should_give_a_passage_seen_twice_its_first_number_and_drop_out_of_range_citations() {
    FixedRetriever one = new FixedRetriever(new Retrieval(List.of(
        hit("a.md#0", "a.md", "年假需提前三天申请。", 0.9),
        hit("b.md#0", "b.md", "未休年假可顺延至次年三月。", 0.8)), 0.9, 2, 2));
    server.then(searches(100, "年假 申请", "年假 顺延"),
        completion("年假需提前三天申请[1]，可顺延至次年三月[2][7]。", 100));

    AgentAnswer result = agent(one, 0.5, AgenticAnswerer.Budget.DEFAULT)
        .ask(Query.of("年假怎么申请，能顺延吗？", VISITOR, 5), new Recorder());

    assertThat(result.trace()).extracting(AgentStep::numbers)
        .containsExactly(List.of(1, 2), List.of(1, 2));
    assertThat(result.answer().sources()).extracting(Source::chunkId)
        .containsExactly("a.md#0", "b.md#0");
    assertThat(result.answer().text()).isEqualTo("年假需提前三天申请[1]，可顺延至次年三月[2]。");
    assertThat(result.answer().diagnostics().invalidCitations()).containsExactly(7);
    assertThat(server.requests().get(1).path("messages").toString())
        .contains("[1] (a.md)\\n年假需提前三天申请。");
  }

  @Test
  void should_discard_an_answer_written_without_any_passage() {
    server.then(completion("公司食堂 11:30 开饭[1]。", 100));

    AgentAnswer result = agent(new FixedRetriever(Retrieval.empty()), 0.5,
        AgenticAnswerer.Budget.DEFAULT).ask(Query.of("公司食堂几点开饭？", VISITOR, 5), new Recorder());

    assertThat(result.answer().status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    assertThat(result.answer().text()).isEqualTo(REFUSAL_ZH);
    assertThat(result.answer().diagnostics().reason()).isEqualTo(
        "the model answered without any passage from the knowledge base; answer discarded");
  }

  @Test
  void should_tell_the_model_when_its_tool_arguments_are_unusable() {
    server.then(MockOpenAiServer.toolCall(AgenticAnswerer.TOOL_NAME, "{\"q\": 1}"),
        completion(REFUSAL_ZH, 100));

    AgentAnswer result = agent(new FixedRetriever(Retrieval.empty()), 0.5,
        AgenticAnswerer.Budget.DEFAULT).ask(Query.of("年假怎么申请？", VISITOR, 5), new Recorder());

    assertThat(result.trace()).singleElement()
        .satisfies(s -> assertThat(s.note()).isEqualTo("invalid arguments"));
    assertThat(toolResults(server.requests().get(1)))
        .containsExactly("error: arguments must be {\"query\": \"<non-empty text>\"}");
    assertThat(result.answer().status()).isEqualTo(AnswerStatus.REFUSED_BY_MODEL);
  }

  @Test
  void should_fail_clearly_on_an_http_error() {
    server.then(MockOpenAiServer.error(500, "upstream overloaded"));

    AgentAnswer result = agent(new FixedRetriever(Retrieval.empty()), 0.5,
        AgenticAnswerer.Budget.DEFAULT).ask(Query.of("年假怎么申请？", VISITOR, 5), new Recorder());

    assertThat(result.answer().status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(result.answer().diagnostics().reason())
        .startsWith("LLM endpoint " + server.baseUrl() + " failed: HTTP 500")
        .doesNotContain("sk-test-secret");
    assertThat(server.requests()).hasSize(1); // no retries
  }

  @Test
  void should_time_out_instead_of_hanging() {
    server.then(server.hang());
    long start = System.nanoTime();

    AgentAnswer result = new AgenticAnswerer(server.config(2), new FixedRetriever(Retrieval.empty()),
        0.5, RefusalPolicy.DEFAULT, AgenticAnswerer.Budget.DEFAULT)
        .ask(Query.of("年假怎么申请？", VISITOR, 5), new Recorder());

    assertThat(result.answer().status()).isEqualTo(AnswerStatus.FAILED);
    assertThat(result.answer().diagnostics().reason())
        .startsWith("LLM endpoint " + server.baseUrl() + " failed")
        .containsIgnoringCase("timeout");
    assertThat((System.nanoTime() - start) / 1e9).isBetween(1.5, 6.0);
  }
}
