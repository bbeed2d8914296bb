package org.openbook.index;

/**
 * Build parameters of the embedded index's HNSW graphs (Malkov and Yashunin, "Efficient and
 * robust approximate nearest neighbor search using Hierarchical Navigable Small World graphs",
 * IEEE TPAMI 2020), as Lucene's {@code Lucene99HnswVectorsFormat} takes them. They decide how
 * well the graph search can find the true nearest neighbours (recall) and what the graph costs to
 * build and store; the query-time breadth is a separate, search-time setting.
 *
 * <p>Recorded in the index manifest: an index keeps the graph parameters it was built with (every
 * segment, including merged ones, is written with them), so a changed setting applies to an index
 * rebuilt with {@code --reset}.
 *
 * @param m         maximum connections per node and layer (Lucene's {@code maxConn}), 1..512
 *                  (Lucene's maximum)
 * @param beamWidth candidates kept while a node is inserted ({@code efConstruction}), 1..3200
 *                  (Lucene's maximum)
 */
public record HnswGraph(int m, int beamWidth) {

  /**
   * Lucene 9.12's defaults ({@code Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN} = 16, {@code
   * DEFAULT_BEAM_WIDTH} = 100): what every index built before this setting existed uses.
   */
  public static final HnswGraph LUCENE_DEFAULT = new HnswGraph(16, 100);

  /** Largest M Lucene accepts ({@code Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN}). */
  public static final int MAX_M = 512;
  /** Largest beam width Lucene accepts ({@code Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH}). */
  public static final int MAX_BEAM_WIDTH = 3200;

  /** @throws IllegalArgumentException if a parameter is outside Lucene's range */
  public HnswGraph {
    if (m < 1 || m > MAX_M) {
      throw new IllegalArgumentException("HNSW m must be in 1.." + MAX_M + ", got " + m);
    }
    if (beamWidth < 1 || beamWidth > MAX_BEAM_WIDTH) {
      throw new IllegalArgumentException(
          "HNSW beamWidth must be in 1.." + MAX_BEAM_WIDTH + ", got " + beamWidth);
    }
  }

  /** {@code m=16, beamWidth=100}, for messages. */
  public String describe() {
    return "m=" + m + ", beamWidth=" + beamWidth;
  }
}
