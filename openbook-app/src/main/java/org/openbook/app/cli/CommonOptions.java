package org.openbook.app.cli;

import java.nio.file.Path;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import picocli.CommandLine.Option;

/** Options every verb shares: where the index is and which configuration to use. */
public final class CommonOptions {

  @Option(names = "--index", required = true, paramLabel = "PATH",
      description = "Index directory.")
  Path index;

  @Option(names = "--config", paramLabel = "FILE",
      description = "Configuration file (default: $OPENBOOK_CONFIG, else ./openbook.yaml).")
  Path config;

  @Option(names = "--json", description = "Print one JSON object instead of text.")
  boolean json;

  OpenBookConfig loadConfig() {
    return ConfigLoader.load(config, System.getenv());
  }
}
