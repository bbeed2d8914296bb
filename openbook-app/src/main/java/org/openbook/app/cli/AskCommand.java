package org.openbook.app.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.RefusalPolicy;
import org.openbook.answer.Source;
import org.openbook.engine.OpenBook;
import org.openbook.app.JsonOutput;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.conversation.ConversationService;
import org.openbook.conversation.JsonFileConversationStore;
import org.openbook.conversation.KeyTermCarryOver;
import org.openbook.conversation.QuestionRewriter;
import org.openbook.llm.AgentAnswer;
import org.openbook.llm.AgentStep;
import org.openbook.llm.AgenticAnswerer;
import org.openbook.llm.LlmConfig;
import org.openbook.llm.LlmQuestionRewriter;
import org.openbook.retrieve.Query;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code openbook ask "<question>" --index PATH}: retrieve once, gate, answer with citations.
 * The numbered sources are printed first; they are exactly the list the generator sees.
 * {@code --conversation ID} makes the question a turn of a stored conversation (follow-ups are
 * rewritten before retrieval); {@code --agent} lets the LLM search the index itself.
 */
@Command(name = "ask", mixinStandardHelpOptions = true,
    description = "Answer a question from the index with numbered citations, or refuse.")
public final class AskCommand implements Callable<Integer> {

  /** Folder under the index holding one JSON file per conversation. */
  public static final String CONVERSATIONS_FOLDER = "conversations";

  @Parameters(index = "0", paramLabel = "QUESTION") String question;
  @Mixin CommonOptions common;
  @Mixin RetrievalOptions retrieval;
  @Spec CommandSpec spec;

  @Option(names = "--conversation", paramLabel = "ID",
      description = "Continue (or start) conversation ID, kept in <index>/conversations/ID.json;"
          + " a follow-up is rewritten into a standalone question before retrieval (by the LLM"
          + " when configured, else by carrying over the previous question's key terms).")
  String conversation;

  @Option(names = "--agent",
      description = "Let the LLM search the index itself (up to 4 searches, as your principal)"
          + " before answering; needs an LLM endpoint.")
  boolean agent;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    OpenBookConfig config = common.loadConfig();
    try (OpenBook engine = OpenBook.forSearch(common.index, config)) {
      Query query = engine.query(question, config.principal(retrieval.principal), retrieval.topK);
      Optional<LlmConfig> llm = engine.llm();
      AtomicReference<List<AgentStep>> trace = new AtomicReference<>();
      ConversationService.Asker asker;
      if (agent) {
        LlmConfig endpoint = llm.orElseThrow(() -> new ParameterException(spec.commandLine(),
            "--agent needs an LLM endpoint: set " + LlmConfig.ENV_BASE_URL + " and "
                + LlmConfig.ENV_MODEL + " (or llm.baseUrl and llm.model in the config)"));
        AgenticAnswerer answerer = new AgenticAnswerer(endpoint, engine.retriever(),
            engine.gateThreshold(), RefusalPolicy.DEFAULT, AgenticAnswerer.Budget.DEFAULT);
        asker = (q, listener) -> {
          AgentAnswer result = answerer.ask(q, listener);
          trace.set(result.trace());
          return result.answer();
        };
      } else {
        asker = engine.answerService(engine.defaultGenerator())::ask;
      }
      AnswerService.Listener listener =
          common.json ? new AnswerService.Listener() { } : new SourcesThenText(out);
      Answer answer;
      if (conversation != null) {
        QuestionRewriter rewriter = llm.<QuestionRewriter>map(LlmQuestionRewriter::new)
            .orElseGet(KeyTermCarryOver::new);
        ConversationService conversations = new ConversationService(asker, rewriter,
            new JsonFileConversationStore(common.index.resolve(CONVERSATIONS_FOLDER)));
        answer = conversations.ask(conversation, query, listener);
      } else {
        answer = asker.ask(query, listener);
      }
      if (common.json) {
        out.println(trace.get() == null
            ? JsonOutput.ask(query, answer) : JsonOutput.ask(query, answer, trace.get()));
      } else {
        printTail(out, answer, trace.get());
      }
      return answer.status() == AnswerStatus.FAILED ? OpenBookCommand.EXIT_FAILED : 0;
    }
  }

  private static void printTail(PrintWriter out, Answer a, List<AgentStep> trace) {
    if (!a.diagnostics().rewrittenQuestion().isEmpty()) {
      out.println();
      out.println("[follow-up rewritten as: " + a.diagnostics().rewrittenQuestion() + "]");
    }
    if (a.status() != AnswerStatus.FAILED && trace == null
        && !a.diagnostics().reason().isEmpty()) { // e.g. the LLM rewrite failed, carry-over used
      out.println();
      out.println("[note: " + a.diagnostics().reason() + "]");
    }
    if (trace != null) {
      out.println();
      out.println("[agent searches: " + (trace.isEmpty() ? "none" : trace.stream()
          .map(AskCommand::describe).collect(Collectors.joining("; "))) + "]");
    }
    switch (a.status()) {
      case REFUSED_NO_EVIDENCE -> {
        out.println();
        if (trace != null) { // the agent refused: it says why
          out.println("[status: " + a.status() + " — " + a.diagnostics().reason() + "]");
          break;
        }
        out.printf("[status: %s — best cosine %s below threshold %s; generator not called]%n",
            a.status(), Display.score(a.diagnostics().bestDenseScore()),
            Display.score(a.diagnostics().threshold()));
      }
      case FAILED -> out.println("[status: FAILED — " + a.diagnostics().reason() + "]");
      default -> {
        out.println();
        out.println("[status: " + a.status() + "; generator: " + a.diagnostics().generator() + "]");
        if (!a.diagnostics().invalidCitations().isEmpty()) {
          out.println("[warning: citations to sources that were not given, removed: "
              + a.diagnostics().invalidCitations() + "]");
          out.println("Checked answer: " + a.text());
        }
        if (!a.diagnostics().unsupportedCitations().isEmpty()) {
          out.println("[warning: citations not supported by their passage: "
              + a.diagnostics().unsupportedCitations() + "]");
        }
        if (!a.diagnostics().uncitedSentences().isEmpty()) {
          out.println("[warning: " + a.diagnostics().uncitedSentences().size()
              + " sentence(s) without citation]");
        }
      }
    }
    out.flush();
  }

  /** {@code 1) "query" → [1][2]} or {@code 2) "query" → nothing (below gate)}. */
  private static String describe(AgentStep s) {
    String found = s.numbers().isEmpty() ? "nothing (" + s.note() + ")"
        : s.numbers().stream().map(n -> "[" + n + "]").collect(Collectors.joining());
    return s.step() + ") \"" + s.query() + "\" → " + found;
  }

  /**
   * Prints the numbered sources once, before the first piece of answer text, then streams the
   * text. Sources are printed from the answer service's callback so the list shown is the one
   * the generator received.
   */
  private static final class SourcesThenText implements AnswerService.Listener {
    private final PrintWriter out;

    SourcesThenText(PrintWriter out) {
      this.out = out;
    }

    @Override
    public void onSources(java.util.List<Source> sources) {
      if (sources.isEmpty()) {
        return;
      }
      out.println("Sources:");
      for (Source s : sources) {
        out.printf("  [%d] %s%n      %s%n", s.n(), s.location(), Display.snippet(s.text(), 120));
      }
      out.println();
      out.flush();
    }

    @Override
    public void onText(String text) {
      out.print(text);
      out.flush();
    }
  }
}
