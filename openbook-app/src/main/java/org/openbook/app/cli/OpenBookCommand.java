package org.openbook.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code openbook} command: verbs over shared option groups, as in Anserini's entry points.
 *
 * <p>Exit codes: 0 success; 1 error (missing or mismatched index, bad config, I/O); 2 usage
 * error; 3 ingest finished but skipped some files; 4 {@code ask} failed to generate.
 */
@Command(
    name = "openbook",
    mixinStandardHelpOptions = true,
    version = "openbook 0.1.0",
    description = "Answer questions from your own documents, with citations.",
    subcommands = {IngestCommand.class, SearchCommand.class, AskCommand.class,
        EvalCommand.class, CalibrateCommand.class, ServeCommand.class, SolrCommand.class,
        FeedbackCommand.class, OptimizeCommand.class,
        CommandLine.HelpCommand.class})
public final class OpenBookCommand implements Runnable {

  /** Exit code: the ingest completed but some files were skipped. */
  public static final int EXIT_SKIPPED = 3;
  /** Exit code: generation failed. */
  public static final int EXIT_FAILED = 4;
  /** Exit code: an error stopped the command. */
  public static final int EXIT_ERROR = 1;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Runs the CLI and returns its exit code. */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /**
   * The configured command line: execution errors print {@code error: <one line>} on stderr
   * (with the stack trace when {@code OPENBOOK_DEBUG} is set), with {@code --json} also
   * {@code {"error": {...}}} on stdout ({@link org.openbook.app.JsonOutput#error}), and exit
   * {@value #EXIT_ERROR}. Tests may set its out/err writers before {@code execute}.
   */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new OpenBookCommand());
    cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
      cmd.getErr().println("error: " + describe(e));
      if (jsonRequested(parsed)) {
        cmd.getOut().println(org.openbook.app.JsonOutput.error(describe(e), EXIT_ERROR));
        cmd.getOut().flush();
      }
      if (System.getenv("OPENBOOK_DEBUG") != null) {
        e.printStackTrace(cmd.getErr());
      }
      return EXIT_ERROR;
    });
    return cl;
  }

  /** Whether the innermost command of {@code parsed} was given {@code --json}. */
  private static boolean jsonRequested(CommandLine.ParseResult parsed) {
    CommandLine.ParseResult p = parsed;
    while (p.hasSubcommand()) {
      p = p.subcommand();
    }
    return p.hasMatchedOption("--json");
  }

  /** A one-line message for the user: what went wrong and with which path. */
  static String describe(Exception e) {
    String m = e.getMessage() == null ? "" : e.getMessage();
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file or folder: " + m;
    }
    if (e instanceof java.nio.file.NotDirectoryException) {
      return "not a folder: " + m;
    }
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied: " + m;
    }
    if (e instanceof java.nio.file.FileAlreadyExistsException) {
      return "exists and is not an OpenBook index: " + m;
    }
    if (e instanceof java.nio.file.FileSystemException) {
      return "cannot use " + m;
    }
    return m.isEmpty() ? e.getClass().getSimpleName() : m;
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
