package org.openbook.app.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Source;
import org.openbook.app.Engine;
import org.openbook.app.JsonOutput;
import org.openbook.app.config.OpenBookConfig;
import org.openbook.retrieve.Query;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code openbook ask "<question>" --index PATH}: retrieve once, gate, answer with citations.
 * The numbered sources are printed first; they are exactly the list the generator sees.
 */
@Command(name = "ask", mixinStandardHelpOptions = true,
    description = "Answer a question from the index with numbered citations, or refuse.")
public final class AskCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "QUESTION") String question;
  @Mixin CommonOptions common;
  @Mixin RetrievalOptions retrieval;
  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    OpenBookConfig config = common.loadConfig();
    try (Engine engine = Engine.forSearch(common.index, config)) {
      Query query = engine.query(question, config.principal(retrieval.principal), retrieval.topK);
      AnswerService service = engine.answerService(engine.defaultGenerator());
      Answer answer;
      if (common.json) {
        answer = service.ask(query, text -> { });
        out.println(JsonOutput.ask(query, answer));
      } else {
        answer = service.ask(query, new SourcesThenText(out));
        printTail(out, answer);
      }
      return answer.status() == AnswerStatus.FAILED ? OpenBookCommand.EXIT_FAILED : 0;
    }
  }

  private static void printTail(PrintWriter out, Answer a) {
    switch (a.status()) {
      case REFUSED_NO_EVIDENCE -> {
        out.println();
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
