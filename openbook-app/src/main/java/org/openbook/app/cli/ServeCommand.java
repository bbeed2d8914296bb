package org.openbook.app.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openbook.app.server.ApiServer;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code openbook serve --index PATH [--port 8080] [--host 127.0.0.1] [--docs DIR]
 * [--config FILE]}: the HTTP API and web page over one index until the process is stopped.
 * Tokens, writers and limits come from the config's {@code server} section.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
    description = "Serve the HTTP API (/v1/ask, /v1/search, /v1/documents) and the web page.")
public final class ServeCommand implements Callable<Integer> {
  /** How long a shutdown waits for in-flight writes and the index to close. */
  private static final long SHUTDOWN_SECONDS = 30;

  @Option(names = "--index", required = true, paramLabel = "PATH", description = "Index directory.")
  Path index;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Configuration file (default: $OPENBOOK_CONFIG, else ./openbook.yaml).")
  Path config;

  @Option(names = "--port", defaultValue = "8080", description = "Port (default: ${DEFAULT-VALUE}; 0 = any free port).")
  int port;

  @Option(names = "--host", defaultValue = "127.0.0.1",
      description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(names = "--docs", paramLabel = "DIR",
      description = "Corpus folder uploads are written to and ingested from "
          + "(default: server.docsDir, else <index>-docs beside the index).")
  Path docs;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    OpenBookConfig cfg = ConfigLoader.load(config, System.getenv());
    if (!Files.isDirectory(index)) {
      throw new IllegalArgumentException("--index " + index
          + ": no index there; build one with 'openbook ingest' first");
    }
    Path docsDir = docs != null ? docs
        : cfg.resolve(System.getenv()).server().docsDir().orElseGet(() -> defaultDocsDir(index));
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch closed = new CountDownLatch(1);
    // On SIGTERM/Ctrl-C: let the main thread stop the server and close the index, and wait for
    // it (bounded) so the JVM does not exit in the middle of a commit.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      stop.countDown();
      try {
        closed.await(SHUTDOWN_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "openbook-serve-shutdown"));
    try (OpenBook engine = OpenBook.builder().index(index).config(cfg).mode(OpenBook.Mode.WRITE)
            .build();
        ApiServer server = new ApiServer(engine, docsDir)) {
      server.start(host, port);
      spec.commandLine().getOut().printf("openbook serving %s on http://%s:%d/ (docs: %s)%n",
          index, host, server.port(), server.docsDir());
      server.writesDisabled().ifPresent(w -> spec.commandLine().getErr().println("warning: " + w));
      if (cfg.server().tokens().isEmpty()) {
        spec.commandLine().getErr().println("warning: no server.tokens in the config: every /v1"
            + " request will be refused with 401 (see README, 'HTTP API and web page')");
      }
      spec.commandLine().getOut().flush();
      stop.await();
    } finally {
      closed.countDown();
    }
    return 0;
  }

  /** {@code <index>-docs} beside the index folder. */
  static Path defaultDocsDir(Path index) {
    Path abs = index.toAbsolutePath().normalize();
    return abs.resolveSibling(abs.getFileName() + "-docs");
  }
}
