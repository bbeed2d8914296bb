package org.openbook.eval;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.index.ChunkStore.DenseSearch;
import org.openbook.index.ChunkStore.SparseSearch;
import org.openbook.retrieve.Fusion;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.HybridRetriever.Mode;
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
public record RetrievalConfig(String name, String description, Retriever retriever,
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
   *   <li>{@code minmax} or {@code minmax:d=WD} — min-max normalised fusion with dense weight
   *       WD (default 0.5) and BM25 weight 1 − WD.</li>
   * </ul>
   *
   * @throws IllegalArgumentException naming the offending entry for an unknown name or bad number
   */
  public static List<RetrievalConfig> parse(String spec, Embedder embedder, DenseSearch dense,
      SparseSearch sparse, Fusion configured) {
    return parseRouted(spec, DenseRoutes.single(embedder), dense, sparse, configured);
  }

  /** As {@link #parse(String, Embedder, DenseSearch, SparseSearch, Fusion)} with language routes. */
  public static List<RetrievalConfig> parseRouted(String spec, DenseRoutes embedder,
      DenseSearch dense, SparseSearch sparse, Fusion configured) {
    List<RetrievalConfig> out = new ArrayList<>();
    for (String raw : new LinkedHashSet<>(List.of(spec.split(",")))) {
      String name = raw.strip().toLowerCase(Locale.ROOT);
      if (name.isEmpty()) {
        continue;
      }
      out.add(switch (name) {
        case "dense" -> new RetrievalConfig(name, "dense route only (bge cosine, HNSW)",
            new HybridRetriever(embedder, dense, sparse, configured, Mode.DENSE), true);
        case "bm25" -> new RetrievalConfig(name, "BM25 route only",
            new HybridRetriever(embedder, dense, sparse, configured, Mode.SPARSE), false);
        case "hybrid" -> fused(name, configured, embedder, dense, sparse);
        default -> {
          if (name.startsWith("rrf")) {
            yield fused(name, rrf(name, RrfFusion.DEFAULT), embedder, dense, sparse);
          }
          if (name.startsWith("minmax")) {
            double d = param(name, "d", 0.5);
            yield fused(name, new MinMaxFusion(d, 1 - d), embedder, dense, sparse);
          }
          throw new IllegalArgumentException("unknown configuration '" + raw.strip()
              + "'; use dense, bm25, hybrid, rrf, rrf:k=K:d=WD:s=WS, minmax or minmax:d=WD");
        }
      });
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no configuration named in '" + spec + "'");
    }
    return out;
  }

  private static RetrievalConfig fused(String name, Fusion fusion, DenseRoutes embedder,
      DenseSearch dense, SparseSearch sparse) {
    return new RetrievalConfig(name, "dense+bm25 " + fusion.id(),
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
