package org.openbook.retrieve;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.openbook.embed.Embedder;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.index.ScoredChunk;
import org.openbook.index.SearchCoverage;

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
  public SearchResult retrieve(Query query) throws IOException {
    AccessFilter filter = query.principal().filter();
    if (filter.departments().isEmpty()) {
      return SearchResult.empty();
    }
    // A distributed store may answer from part of its shards (if configured to); the missing
    // shards travel with the result so the answer can say so.
    SearchCoverage.Tracked<List<ScoredChunk>> d = SearchCoverage.track(() -> mode == Mode.SPARSE
        ? List.of()
        : dense.searchDense(embedder.embed(query.text()), query.fetchK(), filter));
    SearchCoverage.Tracked<List<ScoredChunk>> s = SearchCoverage.track(() -> mode == Mode.DENSE
        ? List.of()
        : sparse.searchSparse(query.text(), query.fetchK(), filter));
    double sparseMax = mode == Mode.HYBRID && !s.value().isEmpty()
        ? sparse.maxSparseScore(query.text()) : Double.NaN;
    List<Hit> fused = fusion.fuse(d.value(), s.value(), sparseMax);
    List<Hit> top = fused.size() <= query.topK() ? fused : fused.subList(0, query.topK());
    double best = d.value().isEmpty() ? Double.NaN : d.value().get(0).score();
    Set<String> missing = new TreeSet<>(d.missingShards());
    missing.addAll(s.missingShards());
    return new SearchResult(top, best, d.value().size(), s.value().size(), List.copyOf(missing));
  }
}
