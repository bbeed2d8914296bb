package org.openbook.retrieve;

import java.io.IOException;
import java.util.List;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.index.ScoredChunk;

/**
 * Dense + BM25 retrieval fused by a {@link Fusion}. The principal's filter goes into both routes
 * before their top-{@code fetchK} is cut, so forbidden chunks can neither leak nor crowd out
 * permitted ones.
 *
 * <p>The dense route follows {@link DenseRoutes}: the question is embedded by every model its
 * language routes to; with one vector the dense list is the primary field's cosines, with an
 * English vector too it is the {@link DenseRouteMerge merge} of both fields' results. The gate-1
 * signal {@link Retrieval#bestDenseScore()} is always the primary model's best cosine, so one
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

  public HybridRetriever(
      DenseRoutes routes, DenseSearch dense, SparseSearch sparse, Fusion fusion, Mode mode) {
    this.routes = routes;
    this.dense = dense;
    this.sparse = sparse;
    this.fusion = fusion;
    this.mode = mode;
  }

  /** With one model ({@link DenseRoutes#single}). */
  public HybridRetriever(
      Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion, Mode mode) {
    this(DenseRoutes.single(embedder), dense, sparse, fusion, mode);
  }

  public HybridRetriever(Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion) {
    this(embedder, dense, sparse, fusion, Mode.HYBRID);
  }

  public HybridRetriever(DenseRoutes routes, DenseSearch dense, SparseSearch sparse,
      Fusion fusion) {
    this(routes, dense, sparse, fusion, Mode.HYBRID);
  }

  @Override
  public Retrieval retrieve(Query query) throws IOException {
    AccessFilter filter = query.principal().filter();
    if (filter.departments().isEmpty()) {
      return Retrieval.empty();
    }
    List<ScoredChunk> primary = List.of();
    List<ScoredChunk> d = List.of();
    if (mode != Mode.SPARSE) {
      DenseRoutes.RoutedVectors v = routes.embedQuery(query.text());
      primary = dense.searchDense(v.primary(), query.fetchK(), filter);
      d = primary;
      for (var field : v.fields().entrySet()) {
        d = DenseRouteMerge.merge(d,
            dense.searchDense(field.getKey(), field.getValue(), query.fetchK(), filter));
      }
    }
    List<ScoredChunk> s = mode == Mode.DENSE
        ? List.of()
        : sparse.searchSparse(query.text(), query.fetchK(), filter);
    List<Hit> fused = fusion.fuse(d, s);
    List<Hit> top = fused.size() <= query.topK() ? fused : fused.subList(0, query.topK());
    double best = primary.isEmpty() ? Double.NaN : primary.get(0).score();
    return new Retrieval(top, best, d.size(), s.size());
  }
}
