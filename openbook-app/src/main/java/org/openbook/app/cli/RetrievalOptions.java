package org.openbook.app.cli;

import picocli.CommandLine.Option;

/** Options of the verbs that retrieve: how many hits and for whom. */
public final class RetrievalOptions {

  @Option(names = {"-k", "--top-k"}, paramLabel = "K",
      description = "Hits to return (default: retrieval.topK, else 5).")
  Integer topK;

  @Option(names = "--principal", paramLabel = "NAME",
      description = "Who asks; their departments come from the config (default: public only).")
  String principal;
}
