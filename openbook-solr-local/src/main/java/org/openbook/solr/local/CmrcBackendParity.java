package org.openbook.solr.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.engine.OpenBook;
import org.openbook.engine.StoreFactory;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.bench.SquadCorpus;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.StructuredChunker;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.CachingEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.embed.EmbeddingCache;
import org.openbook.eval.Judged;
import org.openbook.eval.RankingMetrics;
import org.openbook.eval.SquadDataset;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Retriever;
import org.openbook.solr.SolrAdmin;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Retrieval parity of the embedded Lucene store and a SolrCloud collection on CMRC 2018 (dev):
 * corpus = the 848 contexts as one document each ({@link SquadCorpus}, the app's default
 * chunker), queries = the 3,219 questions, gold = the question's own context. Both stores are
 * filled with the same chunks and vectors through {@link StoreFactory} and then searched through
 * {@link OpenBook} exactly as the app does (default config, so fusion {@value
 * OpenBook#DEFAULT_FUSION}, top 10, the app's fetch-k), plus dense-only and BM25-only with the same
 * fusion.
 *
 * <p>Prints, per store and mode, R@1, R@5 and MRR@10, and per mode the number of questions whose
 * top-5 chunk ids differ (in order; as a set), and the largest absolute difference of the fused
 * scores at the same rank in the top 10. Embeddings come from bge-small-zh-v1.5 through an
 * {@link EmbeddingCache} ({@code --cache}), so a warm cache makes the run model-free.
 *
 * <p>Without {@code --solr-url} a 2-node {@link MiniSolrCloudCluster} is started in this JVM
 * (NOT FOR PRODUCTION, as {@link LocalSolrCloud}). The collection is recreated on every run.
 */
@Command(name = "cmrc-backend-parity", mixinStandardHelpOptions = true,
    description = "Lucene vs SolrCloud retrieval parity on CMRC 2018 dev.")
public final class CmrcBackendParity implements Callable<Integer> {

  /** Ranks compared and scored. */
  static final int TOP_K = 10;

  @Option(names = "--data", description = "cmrc2018_dev.json (default: "
      + "$openbook.shared/datasets/cmrc2018/cmrc2018_dev.json, else ../shared/…).")
  Path data;

  @Option(names = "--cache", defaultValue = "/tmp/openbook-bench/embedding-cache",
      description = "Embedding cache folder, shared with squad-benchmark (default: ${DEFAULT-VALUE}).")
  Path cacheDir;

  @Option(names = "--work", defaultValue = "/tmp/openbook-parity",
      description = "Lucene index, Solr nodes and logs; emptied first (default: ${DEFAULT-VALUE}).")
  Path work;

  @Option(names = "--solr-url", split = ",",
      description = "Existing SolrCloud node URL(s); without it a 2-node cluster starts in-process.")
  List<String> solrUrls;

  @Option(names = "--collection", defaultValue = "cmrc2018_parity",
      description = "Solr collection, deleted and recreated (default: ${DEFAULT-VALUE}).")
  String collection;

  @Option(names = "--shards", defaultValue = "2", description = "Shards (default: ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--limit", description = "Only the first N questions (quick runs).")
  Integer limit;

  @Override
  public Integer call() throws Exception {
    Path file = data != null ? data : sharedDir().resolve("datasets/cmrc2018/cmrc2018_dev.json");
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("CMRC 2018 file not found: " + file);
    }
    SquadDataset set = SquadDataset.read("cmrc2018", file);
    List<SquadDataset.Question> questions = limit == null ? set.questions()
        : set.questions().subList(0, Math.min(limit, set.questions().size()));
    Files.createDirectories(work);
    MiniSolrCloudCluster cluster = null;
    try (EmbeddingCache cache = EmbeddingCache.open(cacheDir)) {
      List<String> urls = solrUrls;
      if (urls == null || urls.isEmpty()) {
        System.setProperty("solr.log.dir", work.resolve("solr-logs").toString());
        Path nodes = work.resolve("solr");
        deleteTree(nodes);
        cluster = new MiniSolrCloudCluster.Builder(2, nodes).configure();
        urls = List.of(cluster.getJettySolrRunner(0).getBaseUrl().toString(),
            cluster.getJettySolrRunner(1).getBaseUrl().toString());
      }
      Embedder embedder = new CachingEmbedder(new BgeSmallZhEmbedder(), cache);
      OpenBookConfig luceneConfig = OpenBookConfig.defaults();
      OpenBookConfig solrConfig = solrConfig(urls);
      TextAnalysis analysis = OpenBookAnalysis.defaultAnalysis();
      // As OpenBook builds them, so that OpenBook opens these stores in READ mode unchanged.
      StructuredChunker chunker = new StructuredChunker(luceneConfig.chunking().settings(),
          embedder::countTokens, embedder.maxInputTokens());
      IndexManifest manifest = new IndexManifest(embedder.modelId(), embedder.dimension(),
          IndexManifest.COSINE, analysis.id(), chunker.settings().id(), 0, 0);

      long t0 = System.nanoTime();
      List<List<EmbeddedChunk>> corpus = embed(SquadCorpus.chunk(set, chunker), embedder);
      for (SquadDataset.Question q : questions) {
        embedder.embed(q.text()); // warms the cache so no route pays for the model later
      }
      cache.commit();
      System.err.printf(Locale.ROOT, "embedded %d paragraphs, %d questions in %.1f s "
          + "(cache hits %d, misses %d)%n", corpus.size(), questions.size(), secs(t0),
          cache.hits(), cache.misses());

      Path luceneDir = work.resolve("lucene");
      Path solrState = work.resolve("solr-state");
      try (var client = StoreFactory.solrConfig(solrConfig.store(), Map.of()).newClient()) {
        SolrAdmin admin = new SolrAdmin(client);
        if (admin.exists(collection)) {
          admin.delete(collection);
        }
      }
      long chunks = fill(luceneDir, luceneConfig, manifest, analysis, corpus, "lucene");
      fill(solrState, solrConfig, manifest, analysis, corpus, "solr");

      try (OpenBook lucene = OpenBook.open(luceneDir, luceneConfig, embedder, false, false);
          OpenBook solr = OpenBook.open(solrState, solrConfig, embedder, false, false)) {
        System.out.printf(Locale.ROOT, "CMRC 2018 dev: %d paragraphs -> %d chunks (chunker %s),"
            + " %d questions; fusion %s, top %d, fetch-k %d; solr %d shards on %s%n",
            corpus.size(), chunks, chunker.settings().id(), questions.size(),
            lucene.fusion().id(), TOP_K, lucene.query("x", Principal.ANONYMOUS, TOP_K).fetchK(),
            shards, urls);
        System.out.printf(Locale.ROOT, "chunks: lucene %d, solr %d%n", lucene.count(),
            solr.count());
        System.out.println();
        System.out.println("| mode | store | R@1 | R@5 | MRR@10 | top-5 ids differ (order) "
            + "| top-5 ids differ (set) | gold rank differs (top 10) | max abs fused-score diff "
            + "(top 10) |");
        System.out.println("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (HybridRetriever.Mode mode : HybridRetriever.Mode.values()) {
          compare(mode, lucene, solr, embedder, questions);
        }
        int fetchK = lucene.query("x", Principal.ANONYMOUS, TOP_K).fetchK();
        System.out.println();
        System.out.printf(Locale.ROOT, "| route (top %d candidates) | questions whose candidate "
            + "ids differ | lucene recall of exact top %d | solr recall of exact top %d "
            + "| max abs score diff, same chunk |%n", fetchK, fetchK, fetchK);
        System.out.println("| --- | ---: | ---: | ---: | ---: |");
        routes(lucene.store(), solr.store(), embedder, corpus, questions, fetchK);
      }
      return 0;
    } finally {
      if (cluster != null) {
        cluster.shutdown();
      }
    }
  }

  private OpenBookConfig solrConfig(List<String> urls) throws IOException {
    Path yaml = work.resolve("openbook-solr.yaml");
    Files.writeString(yaml, "store:\n  type: solr\n  solrUrls: [" + String.join(", ", urls)
        + "]\n  collection: " + collection + "\n  shards: " + shards + "\n  replicas: 1\n",
        StandardCharsets.UTF_8);
    return ConfigLoader.read(yaml);
  }

  /** Writes every paragraph's chunks into the configured store from scratch; returns chunks. */
  private static long fill(Path index, OpenBookConfig config, IndexManifest manifest,
      TextAnalysis analysis, List<List<EmbeddedChunk>> corpus, String name) throws IOException {
    long t0 = System.nanoTime();
    long n = 0;
    try (IndexStore store = StoreFactory.open(config.store(), index, manifest, analysis,
        StoreFactory.Mode.RESET, Map.of())) {
      for (List<EmbeddedChunk> doc : corpus) {
        store.replaceDocument(doc.get(0).chunk().docId(), doc);
        n += doc.size();
      }
      store.commit();
    }
    System.err.printf(Locale.ROOT, "indexed %d chunks into %s in %.1f s%n", n, name, secs(t0));
    return n;
  }

  private static List<List<EmbeddedChunk>> embed(List<List<Chunk>> chunks, Embedder embedder) {
    List<List<EmbeddedChunk>> out = new ArrayList<>(chunks.size());
    for (List<Chunk> cs : chunks) {
      out.add(SquadCorpus.embed(cs, embedder));
    }
    return out;
  }

  /** Runs every question on both stores in {@code mode} and prints two table rows. */
  private void compare(HybridRetriever.Mode mode, OpenBook lucene, OpenBook solr,
      Embedder embedder, List<SquadDataset.Question> questions) throws IOException {
    Retriever l = retriever(mode, lucene, embedder);
    Retriever s = retriever(mode, solr, embedder);
    double[] lm = new double[3];
    double[] sm = new double[3];
    int orderDiffers = 0;
    int setDiffers = 0;
    int goldDiffers = 0;
    double maxScoreDiff = 0;
    long t0 = System.nanoTime();
    for (SquadDataset.Question q : questions) {
      List<Hit> lh = l.retrieve(lucene.query(q.text(), Principal.ANONYMOUS, TOP_K)).hits();
      List<Hit> sh = s.retrieve(solr.query(q.text(), Principal.ANONYMOUS, TOP_K)).hits();
      goldDiffers += add(lm, q, lh) == add(sm, q, sh) ? 0 : 1;
      List<String> l5 = ids(lh, 5);
      List<String> s5 = ids(sh, 5);
      if (!l5.equals(s5)) {
        orderDiffers++;
        if (!new java.util.HashSet<>(l5).equals(new java.util.HashSet<>(s5))) {
          setDiffers++;
        }
      }
      for (int i = 0; i < Math.min(lh.size(), sh.size()); i++) {
        maxScoreDiff = Math.max(maxScoreDiff,
            Math.abs(lh.get(i).fusedScore() - sh.get(i).fusedScore()));
      }
      if (lh.size() != sh.size()) {
        maxScoreDiff = Double.POSITIVE_INFINITY; // a store returned fewer hits: not comparable
      }
    }
    int n = questions.size();
    String m = mode.name().toLowerCase(Locale.ROOT);
    System.out.printf(Locale.ROOT, "| %s | lucene | %.4f | %.4f | %.4f | | | | |%n", m,
        lm[0] / n, lm[1] / n, lm[2] / n);
    System.out.printf(Locale.ROOT,
        "| %s | solr (%d shards) | %.4f | %.4f | %.4f | %d | %d | %d | %.2e |%n", m,
        shards, sm[0] / n, sm[1] / n, sm[2] / n, orderDiffers, setDiffers, goldDiffers,
        maxScoreDiff);
    System.out.flush();
    System.err.printf(Locale.ROOT, "%s: %d questions x 2 stores in %.1f s%n", m, n, secs(t0));
  }

  /**
   * Compares the two routes below the fusion: for each question the dense and BM25 candidate
   * lists of both stores (same fetch-k, anonymous filter), the share of the exact dense top-k
   * (brute-force cosine over all chunk vectors) each store's HNSW returns, and the largest score
   * difference of a chunk both stores return.
   */
  private static void routes(IndexStore lucene, IndexStore solr, Embedder embedder,
      List<List<EmbeddedChunk>> corpus, List<SquadDataset.Question> questions, int fetchK)
      throws IOException {
    List<EmbeddedChunk> all = corpus.stream().flatMap(List::stream).toList();
    var filter = Principal.ANONYMOUS.filter();
    int denseDiffer = 0;
    int sparseDiffer = 0;
    double denseDiff = 0;
    double sparseDiff = 0;
    double lRecall = 0;
    double sRecall = 0;
    for (SquadDataset.Question q : questions) {
      float[] v = embedder.embed(q.text());
      List<ScoredChunk> ld = lucene.searchDense(v, fetchK, filter);
      List<ScoredChunk> sd = solr.searchDense(v, fetchK, filter);
      java.util.Set<String> exact = exactTop(all, v, fetchK);
      lRecall += share(exact, ld);
      sRecall += share(exact, sd);
      denseDiffer += idSet(ld).equals(idSet(sd)) ? 0 : 1;
      denseDiff = Math.max(denseDiff, maxSameChunkDiff(ld, sd));
      List<ScoredChunk> ls = lucene.searchSparse(q.text(), fetchK, filter);
      List<ScoredChunk> ss = solr.searchSparse(q.text(), fetchK, filter);
      sparseDiffer += idSet(ls).equals(idSet(ss)) ? 0 : 1;
      sparseDiff = Math.max(sparseDiff, maxSameChunkDiff(ls, ss));
    }
    int n = questions.size();
    System.out.printf(Locale.ROOT, "| dense (cosine) | %d | %.4f | %.4f | %.2e |%n", denseDiffer,
        lRecall / n, sRecall / n, denseDiff);
    System.out.printf(Locale.ROOT, "| bm25 | %d | | | %.2e |%n", sparseDiffer, sparseDiff);
    System.out.flush();
  }

  /** Ids of the {@code k} chunks of highest cosine with {@code q} (vectors are unit length). */
  private static java.util.Set<String> exactTop(List<EmbeddedChunk> all, float[] q, int k) {
    java.util.PriorityQueue<Map.Entry<String, Double>> best =
        new java.util.PriorityQueue<>(Map.Entry.comparingByValue());
    for (EmbeddedChunk c : all) {
      double dot = 0;
      for (int d = 0; d < q.length; d++) {
        dot += q[d] * c.vector()[d];
      }
      best.add(Map.entry(c.chunk().id(), dot));
      if (best.size() > k) {
        best.poll();
      }
    }
    java.util.Set<String> out = new java.util.HashSet<>();
    best.forEach(e -> out.add(e.getKey()));
    return out;
  }

  private static double share(java.util.Set<String> exact, List<ScoredChunk> found) {
    return found.stream().filter(c -> exact.contains(c.chunk().id())).count()
        / (double) exact.size();
  }

  private static java.util.Set<String> idSet(List<ScoredChunk> hits) {
    java.util.Set<String> out = new java.util.HashSet<>();
    hits.forEach(h -> out.add(h.chunk().id()));
    return out;
  }

  private static double maxSameChunkDiff(List<ScoredChunk> a, List<ScoredChunk> b) {
    Map<String, Double> byId = new java.util.HashMap<>();
    a.forEach(h -> byId.put(h.chunk().id(), h.score()));
    double max = 0;
    for (ScoredChunk h : b) {
      Double other = byId.get(h.chunk().id());
      if (other != null) {
        max = Math.max(max, Math.abs(other - h.score()));
      }
    }
    return max;
  }

  private static Retriever retriever(HybridRetriever.Mode mode, OpenBook e, Embedder embedder) {
    return mode == HybridRetriever.Mode.HYBRID ? e.retriever()
        : new HybridRetriever(embedder, e.store(), e.store(), e.fusion(), mode);
  }

  /**
   * Adds R@1, R@5 and the reciprocal rank within 10 of one ranking to {@code sums}; returns that
   * reciprocal rank (0 when the gold paragraph is not in the top 10).
   */
  private static double add(double[] sums, SquadDataset.Question q, List<Hit> hits) {
    Judged j = SquadCorpus.judge(q, hits.stream().map(h -> h.chunk().docId()).toList());
    double rr = RankingMetrics.reciprocalRank(j, 10);
    sums[0] += RankingMetrics.recall(j, 1);
    sums[1] += RankingMetrics.recall(j, 5);
    sums[2] += rr;
    return rr;
  }


  private static List<String> ids(List<Hit> hits, int k) {
    return hits.stream().limit(k).map(h -> h.chunk().id()).toList();
  }

  private static double secs(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static Path sharedDir() {
    String p = System.getProperty("openbook.shared");
    return p != null ? Path.of(p) : Path.of("..", "shared");
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** Runs the comparison; exit code 0, or 1 with the error on standard error. */
  public static void main(String[] args) {
    int code = new CommandLine(new CmrcBackendParity()).execute(args);
    // Solr's and ZooKeeper's threads are not daemons.
    System.exit(code);
  }
}
