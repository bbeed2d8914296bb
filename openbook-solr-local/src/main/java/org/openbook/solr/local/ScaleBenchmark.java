package org.openbook.solr.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexStore;
import org.openbook.index.ScoredChunk;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.solr.SolrAdmin;
import org.openbook.solr.SolrChunkStore;
import org.openbook.solr.SolrStoreConfig;

/**
 * Ingest throughput and query latency of the embedded Lucene store and a SolrCloud collection on
 * the same synthetic corpus (docs/SCALING.md).
 *
 * <p>Corpus: {@code CHUNKS} chunks, {@value #CHUNKS_PER_DOC} per document, each 4–8 sentences
 * drawn (fixed seed) from the Markdown files under {@code TEXT_DIR} (real Chinese text, so BM25
 * sees realistic term statistics), with a random unit vector of {@value #DIM} dimensions (the
 * size of bge-small-zh-v1.5; random vectors have no cluster structure, the hard case for HNSW)
 * and a department among public/hr/finance. Queries: {@code QUERIES} random pool sentences
 * (sparse) and random unit vectors (dense), top {@value #TOP_N}, filter {public, hr}, one at a
 * time after {@value #WARMUP} warm-up queries. Dense recall: the share of the exact filtered
 * top-10 (brute force over the same vectors) each store returns, for 100 random queries.
 *
 * <p>Usage: {@code ScaleBenchmark CHUNKS QUERIES TEXT_DIR LUCENE_DIR SOLR_URL[,URL] COLLECTION
 * SHARDS}. The collection is deleted first if it exists.
 */
public final class ScaleBenchmark {

  static final int DIM = 512;
  static final int CHUNKS_PER_DOC = 20;
  static final int COMMIT_EVERY = 20_000;
  static final int TOP_N = 50;
  static final int WARMUP = 30;
  private static final AccessFilter FILTER = new AccessFilter(Set.of("public", "hr"));
  private static final String[] DEPTS = {"public", "hr", "finance"};
  /** The corpus of the first ingest, by chunk number, for the brute-force recall. */
  private static final List<float[]> VECTORS = new ArrayList<>();
  private static final List<String> DEPT_OF = new ArrayList<>();
  private static final List<String> ID_OF = new ArrayList<>();

  private ScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    int chunks = Integer.parseInt(args[0]);
    int queries = Integer.parseInt(args[1]);
    List<String> pool = sentences(Path.of(args[2]));
    Path luceneDir = Path.of(args[3]);
    List<String> urls = Arrays.asList(args[4].split(","));
    String collection = args[5];
    int shards = Integer.parseInt(args[6]);
    System.out.printf("corpus: %,d chunks (%d per document), %d dims, sentence pool %,d%n",
        chunks, CHUNKS_PER_DOC, DIM, pool.size());

    TextAnalysis analysis = OpenBookAnalysis.defaultAnalysis();
    IndexManifest manifest = new IndexManifest("synthetic-random-" + DIM, DIM,
        IndexManifest.COSINE, analysis.id(), "synthetic", 0, 0);
    SolrStoreConfig solrConfig = new SolrStoreConfig(urls, List.of(), null, collection, shards, 1,
        null, null);
    try (var client = solrConfig.newClient()) {
      SolrAdmin admin = new SolrAdmin(client);
      if (admin.exists(collection)) {
        admin.delete(collection);
      }
    }
    try (LuceneChunkStore lucene = LuceneChunkStore.create(luceneDir, manifest, analysis);
        SolrChunkStore solr = SolrChunkStore.open(solrConfig, manifest, analysis)) {
      report("lucene", ingest(lucene, chunks, pool, analysis), chunks);
      report("solr(" + shards + " shards)", ingest(solr, chunks, pool, analysis), chunks);
      for (String route : List.of("dense", "sparse")) {
        long[] l = latencies(lucene, route, queries, pool);
        long[] s = latencies(solr, route, queries, pool);
        System.out.printf("%s top-%d: lucene %s | solr %s%n", route, TOP_N, summary(l),
            summary(s));
      }
      for (int k : new int[] {10, TOP_N}) {
        System.out.printf("dense recall of the exact filtered top-10 when asking for top-%d:"
            + " lucene %.3f | solr %.3f%n", k, recall(lucene, chunks, queries, k),
            recall(solr, chunks, queries, k));
      }
    }
  }

  private static void report(String name, long millis, int chunks) {
    System.out.printf("ingest %s: %,d chunks in %.1f s = %,.0f chunks/s (incl. commits)%n", name,
        chunks, millis / 1000.0, chunks * 1000.0 / millis);
  }

  /** Ingests the corpus (same seed for every store) and returns the wall time in ms. */
  private static long ingest(IndexStore store, int chunks, List<String> pool,
      TextAnalysis analysis) throws IOException {
    Random random = new Random(42);
    long t0 = System.nanoTime();
    int written = 0;
    for (int d = 0; written < chunks; d++) {
      String docId = "synthetic/doc-" + d + ".md";
      String dept = DEPTS[random.nextInt(DEPTS.length)];
      List<EmbeddedChunk> doc = new ArrayList<>();
      for (int o = 0; o < CHUNKS_PER_DOC && written < chunks; o++, written++) {
        StringBuilder text = new StringBuilder();
        for (int k = 4 + random.nextInt(5); k > 0; k--) {
          text.append(pool.get(random.nextInt(pool.size())));
        }
        String raw = text.toString();
        Chunk c = new Chunk(docId + "#" + o, docId, o, raw, raw, List.of("合成", "文档 " + d), 0,
            0, raw.length(), Map.of("source", docId, "dept", dept, "contentHash", "h" + d));
        float[] vector = randomUnit(random);
        if (VECTORS.size() < chunks) {
          VECTORS.add(vector);
          DEPT_OF.add(dept);
          ID_OF.add(c.id());
        }
        doc.add(new EmbeddedChunk(c, vector));
      }
      store.replaceDocument(docId, doc);
      if (written % COMMIT_EVERY == 0 || written == chunks) {
        store.commit();
      }
    }
    return (System.nanoTime() - t0) / 1_000_000;
  }

  /** Per-query latencies in microseconds, after the warm-up. */
  private static long[] latencies(IndexStore store, String route, int queries, List<String> pool)
      throws IOException {
    Random random = new Random(7);
    long[] out = new long[queries];
    for (int i = -WARMUP; i < queries; i++) {
      float[] v = randomUnit(random);
      String text = pool.get(random.nextInt(pool.size()));
      long t0 = System.nanoTime();
      List<ScoredChunk> hits = route.equals("dense")
          ? store.searchDense(v, TOP_N, FILTER) : store.searchSparse(text, TOP_N, FILTER);
      long micros = (System.nanoTime() - t0) / 1000;
      if (hits.isEmpty() && route.equals("dense")) {
        throw new IllegalStateException("dense search found nothing");
      }
      if (i >= 0) {
        out[i] = micros;
      }
    }
    Arrays.sort(out);
    return out;
  }

  /**
   * Mean share of the exact top-10 (brute force over the corpus vectors, same filter) that the
   * store's HNSW search returns among its top {@code k}.
   */
  private static double recall(IndexStore store, int chunks, int queries, int k)
      throws IOException {
    Random random = new Random(11);
    double sum = 0;
    for (int i = 0; i < Math.min(queries, 100); i++) {
      float[] v = randomUnit(random);
      Set<String> found = ids(store.searchDense(v, k, FILTER));
      List<String> exact = exactTop10(v, chunks);
      sum += exact.stream().filter(found::contains).count() / 10.0;
    }
    return sum / Math.min(queries, 100);
  }

  private static List<String> exactTop10(float[] q, int chunks) {
    java.util.PriorityQueue<Map.Entry<String, Double>> best =
        new java.util.PriorityQueue<>(Map.Entry.comparingByValue());
    for (int i = 0; i < chunks; i++) {
      if (!FILTER.departments().contains(DEPT_OF.get(i))) {
        continue;
      }
      float[] v = VECTORS.get(i);
      double dot = 0;
      for (int d = 0; d < DIM; d++) {
        dot += q[d] * v[d];
      }
      best.add(Map.entry(ID_OF.get(i), dot));
      if (best.size() > 10) {
        best.poll();
      }
    }
    return best.stream().map(Map.Entry::getKey).toList();
  }

  private static Set<String> ids(List<ScoredChunk> hits) {
    Set<String> out = new java.util.HashSet<>();
    hits.forEach(h -> out.add(h.chunk().id()));
    return out;
  }

  private static String summary(long[] sortedMicros) {
    double mean = Arrays.stream(sortedMicros).average().orElse(0);
    return String.format("p50 %.1f ms, p95 %.1f ms, mean %.1f ms",
        sortedMicros[sortedMicros.length / 2] / 1000.0,
        sortedMicros[(int) Math.ceil(sortedMicros.length * 0.95) - 1] / 1000.0, mean / 1000.0);
  }

  private static float[] randomUnit(Random random) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < DIM; i++) {
      v[i] *= inv;
    }
    return v;
  }

  /** Non-blank lines of the Markdown files under {@code dir}, code fences dropped. */
  private static List<String> sentences(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(dir)) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(p -> {
        try {
          for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
            String t = line.strip();
            if (t.length() >= 8 && !t.startsWith("```") && !t.startsWith("|")) {
              out.add(t.length() > 200 ? t.substring(0, 200) : t);
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(p.toString(), e);
        }
      });
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no Markdown text under " + dir);
    }
    return out;
  }
}
