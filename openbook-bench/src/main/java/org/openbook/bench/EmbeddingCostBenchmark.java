package org.openbook.bench;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.ChunkerSettings;
import org.openbook.chunk.StructuredChunker;
import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.eval.SquadDataset;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Ingest-side cost of the English route: the same chunks embedded by bge-small-zh-v1.5 and by
 * bge-small-en-v1.5-q, no cache, batches of {@value #BATCH} alternating between the two models
 * so that a shared, loaded machine slows both alike. Prints chunks per second per model and the
 * embedding time of an ingest that gives every chunk both vectors, as a ratio of the Chinese
 * model alone. Chunks are cut as ingest cuts them ({@link StructuredChunker}, default settings,
 * the bilingual routes' token limit).
 */
@Command(name = "embedding-cost", mixinStandardHelpOptions = true,
    description = "Chunks per second of the Chinese and the English model on the same chunks.")
public final class EmbeddingCostBenchmark implements Callable<Integer> {

  /** Chunks per embedAll call, as {@code Indexer} batches them. */
  static final int BATCH = 16;

  @Option(names = "--shared", description = "Shared data folder (default: ../shared).")
  Path shared = Paths.get("..", "shared");

  @Option(names = "--sets", defaultValue = "cmrc2018,xquad-en",
      description = "Data sets whose first chunks are embedded (default: ${DEFAULT-VALUE}).")
  String sets;

  @Option(names = "--chunks", defaultValue = "160",
      description = "Chunks per set (default: ${DEFAULT-VALUE}).")
  int chunks;

  @Override
  public Integer call() throws Exception {
    Embedder zh = new BgeSmallZhEmbedder();
    Embedder en = new BgeSmallEnEmbedder();
    DenseRoutes routes = DenseRoutes.bilingual(zh, en);
    StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT,
        routes::countTokens, routes.maxInputTokens());
    System.out.printf(Locale.ROOT, "batches of %d chunks, alternating models; no cache%n", BATCH);
    for (String set : sets.split(",")) {
      String rel = SquadBenchmark.DATASETS.get(set.strip());
      if (rel == null) {
        throw new IllegalArgumentException("unknown set '" + set + "'; known: "
            + String.join(", ", SquadBenchmark.DATASETS.keySet()));
      }
      SquadDataset data = SquadDataset.read(set, shared.resolve(rel));
      List<String> texts = new ArrayList<>();
      for (List<Chunk> cs : SquadCorpus.chunk(data, chunker)) {
        for (Chunk c : cs) {
          if (texts.size() < chunks) {
            texts.add(c.embedText());
          }
        }
      }
      // warm-up: ONNX sessions, JIT
      zh.embedAll(texts.subList(0, BATCH));
      en.embedAll(texts.subList(0, BATCH));
      long zhNs = 0;
      long enNs = 0;
      for (int i = 0; i < texts.size(); i += BATCH) {
        List<String> batch = texts.subList(i, Math.min(texts.size(), i + BATCH));
        List<String> primary = batch.stream().map(routes::primaryInput).toList();
        long t0 = System.nanoTime();
        zh.embedAll(primary);
        long t1 = System.nanoTime();
        en.embedAll(batch);
        long t2 = System.nanoTime();
        zhNs += t1 - t0;
        enNs += t2 - t1;
      }
      double zhRate = texts.size() / (zhNs / 1e9);
      double enRate = texts.size() / (enNs / 1e9);
      System.out.printf(Locale.ROOT, "%-10s %d chunks: bge-small-zh %.1f chunks/s, "
              + "bge-small-en-q %.1f chunks/s; both models %.2f x the zh model's time%n",
          set, texts.size(), zhRate, enRate, (double) (zhNs + enNs) / zhNs);
    }
    return 0;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new EmbeddingCostBenchmark()).execute(args));
  }
}
