package org.openbook.app.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Options of the verbs that retrieve: how many hits and for whom. */
public final class RetrievalOptions {

  /** Largest {@code -k} accepted: more passages than this is no longer an answer's context. */
  public static final int MAX_K = 200;

  @Spec(Spec.Target.MIXEE) CommandSpec spec;

  Integer topK;

  @Option(names = {"-k", "--top-k"}, paramLabel = "K",
      description = "Hits to return, 1.." + MAX_K + " (default: retrieval.topK, else 5).")
  void setTopK(int k) {
    if (k < 1 || k > MAX_K) {
      throw new ParameterException(spec.commandLine(),
          "-k must be between 1 and " + MAX_K + ", got " + k);
    }
    topK = k;
  }

  @Option(names = "--principal", paramLabel = "NAME",
      description = "Who asks; their departments come from the config (default: public only).")
  String principal;
}
