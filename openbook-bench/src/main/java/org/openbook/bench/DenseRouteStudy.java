package org.openbook.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.ChineseFolding;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.eval.ConfigResult;
import org.openbook.eval.EvalReport;
import org.openbook.eval.QueryOutcome;
import org.openbook.eval.SquadDataset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Dense routes alone, by exact cosine (no index, no BM25): which model embeds which language,
 * on the same chunks as {@link SquadBenchmark}. Pairs a question set with a passage set, so the
 * cross-language cases are XQuAD's parallel questions against the other language's passages
 * (XQuAD en and zh have the same paragraphs in the same order). Vectors come from the shared
 * embedding cache ({@code --work}), so this is the run that pays for the models once.
 */
@Command(name = "dense-route-study", mixinStandardHelpOptions = true,
    description = "Dense-route comparison: models x languages, incl. cross-language XQuAD.")
public final class DenseRouteStudy implements Callable<Integer> {

  /** BGE's optional query instruction for English short-query → passage retrieval. */
  static final String EN_INSTRUCTION = "Represent this sentence for searching relevant passages: ";

  @Option(names = "--shared", description = "Shared data folder (default: ../shared).")
  Path shared = Paths.get("..", "shared");

  @Option(names = "--work", defaultValue = "/tmp/openbook-bench",
      description = "Embedding cache parent folder (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--pairs", defaultValue = "xquad-en:xquad-en,xquad-zh:xquad-zh,xquad-zh:xquad-en,xquad-en:xquad-zh,drcd:drcd",
      description = "question-set:passage-set pairs (default: ${DEFAULT-VALUE}).")
  String pairs;

  @Option(names = "--routes", defaultValue = "en,zh,zh+en",
      description = "Dense routes per pair: en, en-instr (BGE query instruction), zh (folded "
          + "when Traditional), zh-unfolded, zh+en (both, min-max fused) (default: ${DEFAULT-VALUE}).")
  String routes;

  @Option(names = "--zh-weights", defaultValue = "1",
      description = "Weights of the zh route in zh+en (en route: 1) (default: ${DEFAULT-VALUE}).")
  String zhWeights;

  @Option(names = "--paragraphs", description = "Only the first N paragraphs and their questions.")
  Integer paragraphs;

  @Option(names = "--out", description = "Write the report (Markdown + JSON) here.")
  Path out;

  private Embedder zh;
  private Embedder en;
  private EmbeddingCache cache;

  @Override
  public Integer call() throws Exception {
    Files.createDirectories(work);
    List<String> setup = new ArrayList<>();
    List<ConfigResult> results = new ArrayList<>();
    try (EmbeddingCache c = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      cache = c;
      BgeSmallZhEmbedder zhModel = new BgeSmallZhEmbedder();
      zh = new CachingEmbedder(zhModel, c);
      en = new CachingEmbedder(new BgeSmallEnEmbedder(), c);
      StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT,
          zhModel::countTokens, zhModel.maxInputTokens());
      for (String pair : pairs.split(",")) {
        String[] qp = pair.strip().split(":");
        SquadDataset qs = read(qp[0]);
        SquadDataset ps = qp[0].equals(qp[1]) ? qs : read(qp[1]);
        if (qs.paragraphs().size() != ps.paragraphs().size()) {
          throw new IllegalArgumentException(pair + ": paragraph counts differ");
        }
        if (paragraphs != null) {
          qs = firstParagraphs(qs, paragraphs);
          ps = firstParagraphs(ps, paragraphs);
        }
        List<Chunk> chunks = SquadCorpus.chunk(ps, chunker).stream().flatMap(List::stream).toList();
        List<String> texts = chunks.stream().map(Chunk::embedText).toList();
        List<String> questions = qs.questions().stream().map(SquadDataset.Question::text).toList();
        setup.add(String.format(Locale.ROOT, "%s questions (%d) against %s passages (%d chunks)",
            qp[0], questions.size(), qp[1], chunks.size()));
        String label = qp[0] + " → " + qp[1];
        Set<String> want = Set.of(routes.split(","));
        UnaryOperator<String> fold = ChineseFolding::toSimplifiedIfTraditional;
        Scored[][] zhRank = null;
        Scored[][] enRank = null;
        if (want.contains("en") || want.contains("zh+en") || want.contains("en-instr")) {
          float[][] enC = embed(en, texts, UnaryOperator.identity(), "en chunks " + label);
          if (want.contains("en") || want.contains("zh+en")) {
            float[][] enQ = embed(en, questions, UnaryOperator.identity(), "en questions " + label);
            enRank = rank(enQ, enC);
            results.add(score(label + " · en", qs, chunks, enRank));
          }
          if (want.contains("en-instr")) {
            float[][] enQi = embed(en, questions, s -> EN_INSTRUCTION + s, "en+instr " + label);
            results.add(score(label + " · en + instruction", qs, chunks, rank(enQi, enC)));
          }
        }
        if (want.contains("zh") || want.contains("zh+en")) {
          float[][] zhC = embed(zh, texts, fold, "zh chunks " + label);
          float[][] zhQ = embed(zh, questions, fold, "zh questions " + label);
          zhRank = rank(zhQ, zhC);
          results.add(score(label + " · zh (T→S folded when Traditional)", qs, chunks, zhRank));
        }
        if (want.contains("zh-unfolded")) {
          float[][] rawC = embed(zh, texts, UnaryOperator.identity(), "zh raw chunks " + label);
          float[][] rawQ = embed(zh, questions, UnaryOperator.identity(), "zh raw questions " + label);
          results.add(score(label + " · zh (unfolded)", qs, chunks, rank(rawQ, rawC)));
        }
        if (want.contains("zh+en")) {
          // Both routes, fused: min-max over each route's top 100, the zh route weighted w.
          for (String w : zhWeights.split(",")) {
            double weight = Double.parseDouble(w);
            results.add(score(label + " · zh+en min-max, zh weight " + w, qs, chunks,
                fuse(zhRank, enRank, weight)));
          }
        }
      }
    }
    EvalReport report = new EvalReport("dense-routes", setup, results);
    if (out != null) {
      report.write(out, "dense-routes");
    }
    System.out.print(report.toMarkdown());
    System.out.flush();
    return 0;
  }

  private static SquadDataset firstParagraphs(SquadDataset d, int n) {
    int k = Math.min(n, d.paragraphs().size());
    return new SquadDataset(d.name(), d.paragraphs().subList(0, k),
        d.questions().stream().filter(q -> q.paragraph() < k).toList());
  }

  private SquadDataset read(String name) throws java.io.IOException {
    String rel = SquadBenchmark.DATASETS.get(name);
    if (rel == null) {
      throw new IllegalArgumentException("unknown data set '" + name + "'");
    }
    return SquadDataset.read(name, shared.resolve(rel));
  }

  private float[][] embed(Embedder e, List<String> texts, UnaryOperator<String> prep, String what)
      throws java.io.IOException {
    float[][] out = new float[texts.size()][];
    System.err.println("embedding " + what + " (" + texts.size() + ")");
    for (int i = 0; i < texts.size(); i += 32) {
      List<String> batch = texts.subList(i, Math.min(i + 32, texts.size())).stream()
          .map(prep).toList();
      List<float[]> v = e.embedAll(batch);
      for (int j = 0; j < v.size(); j++) {
        out[i + j] = v.get(j);
      }
      cache.commit();
    }
    return out;
  }

  /** Per question: chunk indexes and cosines of the top 100, best first. */
  private static Scored[][] rank(float[][] q, float[][] c) {
    Scored[][] out = new Scored[q.length][];
    for (int i = 0; i < q.length; i++) {
      Scored[] all = new Scored[c.length];
      for (int j = 0; j < c.length; j++) {
        double dot = 0;
        for (int k = 0; k < q[i].length; k++) {
          dot += q[i][k] * c[j][k];
        }
        all[j] = new Scored(j, dot);
      }
      Arrays.sort(all, Comparator.comparingDouble(Scored::score).reversed());
      out[i] = Arrays.copyOf(all, Math.min(100, all.length));
    }
    return out;
  }

  private static Scored[][] fuse(Scored[][] a, Scored[][] b, double aWeight) {
    Scored[][] out = new Scored[a.length][];
    for (int i = 0; i < a.length; i++) {
      java.util.Map<Integer, Double> s = new java.util.HashMap<>();
      for (Scored[] route : List.of(a[i], b[i])) {
        double w = route == a[i] ? aWeight : 1.0;
        double max = route[0].score();
        double min = route[route.length - 1].score();
        for (Scored x : route) {
          double n = max > min ? (x.score() - min) / (max - min) : 1.0;
          s.merge(x.chunk(), w * n, Double::sum);
        }
      }
      out[i] = s.entrySet().stream().map(e -> new Scored(e.getKey(), e.getValue()))
          .sorted(Comparator.comparingDouble(Scored::score).reversed()).toArray(Scored[]::new);
    }
    return out;
  }

  private static ConfigResult score(String name, SquadDataset qs, List<Chunk> chunks,
      Scored[][] ranked) {
    List<QueryOutcome> outcomes = new ArrayList<>();
    for (int i = 0; i < ranked.length; i++) {
      SquadDataset.Question q = qs.questions().get(i);
      List<String> ids = Arrays.stream(ranked[i]).limit(10)
          .map(s -> chunks.get(s.chunk()).docId()).toList();
      outcomes.add(new QueryOutcome(q.id(), "", SquadCorpus.judge(q, ids), 0, false, null));
    }
    ConfigResult r = ConfigResult.summarize(name, "dense only, exact cosine", outcomes);
    System.err.println(name + " done");
    return r;
  }

  private record Scored(int chunk, double score) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new DenseRouteStudy()).execute(args));
  }
}
