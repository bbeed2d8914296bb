package org.openbook.index;

/**
 * What an index was built with. Opening an index with a different embedding model, dimension,
 * metric, analyzer or set of further dense fields (models) is refused: mixing them silently
 * degrades quality.
 *
 * @param embeddingModel model id, e.g. {@code bge-small-zh-v1.5}
 * @param dimension      vector length
 * @param metric         vector similarity, always {@code cosine} for now
 * @param analyzer       {@link org.openbook.analysis.TextAnalysis#id()}
 * @param chunker        {@link org.openbook.chunk.ChunkerSettings#id()}
 * @param documents      number of documents in the index
 * @param chunks         number of chunks in the index
 * @param denseFields    vector fields besides the primary one ({@code embeddingModel}), e.g. the
 *                       English route; empty when there is one model. Null (a manifest written
 *                       before this component existed) reads as empty.
 */
public record IndexManifest(
    String embeddingModel,
    int dimension,
    String metric,
    String analyzer,
    String chunker,
    long documents,
    long chunks,
    java.util.List<DenseField> denseFields) {

  public static final String COSINE = "cosine";

  public IndexManifest {
    denseFields = denseFields == null ? java.util.List.of() : java.util.List.copyOf(denseFields);
    java.util.Set<String> names = new java.util.HashSet<>();
    for (DenseField f : denseFields) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("dense field '" + f.name() + "' given twice");
      }
    }
  }

  /** A manifest with the primary vector field only. */
  public IndexManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, long documents, long chunks) {
    this(embeddingModel, dimension, metric, analyzer, chunker, documents, chunks,
        java.util.List.of());
  }

  /** This manifest with other counts. */
  public IndexManifest withCounts(long documents, long chunks) {
    return new IndexManifest(embeddingModel, dimension, metric, analyzer, chunker, documents,
        chunks, denseFields);
  }

  /** The secondary field called {@code name}, if any. */
  public java.util.Optional<DenseField> denseField(String name) {
    return denseFields.stream().filter(f -> f.name().equals(name)).findFirst();
  }

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
    compare(diff, "other dense fields", describe(denseFields), describe(wanted.denseFields));
    if (diff.length() > 0) {
      throw new IndexMismatchException(
          "index was built with different settings:" + diff
              + "\nRebuild it: openbook ingest <dir> --index <path> --reset");
    }
  }

  /**
   * Checks that these settings can drive a store: the metric is cosine (the only one the stores
   * implement) and {@code analysis} is the analysis this manifest names.
   *
   * @param store the store's name, for the message
   * @throws IllegalArgumentException naming the setting that does not fit
   */
  public void requireUsable(org.openbook.analysis.TextAnalysis analysis, String store) {
    java.util.Objects.requireNonNull(analysis, "analysis");
    if (!COSINE.equals(metric)) {
      throw new IllegalArgumentException("metric '" + metric + "' is not supported; the " + store
          + " store uses '" + COSINE + "'");
    }
    if (!analysis.id().equals(analyzer)) {
      throw new IllegalArgumentException("manifest analyzer '" + analyzer
          + "' differs from the analysis given, '" + analysis.id() + "'");
    }
  }

  private static String describe(java.util.List<DenseField> fields) {
    return fields.isEmpty() ? "none"
        : String.join(", ", fields.stream().map(DenseField::describe).toList());
  }

  private static void compare(StringBuilder diff, String what, String have, String want) {
    if (!have.equals(want)) {
      diff.append("\n  ").append(what).append(": index has '").append(have)
          .append("', this run uses '").append(want).append('\'');
    }
  }
}
