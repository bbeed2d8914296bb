package org.openbook.retrieve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.openbook.analysis.Synonyms;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.QueryThreads;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.index.ScoredChunk;
import org.openbook.index.SearchCoverage;

/**
 * Dense + BM25 retrieval fused by a {@link Fusion}. The principal's filter goes into both routes
 * before their top-{@code fetchK} is cut, so forbidden chunks can neither leak nor crowd out
 * permitted ones. The dense route embeds the question's bounded form ({@link BoundedInput}) so
 * an over-long question never fails; the BM25 route reads the full text, expanded with the
 * user's synonyms ({@link Synonyms#expand}).
 *
 * <p>The dense route follows {@link DenseRoutes}: the question is embedded by every model its
 * language routes to; with one vector the dense list is the primary field's cosines, with an
 * English vector too it is the {@link DenseRouteMerge merge} of both fields' results. The gate-1
 * signal {@link SearchResult#bestDenseScore()} is always the primary model's best cosine, so one
 * threshold holds for every question language.
 */
public final class HybridRetriever implements Retriever {

  /** Which routes run; the evaluation harness compares them. */
  public enum Mode { HYBRID, DENSE, SPARSE }

  private final DenseRoutes routes;
  private final DenseSearch dense;
  private final SparseSearch sparse;
  private final Fusion fusion;
  private final Mode mode;
  private final Synonyms synonyms;

  public HybridRetriever(
      Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion, Mode mode) {
    this(embedder, dense, sparse, fusion, mode, Synonyms.NONE);
  }

  /** A retriever whose BM25 route expands the question with {@code synonyms}. */
  public HybridRetriever(Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion,
      Mode mode, Synonyms synonyms) {
    this(DenseRoutes.single(embedder), dense, sparse, fusion, mode, synonyms);
  }

  /**
   * A retriever whose dense route follows {@code routes} (one or two models by the question's
   * language) and whose BM25 route expands the question with {@code synonyms}.
   */
  public HybridRetriever(DenseRoutes routes, DenseSearch dense, SparseSearch sparse,
      Fusion fusion, Mode mode, Synonyms synonyms) {
    this.synonyms = synonyms;
    this.routes = routes;
    this.dense = dense;
    this.sparse = sparse;
    this.fusion = fusion;
    this.mode = mode;
  }

  public HybridRetriever(Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion) {
    this(embedder, dense, sparse, fusion, Mode.HYBRID);
  }

  /** With language routes, no synonyms. */
  public HybridRetriever(DenseRoutes routes, DenseSearch dense, SparseSearch sparse,
      Fusion fusion, Mode mode) {
    this(routes, dense, sparse, fusion, mode, Synonyms.NONE);
  }

  @Override
  public SearchResult retrieve(Query query) throws IOException {
    AccessFilter filter = query.principal().filter();
    if (filter.departments().isEmpty()) {
      return SearchResult.empty();
    }
    // A distributed store may answer from part of its shards (if configured to); the missing
    // shards travel with the result so the answer can say so.
    // The BM25 route runs on a pooled thread while this one embeds the question and searches the
    // dense route: neither needs the other's result, so a search takes about the slower route's
    // time, not their sum (docs/PERFORMANCE.md, "Routes in parallel").
    boolean scaleNeeded = mode == Mode.HYBRID && fusion.usesSparseMaxScore();
    CompletableFuture<SparseRun> sparseRun = mode == Mode.DENSE
        ? CompletableFuture.completedFuture(new SparseRun(
            new SearchCoverage.Tracked<>(List.of(), List.of()), Double.NaN))
        // with no dense route to overlap (SPARSE), on this thread: a hand-off would only add to it
        : CompletableFuture.supplyAsync(() -> sparseRoute(query, filter, scaleNeeded),
            mode == Mode.SPARSE ? Runnable::run : QueryThreads.POOL);
    // the primary field's cosines: gate 1's signal and every hit's denseScore
    List<List<ScoredChunk>> lists = new ArrayList<>(List.of(List.of()));
    SearchCoverage.Tracked<List<ScoredChunk>> d = SearchCoverage.track(() -> {
      if (mode == Mode.SPARSE) {
        return List.of();
      }
      DenseRoutes.RoutedVectors v = routes.embedQuery(query.text());
      List<ScoredChunk> primary = dense.searchDense(v.primary(), query.fetchK(), filter);
      List<ScoredChunk> merged = primary;
      for (var field : v.fields().entrySet()) {
        merged = DenseRouteMerge.merge(merged,
            dense.searchDense(field.getKey(), field.getValue(), query.fetchK(), filter));
      }
      lists.set(0, primary);
      return merged;
    });
    SparseRun sr = join(sparseRun);
    SearchCoverage.Tracked<List<ScoredChunk>> s = sr.hits();
    // an enclosing track() on this thread hears of the BM25 route's missing shards too
    SearchCoverage.reportMissing(s.missingShards());
    double sparseMax = sr.maxScore();
    List<ScoredChunk> primary = lists.get(0);
    List<Hit> fused = fusion.fuse(d.value(), s.value(), sparseMax);
    List<Hit> top = fused.size() <= query.topK() ? fused : fused.subList(0, query.topK());
    if (d.value() != primary) {
      top = withPrimaryCosines(top, primary);
    }
    double best = primary.isEmpty() ? Double.NaN : primary.get(0).score();
    Set<String> missing = new TreeSet<>(d.missingShards());
    missing.addAll(s.missingShards());
    return new SearchResult(top, best, d.value().size(), s.value().size(), List.copyOf(missing));
  }

  /** The BM25 route's hits with the shards it missed, and the query's maximum BM25 score. */
  private record SparseRun(SearchCoverage.Tracked<List<ScoredChunk>> hits, double maxScore) {}

  private SparseRun sparseRoute(Query query, AccessFilter filter, boolean scaleNeeded) {
    try {
      SearchCoverage.Tracked<List<ScoredChunk>> s = SearchCoverage.track(() ->
          sparse.searchSparse(synonyms.expand(query.text()), query.fetchK(), filter));
      double max = scaleNeeded && !s.value().isEmpty()
          ? sparse.maxSparseScore(query.text()) : Double.NaN;
      return new SparseRun(s, max);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The route's result, with its own exception type restored. */
  private static SparseRun join(CompletableFuture<SparseRun> run) throws IOException {
    try {
      return QueryThreads.join(run);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * {@code hits} with each dense score set to the primary field's cosine: after a route merge
   * the fused dense score is a merged, normalised value, while {@link Hit#denseScore()} promises
   * a cosine (gate 1 compares it with its threshold). NaN for a chunk only a language field
   * found; its dense rank (in the merged list) stays.
   */
  private static List<Hit> withPrimaryCosines(List<Hit> hits, List<ScoredChunk> primary) {
    Map<String, Double> cosine = new HashMap<>();
    for (ScoredChunk c : primary) {
      cosine.put(c.chunk().id(), c.score());
    }
    return hits.stream().map(h -> h.denseRank() == 0 ? h : new Hit(h.chunk(), h.denseRank(),
        cosine.getOrDefault(h.chunk().id(), Double.NaN), h.sparseRank(), h.sparseScore(),
        h.fusedScore(), h.rerankScore(), h.rerankRank())).toList();
  }
}
