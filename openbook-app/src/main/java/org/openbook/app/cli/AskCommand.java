package org.openbook.app.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.openbook.answer.AgentStep;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.answer.Source;
import org.openbook.app.JsonOutput;
import org.openbook.engine.OpenBook;
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
    try (OpenBook engine = common.open(OpenBook.Mode.READ)) {
      Query query = engine.query(question, engine.principal(retrieval.principal),
          retrieval.topK);
      Answerer asker;
      if (agent) {
        try {
          asker = engine.agent();
        } catch (IllegalStateException e) {
          throw new ParameterException(spec.commandLine(),
              e.getMessage().replaceFirst("^the agent", "--agent"));
        }
      } else {
        asker = engine.answerer();
      }
      Answerer.Listener listener =
          common.json ? new Answerer.Listener() { } : new SourcesThenText(out);
      Answer answer;
      if (conversation != null) {
        answer = engine.conversations(asker).ask(conversation, query, listener);
      } else {
        answer = asker.ask(query, listener);
      }
      if (common.json) {
        out.println(JsonOutput.ask(query, answer));
      } else {
        printTail(out, answer, agent ? answer.diagnostics().agentTrace() : null);
      }
      return answer.status() == AnswerStatus.FAILED ? OpenBookCommand.EXIT_FAILED : 0;
    }
  }

  private static void printTail(PrintWriter out, Answer a, List<AgentStep> trace) {
    if (a.diagnostics().partialResults()) {
      out.println();
      out.println("[warning: partial results: Solr shard(s) " + a.diagnostics().missingShards()
          + " did not answer; passages stored there could not be found]");
    }
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
  private static final class SourcesThenText implements Answerer.Listener {
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
