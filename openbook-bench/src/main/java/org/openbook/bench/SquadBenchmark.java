package org.openbook.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.embed.ForwardingEmbedder;
import org.openbook.eval.ConfigResult;
import org.openbook.eval.EvalReport;
import org.openbook.eval.QueryOutcome;
import org.openbook.eval.RetrieverVariant;
import org.openbook.eval.SquadDataset;
import org.openbook.eval.TwoSignalCalibration;
import org.openbook.answer.EvidenceGate;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.RrfFusion;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * A SQuAD-format reading-comprehension set as a retrieval benchmark, in one command: corpus =
 * every context (one document per paragraph through the normal chunker), query = question, gold
 * = its own context (a chunk counts when it belongs to that paragraph). Runs BM25, dense and the
 * fused configurations for every analyzer asked for, plus the LangChain4j baseline, and writes
 * {@code <dataset>.md}, {@code <dataset>.json} and {@code <dataset>-recall.png} into
 * {@code --out}.
 *
 * <p>Embeddings are cached on disk ({@code --work}/embedding-cache), so only the first run of a
 * data set pays for the model; latencies are therefore retrieval without query embedding.
 */
@Command(name = "squad-benchmark", mixinStandardHelpOptions = true,
    description = "SearchResult benchmark over a SQuAD-format data set.")
public final class SquadBenchmark implements Callable<Integer> {

  /** Data sets under the shared folder, by name. */
  public static final Map<String, String> DATASETS = Map.of(
      "cmrc2018", "datasets/cmrc2018/cmrc2018_dev.json",
      "drcd", "datasets/drcd/DRCD_dev.json",
      "xquad-en", "datasets/xquad/xquad.en.json",
      "xquad-zh", "datasets/xquad/xquad.zh.json");

  @Option(names = "--dataset", required = true, description = "cmrc2018, drcd, xquad-en or xquad-zh.")
  String dataset;

  @Option(names = "--shared", description = "Shared data folder (default: $openbook.shared, else ../shared).")
  Path shared;

  @Option(names = "--out", defaultValue = "docs/bench", description = "Report folder (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--work", defaultValue = "/tmp/openbook-bench",
      description = "Indexes and embedding cache (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--analyzers", defaultValue = "UNIGRAM_BIGRAM",
      description = "BM25 analysis strategies, each run with every configuration (dense only "
          + "once: it does not use the analyzer) (default: ${DEFAULT-VALUE}).")
  String analyzers;

  @Option(names = "--configs", defaultValue = "bm25,dense,hybrid,minmax",
      description = "Configurations, as for openbook eval --configs (default: ${DEFAULT-VALUE}).")
  String configs;

  @Option(names = "--no-baseline", description = "Skip the LangChain4j baseline.")
  boolean noBaseline;

  @Option(names = "--max-chars", description = "Chunk budget (default: ChunkerSettings.DEFAULT).")
  Integer maxChars;

  @Option(names = "--overlap-chars", description = "Chunk overlap (default: ChunkerSettings.DEFAULT).")
  Integer overlapChars;

  @Option(names = "--prefix-chars", description = "Contextual prefix budget; 0 = no title prefix (default: ChunkerSettings.DEFAULT).")
  Integer prefixChars;

  @Option(names = "--fetch-k", defaultValue = "100", description = "Candidates per route (default: ${DEFAULT-VALUE}).")
  int fetchK;

  @Option(names = "--limit", description = "Only the first N questions (quick runs).")
  Integer limit;

  @Option(names = "--holdout", description = "Gate-1 study instead of the ranking run: leave "
      + "every N-th paragraph out of the index; its questions are the unanswerable group, the "
      + "others the answerable one; writes <dataset>-holdout.txt with the calibration.")
  Integer holdout;

  @Option(names = "--holdout-sweep", defaultValue = "0.53,0.58", split = ",",
      description = "With --holdout: the dense thresholds FROM,TO of the two-signal sweep, step "
          + "0.002 (default: ${DEFAULT-VALUE}, around the shipped default; a query instruction "
          + "moves the cosines lower).")
  double[] holdoutSweep;

  @Option(names = "--vector-encoding", defaultValue = "float32",
      description = "HNSW vector storage of the index: float32, int8 or int4 (default: ${DEFAULT-VALUE}).")
  String vectorEncoding;

  @Option(names = "--paragraphs", description = "Only the first N paragraphs as the corpus, and "
      + "only the questions about them (quick runs on a smaller corpus).")
  Integer paragraphs;

  @Option(names = "--tag", defaultValue = "", description = "Suffix for the report file names.")
  String tag;

  @Option(names = "--bm25-only", description = "Analyzer comparisons without the model: chunks "
      + "are indexed with a constant vector and questions are not embedded, so only the bm25 "
      + "configuration is meaningful (seconds instead of the first run's embedding time).")
  boolean bm25Only;

  @Option(names = "--routes", defaultValue = "bilingual",
      description = "Dense models: bilingual (shipped: bge-small-zh for every text, Traditional "
          + "folded to Simplified, plus bge-small-en for English texts) or zh (bge-small-zh "
          + "alone, unfolded) or zh-folded (bge-small-zh alone, Traditional folded: what bilingual "
          + "gives Chinese questions, without embedding the chunks a second time) "
          + "(default: ${DEFAULT-VALUE}).")
  String routesName;

  @Option(names = "--questions-from", description = "Cross-language run: take the questions "
      + "from this parallel data set (same paragraphs in the same order, e.g. xquad-zh questions "
      + "against --dataset xquad-en passages).")
  String questionsFrom;

  @Option(names = "--dump-routes", description = "Also write <dataset><tag>-<analyzer>.routes.jsonl "
      + "into --out: per question its gold paragraph, the dense list and the BM25 list (fetch-k "
      + "each, chunk id, paragraph id, raw score) and the query's maximum attainable BM25 score, "
      + "for studying fusion rules offline.")
  boolean dumpRoutes;

  @Option(names = "--query-instruction", defaultValue = "none",
      description = "Model-card query instructions prepended to the questions (never to the "
          + "passages): none, zh (bge-small-zh's), en (bge-small-en's) or both "
          + "(default: ${DEFAULT-VALUE}). Question vectors are cached under the instructed text.")
  String queryInstruction;

  /** {@code routes} with the query instructions {@code --query-instruction} names. */
  private DenseRoutes instructed(DenseRoutes routes) {
    String zh = BgeSmallZhEmbedder.QUERY_INSTRUCTION;
    String en = BgeSmallEnEmbedder.QUERY_INSTRUCTION;
    return switch (queryInstruction) {
      case "none" -> routes;
      case "zh" -> routes.withQueryInstructions(zh, "");
      case "en" -> routes.withQueryInstructions("", en);
      case "both" -> routes.withQueryInstructions(zh, en);
      default -> throw new IllegalArgumentException("--query-instruction is none, zh, en or "
          + "both, not '" + queryInstruction + "'");
    };
  }

  @Override
  public Integer call() throws Exception {
    String rel = DATASETS.get(dataset);
    if (rel == null) {
      throw new IllegalArgumentException("unknown --dataset '" + dataset + "'; known: "
          + String.join(", ", DATASETS.keySet()));
    }
    Path file = sharedDir().resolve(rel);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("data set file not found: " + file);
    }
    SquadDataset data = SquadDataset.read(dataset, file);
    List<SquadDataset.Question> all = data.questions();
    if (questionsFrom != null) {
      SquadDataset other = SquadDataset.read(questionsFrom,
          sharedDir().resolve(Objects.requireNonNull(DATASETS.get(questionsFrom),
              "unknown --questions-from " + questionsFrom)));
      if (other.paragraphs().size() != data.paragraphs().size()) {
        throw new IllegalArgumentException("--questions-from " + questionsFrom + " has "
            + other.paragraphs().size() + " paragraphs, " + dataset + " "
            + data.paragraphs().size() + ": not parallel");
      }
      all = other.questions();
    }
    if (paragraphs != null) {
      // a smaller corpus: the first N paragraphs and only the questions about them
      int n = Math.min(paragraphs, data.paragraphs().size());
      data = new SquadDataset(data.name(), data.paragraphs().subList(0, n),
          data.questions().stream().filter(q -> q.paragraph() < n).toList());
      all = all.stream().filter(q -> q.paragraph() < n).toList();
    }
    List<SquadDataset.Question> questions = limit == null ? all
        : all.subList(0, Math.min(limit, all.size()));
    ChunkerSettings d = ChunkerSettings.DEFAULT;
    ChunkerSettings settings = new ChunkerSettings(maxChars == null ? d.maxChars() : maxChars,
        overlapChars == null ? d.overlapChars() : overlapChars,
        prefixChars == null ? d.maxPrefixChars() : prefixChars, d.tableRowsPerChunk());

    Files.createDirectories(work);
    try (EmbeddingCache cache = EmbeddingCache.open(work.resolve(EmbeddingCache.FOLDER_NAME))) {
      BgeSmallZhEmbedder model = new BgeSmallZhEmbedder();
      Embedder embedder =
          bm25Only ? new ConstantEmbedder(model) : new CachingEmbedder(model, cache);
      DenseRoutes routes = bm25Only ? DenseRoutes.single(embedder)
          : instructed(switch (routesName) {
            case "bilingual" -> DenseRoutes.bilingual(model, new BgeSmallEnEmbedder())
                .cached(cache);
            case "zh" -> DenseRoutes.single(embedder);
            case "zh-folded" -> DenseRoutes.chinese(embedder);
            default -> throw new IllegalArgumentException("--routes is bilingual, zh or "
                + "zh-folded, not '"
                + routesName + "'");
          });
      StructuredChunker chunker =
          new StructuredChunker(settings, routes::countTokens, routes.maxInputTokens());
      List<List<Chunk>> chunks = SquadCorpus.chunk(data, chunker);
      List<List<EmbeddedChunk>> embedded = embedChunks(chunks, routes, cache);
      if (!bm25Only) {
        embedQuestions(questions, routes, cache);
      }
      int totalChunks = embedded.stream().mapToInt(List::size).sum();
      int maxTokens = 0;
      for (List<Chunk> cs : chunks) {
        for (Chunk c : cs) {
          maxTokens = Math.max(maxTokens, model.countTokens(c.embedText()));
        }
      }
      int longParagraphs = 0;
      for (SquadDataset.Paragraph p : data.paragraphs()) {
        if (model.countTokens(p.text()) > model.maxInputTokens()) {
          longParagraphs++;
        }
      }

      if (holdout != null) {
        if (holdoutSweep.length != 2) {
          throw new IllegalArgumentException("--holdout-sweep is FROM,TO, e.g. 0.53,0.58");
        }
        return gateStudy(data, questions, chunker, model, routes, embedded);
      }
      List<ConfigResult> results = new ArrayList<>();
      String[] strategies = analyzers.split(",");
      for (int i = 0; i < strategies.length; i++) {
        OpenBookAnalysis analysis =
            OpenBookAnalysis.of(OpenBookAnalysis.Strategy.valueOf(strategies[i].strip()));
        String spec = configs;
        String suffix = strategies.length == 1 ? "" : " [" + analysis.strategy() + "]";
        try (LuceneChunkStore store = buildIndex(analysis, chunker, routes, embedded, "")) {
          if (dumpRoutes) {
            RouteDump.write(out.resolve(dataset + tag + "-" + analysis.strategy()
                + ".routes.jsonl"), questions, routes, store, fetchK);
          }
          for (RetrieverVariant c : RetrieverVariant.parseRouted(spec, routes, store, store,
              RrfFusion.DEFAULT, null)) {
            if (i > 0 && c.name().equals("dense")) {
              continue;
            }
            results.add(run(c, suffix, questions));
          }
        }
      }
      int baselineSegments = 0;
      if (!noBaseline) {
        LangChain4jBaseline baseline = new LangChain4jBaseline(embedder);
        try (ProgressBar bar = bar("lc4j index", data.paragraphs().size())) {
          baseline.index(data, bar::stepBy);
        }
        cache.commit();
        baselineSegments = baseline.segments();
        List<QueryOutcome> outcomes = new ArrayList<>();
        try (ProgressBar bar = bar("langchain4j", questions.size())) {
          for (SquadDataset.Question q : questions) {
            outcomes.add(baseline.ask(q, 10));
            bar.step();
          }
        }
        results.add(ConfigResult.summarize("langchain4j",
            "LangChain4j recursive(" + LangChain4jBaseline.SEGMENT_CHARS + ","
                + LangChain4jBaseline.OVERLAP_CHARS + ") splitter + InMemoryEmbeddingStore, "
                + "same bge model, dense only", outcomes));
      }

      EvalReport report = new EvalReport(dataset + tag, List.of(
          String.format(Locale.ROOT, "%s: %d paragraphs, %d questions%s%s; %d paragraphs exceed "
              + "the model's 512 tokens", file.getFileName(), data.paragraphs().size(),
              questions.size(), limit == null ? "" : " (--limit)",
              questionsFrom == null ? "" : " from " + questionsFrom, longParagraphs),
          "dense routes: " + routesName + " (" + routes.primary().modelId()
              + routes.english().map(e -> "; " + e.modelId() + " for English texts").orElse("")
              + "); query instruction: " + queryInstruction,
          String.format(Locale.ROOT, "OpenBook chunks: %d (chunker %s; largest embedText %d "
              + "tokens); fetch-k %d per route; anonymous principal", totalChunks, settings.id(),
              maxTokens, fetchK),
          noBaseline ? "LangChain4j baseline skipped" : "LangChain4j segments: " + baselineSegments,
          "a hit is any chunk of the question's own paragraph; latency = retrieval with the "
              + "query embedding taken from the cache"), results);
      report.write(out, dataset + tag);
      RecallChart.write(report, out.resolve(dataset + tag + "-recall.png"));
      System.out.print(report.toMarkdown());
      System.out.flush();
      return 0;
    }
  }

  /**
   * The fusion of the gate study's two-signal rule: the shipped default (min-max 0.3/0.7, BM25
   * minimum spread 0.1).
   */
  private static final String HOLDOUT_FUSION = "minmax:d=0.3:g=0.1";

  /**
   * Leaves every {@code holdout}-th paragraph out of the index and compares the best dense
   * cosine of questions whose paragraph is indexed (answerable) with those whose paragraph is
   * not (unanswerable).
   */
  private int gateStudy(SquadDataset data, List<SquadDataset.Question> questions,
      StructuredChunker chunker, Embedder model, DenseRoutes queries,
      List<List<EmbeddedChunk>> embedded) throws IOException {
    List<List<EmbeddedChunk>> kept = new ArrayList<>();
    for (int p = 0; p < embedded.size(); p++) {
      // Gate 1 reads the primary model's cosine only: index the primary vectors.
      kept.add(p % holdout == 0 ? List.of() : embedded.get(p).stream()
          .map(ec -> new EmbeddedChunk(ec.chunk(), ec.vector())).toList());
    }
    OpenBookAnalysis analysis = OpenBookAnalysis.defaultAnalysis();
    List<Double> answerable = new ArrayList<>();
    List<Double> unanswerable = new ArrayList<>();
    List<TwoSignalCalibration.Evidence> answerableEvidence = new ArrayList<>();
    List<TwoSignalCalibration.Evidence> unanswerableEvidence = new ArrayList<>();
    try (LuceneChunkStore store = buildIndex(analysis, chunker, DenseRoutes.single(model), kept,
        "-holdout")) {
      var dense = new org.openbook.retrieve.HybridRetriever(queries, store, store,
          RrfFusion.DEFAULT, org.openbook.retrieve.HybridRetriever.Mode.DENSE);
      // The shipped retrieval (min-max 0.3/0.7) and gate 1 as `openbook ask` applies them to
      // the top 5 passages; the gate's thresholds do not matter here, the table varies them.
      var hybrid = RetrieverVariant.parseRouted(HOLDOUT_FUSION, queries, store, store,
          RrfFusion.DEFAULT, null).get(0).retriever();
      EvidenceGate gate = new EvidenceGate(
          org.openbook.engine.config.OpenBookConfig.Gate.DEFAULT_THRESHOLD,
          EvidenceGate.DEFAULT_LEXICAL_THRESHOLD, analysis, store);
      try (ProgressBar bar = bar("holdout", questions.size())) {
        for (SquadDataset.Question q : questions) {
          double best = dense.retrieve(new Query(q.text(), Principal.ANONYMOUS, 1, 10))
              .bestDenseScore();
          var top = hybrid.retrieve(new Query(q.text(), Principal.ANONYMOUS, 5, fetchK));
          var evidence = new TwoSignalCalibration.Evidence(best,
              gate.judge(q.text(), top.hits(), top.bestDenseScore(), Principal.ANONYMOUS.filter()));
          boolean lost = q.paragraph() % holdout == 0;
          (lost ? unanswerable : answerable).add(best);
          (lost ? unanswerableEvidence : answerableEvidence).add(evidence);
          bar.step();
        }
      }
    }
    var g = new org.openbook.eval.GateCalibration(
        answerable.stream().mapToDouble(Double::doubleValue).toArray(),
        unanswerable.stream().mapToDouble(Double::doubleValue).toArray());
    String text = String.format(Locale.ROOT, "%s: every %d-th paragraph left out of the index "
        + "(%d questions lose their context); best dense cosine per question%n%n", dataset,
        holdout, unanswerable.size()) + g.render();
    for (double t : new double[] {0.5, 0.53, 0.55, 0.6}) {
      var c = g.at(t);
      text += String.format(Locale.ROOT, "at threshold %.2f: refusal rate on unanswerable %.3f, "
          + "false-refusal rate on answerable %.3f%n", t, c.recall(), c.falseRefusalRate());
    }
    text += String.format(Locale.ROOT, "%nTwo-signal gate 1 (EvidenceGate on the top 5 of %s, "
        + "fetch-k %d) against the old rule (best cosine of the dense route):%n", HOLDOUT_FUSION,
        fetchK)
        + new TwoSignalCalibration(answerableEvidence, unanswerableEvidence).render();
    // Around the default: how many questions each step of the dense threshold moves.
    text += String.format(Locale.ROOT, "%nSweep of the dense threshold at lexical %.2f:%n",
        EvidenceGate.DEFAULT_LEXICAL_THRESHOLD)
        + new TwoSignalCalibration(answerableEvidence, unanswerableEvidence).renderSweep(
            EvidenceGate.DEFAULT_LEXICAL_THRESHOLD, holdoutSweep[0], holdoutSweep[1], 0.002);
    Files.createDirectories(out);
    Files.writeString(out.resolve(dataset + "-holdout.txt"), text);
    System.out.print(text);
    System.out.flush();
    return 0;
  }

  private ConfigResult run(RetrieverVariant c, String suffix,
      List<SquadDataset.Question> questions) throws IOException {
    List<QueryOutcome> outcomes = new ArrayList<>(questions.size());
    try (ProgressBar bar = bar(c.name() + suffix, questions.size())) {
      for (SquadDataset.Question q : questions) {
        long t0 = System.nanoTime();
        List<Hit> hits = c.retriever()
            .retrieve(new Query(q.text(), Principal.ANONYMOUS, 10, fetchK)).hits();
        double millis = (System.nanoTime() - t0) / 1e6;
        List<String> ids = hits.stream().map(h -> h.chunk().docId()).toList();
        outcomes.add(new QueryOutcome(q.id(), "", SquadCorpus.judge(q, ids), millis, false,
            null));
        bar.step();
      }
    }
    return ConfigResult.summarize(c.name() + suffix, c.description(), outcomes);
  }

  /**
   * Every text gets the same unit vector: for {@code --bm25-only}, where the dense route is not
   * measured and only the index layout needs vectors of the model's dimension.
   */
  private static final class ConstantEmbedder extends ForwardingEmbedder {
    ConstantEmbedder(Embedder model) {
      super(model);
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      float[] unit = new float[model.dimension()];
      unit[0] = 1;
      return texts.stream().map(t -> unit.clone()).toList();
    }
  }

  private List<List<EmbeddedChunk>> embedChunks(List<List<Chunk>> chunks, DenseRoutes embedder,
      EmbeddingCache cache) throws IOException {
    List<List<EmbeddedChunk>> out = new ArrayList<>(chunks.size());
    try (ProgressBar bar = bar("embed chunks", chunks.size())) {
      for (List<Chunk> cs : chunks) {
        out.add(SquadCorpus.embed(cs, embedder));
        bar.step();
        if (out.size() % 50 == 0) {
          cache.commit();
        }
      }
    }
    cache.commit();
    return out;
  }

  private void embedQuestions(List<SquadDataset.Question> questions, DenseRoutes embedder,
      EmbeddingCache cache) throws IOException {
    try (ProgressBar bar = bar("embed questions", questions.size())) {
      for (int i = 0; i < questions.size(); i += 32) {
        List<SquadDataset.Question> batch = questions.subList(i, Math.min(i + 32, questions.size()));
        embedder.embedQueries(batch.stream().map(SquadDataset.Question::text).toList());
        bar.stepBy(batch.size());
        cache.commit();
      }
    }
  }

  private LuceneChunkStore buildIndex(OpenBookAnalysis analysis, StructuredChunker chunker,
      DenseRoutes routes, List<List<EmbeddedChunk>> embedded, String suffix) throws IOException {
    org.openbook.index.VectorEncoding encoding =
        org.openbook.index.VectorEncoding.parse(vectorEncoding, "--vector-encoding");
    Path dir = work.resolve(dataset + "-" + Integer.toHexString(chunker.settings().id().hashCode())
        + "-" + analysis.strategy() + "-" + routes.denseFields().size() + suffix
        + (encoding == org.openbook.index.VectorEncoding.FLOAT32 ? "" : "-" + encoding.id()));
    Embedder model = routes.primary();
    IndexManifest manifest = new IndexManifest(model.modelId(), model.dimension(),
        IndexManifest.COSINE, analysis.id(), chunker.settings().id(), 0, 0, routes.denseFields(),
        encoding.id());
    LuceneChunkStore store = LuceneChunkStore.create(dir, manifest, analysis);
    for (List<EmbeddedChunk> doc : embedded) {
      if (!doc.isEmpty()) {
        store.replaceDocument(doc.get(0).chunk().docId(), doc);
      }
    }
    store.commit();
    printIndexSize(dir, encoding);
    return store;
  }

  /** Bytes on disk of the index, and of its vector files by extension (.vec floats, .veq quantized, .vex graph). */
  private static void printIndexSize(Path dir, org.openbook.index.VectorEncoding encoding)
      throws IOException {
    java.util.Map<String, Long> byExt = new java.util.TreeMap<>();
    long total = 0;
    try (var files = Files.list(dir)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = f.getFileName().toString();
        String ext = name.contains(".") ? name.substring(name.lastIndexOf('.')) : name;
        long size = Files.size(f);
        total += size;
        if (ext.equals(".vec") || ext.equals(".veq") || ext.equals(".vex")) {
          byExt.merge(ext, size, Long::sum);
        }
      }
    }
    System.out.printf(java.util.Locale.ROOT, "index %s (%s): %.2f MB on disk; vector files %s%n",
        dir.getFileName(), encoding.id(), total / 1e6, byExt);
  }

  private Path sharedDir() {
    if (shared != null) {
      return shared;
    }
    String p = System.getProperty("openbook.shared");
    return p != null ? Paths.get(p) : Paths.get("..", "shared");
  }

  private static ProgressBar bar(String task, int max) {
    return new ProgressBarBuilder().setTaskName(task).setInitialMax(max)
        .setStyle(ProgressBarStyle.ASCII).continuousUpdate().setConsumer(
            new me.tongfei.progressbar.ConsoleProgressBarConsumer(System.err)).build();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SquadBenchmark()).execute(args));
  }
}
