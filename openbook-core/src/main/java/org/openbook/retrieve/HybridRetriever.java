package org.openbook.retrieve;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.openbook.analysis.Synonyms;
import org.openbook.embed.BoundedInput;
import org.openbook.embed.Embedder;
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
 */
public final class HybridRetriever implements Retriever {

  /** Which routes run; the evaluation harness compares them. */
  public enum Mode { HYBRID, DENSE, SPARSE }

  private final Embedder embedder;
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
    this.synonyms = synonyms;
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
        : dense.searchDense(embedder.embed(BoundedInput.of(query.text(), embedder)),
            query.fetchK(), filter));
    SearchCoverage.Tracked<List<ScoredChunk>> s = SearchCoverage.track(() -> mode == Mode.DENSE
        ? List.of()
        : sparse.searchSparse(synonyms.expand(query.text()), query.fetchK(), filter));
    boolean scaleNeeded = mode == Mode.HYBRID && fusion.usesSparseMaxScore();
    double sparseMax = scaleNeeded && !s.value().isEmpty()
        ? sparse.maxSparseScore(query.text()) : Double.NaN;
    List<Hit> fused = fusion.fuse(d.value(), s.value(), sparseMax);
    List<Hit> top = fused.size() <= query.topK() ? fused : fused.subList(0, query.topK());
    double best = d.value().isEmpty() ? Double.NaN : d.value().get(0).score();
    Set<String> missing = new TreeSet<>(d.missingShards());
    missing.addAll(s.missingShards());
    return new SearchResult(top, best, d.value().size(), s.value().size(), List.copyOf(missing));
  }
}
