package org.openbook.retrieve;

import java.io.IOException;
import java.util.List;
import org.openbook.embed.Embedder;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.index.ScoredChunk;

/**
 * Dense + BM25 retrieval fused by a {@link Fusion}. The principal's filter goes into both routes
 * before their top-{@code fetchK} is cut, so forbidden chunks can neither leak nor crowd out
 * permitted ones.
 */
public final class HybridRetriever implements Retriever {

  /** Which routes run; the evaluation harness compares them. */
  public enum Mode { HYBRID, DENSE, SPARSE }

  private final Embedder embedder;
  private final DenseSearch dense;
  private final SparseSearch sparse;
  private final Fusion fusion;
  private final Mode mode;

  public HybridRetriever(
      Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion, Mode mode) {
    this.embedder = embedder;
    this.dense = dense;
    this.sparse = sparse;
    this.fusion = fusion;
    this.mode = mode;
  }

  public HybridRetriever(Embedder embedder, DenseSearch dense, SparseSearch sparse, Fusion fusion) {
    this(embedder, dense, sparse, fusion, Mode.HYBRID);
  }

  @Override
  public Retrieval retrieve(Query query) throws IOException {
    AccessFilter filter = query.principal().filter();
    if (filter.departments().isEmpty()) {
      return Retrieval.empty();
    }
    List<ScoredChunk> d = mode == Mode.SPARSE
        ? List.of()
        : dense.searchDense(embedder.embed(query.text()), query.fetchK(), filter);
    List<ScoredChunk> s = mode == Mode.DENSE
        ? List.of()
        : sparse.searchSparse(query.text(), query.fetchK(), filter);
    double sparseMax = mode == Mode.HYBRID && !s.isEmpty()
        ? sparse.maxSparseScore(query.text()) : Double.NaN;
    List<Hit> fused = fusion.fuse(d, s, sparseMax);
    List<Hit> top = fused.size() <= query.topK() ? fused : fused.subList(0, query.topK());
    double best = d.isEmpty() ? Double.NaN : d.get(0).score();
    return new Retrieval(top, best, d.size(), s.size());
  }
}
