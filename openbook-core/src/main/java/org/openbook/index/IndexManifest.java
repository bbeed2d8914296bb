package org.openbook.index;

/**
 * What an index was built with. Opening an index with a different embedding model, dimension,
 * metric or analyzer is refused: mixing them silently degrades quality.
 *
 * @param embeddingModel model id, e.g. {@code bge-small-zh-v1.5}
 * @param dimension      vector length
 * @param metric         vector similarity, always {@code cosine} for now
 * @param analyzer       {@link org.openbook.analysis.TextAnalysis#id()}
 * @param chunker        {@link org.openbook.chunk.ChunkerSettings#id()}
 * @param documents      number of documents in the index
 * @param chunks         number of chunks in the index
 */
public record IndexManifest(
    String embeddingModel,
    int dimension,
    String metric,
    String analyzer,
    String chunker,
    long documents,
    long chunks) {

  public static final String COSINE = "cosine";

  /**
   * Checks that an index built as {@code this} can be used with {@code wanted}'s model, metric
   * and analyzer.
   *
   * @throws IndexMismatchException naming each difference and how to rebuild
   */
  public void requireCompatible(IndexManifest wanted) {
    StringBuilder diff = new StringBuilder();
    compare(diff, "embedding model", embeddingModel, wanted.embeddingModel);
    compare(diff, "dimension", String.valueOf(dimension), String.valueOf(wanted.dimension));
    compare(diff, "metric", metric, wanted.metric);
    compare(diff, "analyzer", analyzer, wanted.analyzer);
    if (diff.length() > 0) {
      throw new IndexMismatchException(
          "index was built with different settings:" + diff
              + "\nRebuild it: openbook ingest <dir> --index <path> --reset");
    }
  }

  private static void compare(StringBuilder diff, String what, String have, String want) {
    if (!have.equals(want)) {
      diff.append("\n  ").append(what).append(": index has '").append(have)
          .append("', this run uses '").append(want).append('\'');
    }
  }
}
