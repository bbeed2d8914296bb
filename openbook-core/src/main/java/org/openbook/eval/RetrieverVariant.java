package org.openbook.eval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.retrieve.Fusion;
import org.openbook.retrieve.HybridRetriever.Mode;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.MinMaxFusion;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.RrfFusion;

/**
 * A named retrieval configuration to evaluate.
 *
 * @param name        the name as given on the command line, e.g. {@code hybrid}
 * @param description what runs, e.g. {@code dense+bm25 rrf(k=60.0,dense=1.0,sparse=1.0)}
 * @param retriever   the retriever
 * @param hasDense    whether the dense route runs (gate 1 needs its best cosine, so refusal is
 *                    only measured when true)
 */
public record RetrieverVariant(String name, String description, Retriever retriever,
    boolean hasDense) {

  /** The configurations {@code openbook eval} runs when none are named. */
  public static final String DEFAULT_SPEC = "dense,bm25,rrf,minmax,hybrid";

  /**
   * Builds the configurations named in {@code spec}, a comma-separated list of:
   * <ul>
   *   <li>{@code dense} — dense route only; {@code bm25} — BM25 route only;</li>
   *   <li>{@code hybrid} — both routes fused by {@code configured} (what {@code ask} uses);</li>
   *   <li>{@code rrf} or {@code rrf:k=K:d=WD:s=WS} — RRF with the given constant and weights
   *       (each part optional, defaults from {@link RrfFusion#DEFAULT});</li>
   *   <li>{@code minmax} or {@code minmax:d=WD:c=C:g=G} — min-max normalised fusion with dense
   *       weight WD (default 0.5) and BM25 weight 1 − WD; C is the dense route's minimum spread
   *       in cosine units, G the BM25 route's as a share of the query's maximum attainable BM25
   *       score (both default 0: plain min-max; see {@link MinMaxFusion}).</li>
   *   <li>any of these followed by {@code +rerank} — see the overload with a reranking stage.</li>
   * </ul>
   *
   * @throws IllegalArgumentException naming the offending entry for an unknown name or bad number
   */
  public static List<RetrieverVariant> parse(String spec, Embedder embedder, DenseSearch dense,
      SparseSearch sparse, Fusion configured) {
    return parse(spec, embedder, dense, sparse, configured, null);
  }

  /**
   * As {@link #parse(String, Embedder, DenseSearch, SparseSearch, Fusion)}, where any entry may
   * end in {@code +rerank} (e.g. {@code hybrid+rerank}): that configuration followed by the
   * reranking stage {@code rerank} (the one {@code ask} uses).
   *
   * @param rerank wraps a retriever in the configured reranking stage, or null when none is
   *               configured (then a {@code +rerank} entry is an error saying so)
   */
  public static List<RetrieverVariant> parse(String spec, Embedder embedder, DenseSearch dense,
      SparseSearch sparse, Fusion configured, UnaryOperator<Retriever> rerank) {
    return parseRouted(spec, DenseRoutes.single(embedder), dense, sparse, configured, rerank);
  }

  /**
   * As {@link #parse(String, Embedder, DenseSearch, SparseSearch, Fusion, UnaryOperator)} with
   * the dense route following language routes ({@link DenseRoutes}: one or two models by the
   * question's language).
   */
  public static List<RetrieverVariant> parseRouted(String spec, DenseRoutes embedder,
      DenseSearch dense, SparseSearch sparse, Fusion configured, UnaryOperator<Retriever> rerank) {
    List<RetrieverVariant> out = new ArrayList<>();
    for (String raw : new LinkedHashSet<>(List.of(spec.split(",")))) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      if (name.endsWith("+rerank")) {
        if (rerank == null) {
          throw new IllegalArgumentException("configuration '" + raw.strip() + "' needs a "
              + "reranker: set rerank.type (http, onnx or llm) in the config file");
        }
        String base = name.substring(0, name.length() - "+rerank".length());
        RetrieverVariant b = parseRouted(base, embedder, dense, sparse, configured, null).get(0);
        out.add(new RetrieverVariant(name, b.description() + ", reranked",
            rerank.apply(b.retriever()), b.hasDense()));
        continue;
      }
      out.add(switch (name) {
        case "dense" -> new RetrieverVariant(name, "dense route only (bge cosine, HNSW)",
            new HybridRetriever(embedder, dense, sparse, configured, Mode.DENSE), true);
        case "bm25" -> new RetrieverVariant(name, "BM25 route only",
            new HybridRetriever(embedder, dense, sparse, configured, Mode.SPARSE), false);
        case "hybrid" -> fused(name, configured, embedder, dense, sparse);
        default -> {
          if (name.startsWith("rrf")) {
            yield fused(name, rrf(name, RrfFusion.DEFAULT), embedder, dense, sparse);
          }
          if (name.startsWith("minmax")) {
            double d = param(name, "d", 0.5);
            yield fused(name, new MinMaxFusion(d, 1 - d, param(name, "c", 0), param(name, "g", 0)),
                embedder, dense, sparse);
          }
          throw new IllegalArgumentException("unknown configuration '" + raw.strip()
              + "'; use dense, bm25, hybrid, rrf, rrf:k=K:d=WD:s=WS, minmax or "
              + "minmax:d=WD:c=C:g=G");
        }
      });
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no configuration named in '" + spec + "'");
    }
    return out;
  }

  private static RetrieverVariant fused(String name, Fusion fusion, DenseRoutes embedder,
      DenseSearch dense, SparseSearch sparse) {
    return new RetrieverVariant(name, "dense+bm25 " + fusion.id(),
        new HybridRetriever(embedder, dense, sparse, fusion, Mode.HYBRID), true);
  }

  private static RrfFusion rrf(String name, RrfFusion base) {
    return new RrfFusion(param(name, "k", base.k()), param(name, "d", base.denseWeight()),
        param(name, "s", base.sparseWeight()));
  }

  /** The value of {@code :key=value} in {@code name}, or {@code dflt}. */
  private static double param(String name, String key, double dflt) {
    for (String part : name.split(":")) {
      if (part.startsWith(key + "=")) {
        try {
          return Double.parseDouble(part.substring(key.length() + 1));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "configuration '" + name + "': '" + part + "' is not a number");
        }
      }
    }
    return dflt;
  }
}
