package org.openbook.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.openbook.app.server.FeedbackStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code openbook feedback export}: turns stored answer ratings into eval cases. */
@Command(name = "feedback", mixinStandardHelpOptions = true,
    description = "Work with the answer feedback the server stored.",
    subcommands = FeedbackCommand.Export.class)
public final class FeedbackCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * {@code openbook feedback export --data DIR --out cases.jsonl}: one eval case per rated
   * answer, in the kb-demo {@code cases.jsonl} format ({@code id}, {@code question},
   * {@code type: "feedback"}, {@code principal}, {@code expect: "answer"}, {@code gold}: the
   * cited passages' source and opening text, {@code answer_contains: []}). A thumbs-down answer
   * is marked {@code "review": true}, with the rating's comment and the answer given, because
   * its cited passages are not known to be right: a person fixes gold (or sets
   * {@code expect: refuse}) before the case is used as a regression case.
   */
  @Command(name = "export", mixinStandardHelpOptions = true,
      description = "Write the stored feedback as eval cases (cases.jsonl format).")
  public static final class Export implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--data", required = true, paramLabel = "DIR",
        description = "The server's data folder (server.dataDir; default <docs>-data).")
    Path data;

    @Option(names = "--out", required = true, paramLabel = "FILE",
        description = "The cases file to write (replaced).")
    Path out;

    @Spec CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      List<FeedbackStore.Feedback> all = FeedbackStore.read(data.resolve("feedback"));
      StringBuilder lines = new StringBuilder();
      int review = 0;
      for (FeedbackStore.Feedback f : all) {
        lines.append(JSON.writeValueAsString(toCase(f))).append('\n');
        if (f.rating().equals("down")) {
          review++;
        }
      }
      if (out.toAbsolutePath().getParent() != null) {
        Files.createDirectories(out.toAbsolutePath().getParent());
      }
      Files.writeString(out, lines.toString(), StandardCharsets.UTF_8);
      PrintWriter w = spec.commandLine().getOut();
      w.printf("wrote %d case(s) to %s (%d marked for review)%n", all.size(), out, review);
      return 0;
    }

    static ObjectNode toCase(FeedbackStore.Feedback f) {
      ObjectNode c = JSON.createObjectNode();
      c.put("id", f.id());
      c.put("question", f.question());
      c.put("type", "feedback");
      c.put("principal", f.principal());
      c.put("expect", "answer");
      ArrayNode gold = c.putArray("gold");
      for (FeedbackStore.Cited cited : f.cited()) {
        gold.addObject().put("source", cited.source()).put("contains", cited.snippet());
      }
      c.putArray("answer_contains");
      c.put("rating", f.rating());
      if (f.rating().equals("down")) {
        c.put("review", true);
        c.put("comment", f.comment());
        c.put("answer", f.answer());
      }
      return c;
    }
  }
}
