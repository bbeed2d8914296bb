package org.openbook.index;

/**
 * What an index was built with. Opening an index with a different embedding model, dimension,
 * What an index was built with. Opening an index with a different embedding model, dimension,
 * metric, analyzer, set of further dense fields (models) or vector encoding is refused: mixing
 * them silently degrades quality.
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
 * @param vectorEncoding {@link VectorEncoding#id()} of the stored vectors (every vector field);
 *                       null (a manifest written before this component existed) reads as
 *                       {@code float32}
 * @param hnsw           build parameters of the HNSW graphs (embedded Lucene index); null (a
 *                       manifest written before this component existed, or a store without
 *                       graphs of its own) reads as {@link HnswGraph#LUCENE_DEFAULT}. Not part
 *                       of {@link #requireCompatible}: an index keeps its own graph parameters
 * @param embeddingProvider where the primary vectors come from ({@link
 *                       org.openbook.embed.Embedder#provider()}: {@code onnx}, {@code openai},
 *                       {@code ollama}, {@code tei}); null (a manifest written before this
 *                       component existed) reads as {@code onnx}
 */
public record IndexManifest(
    String embeddingModel,
    int dimension,
    String metric,
    String analyzer,
    String chunker,
    long documents,
    long chunks,
    java.util.List<DenseField> denseFields,
    String vectorEncoding,
    HnswGraph hnsw,
    String embeddingProvider) {

  public static final String COSINE = "cosine";

  public IndexManifest {
    denseFields = denseFields == null ? java.util.List.of() : java.util.List.copyOf(denseFields);
    java.util.Set<String> names = new java.util.HashSet<>();
    for (DenseField f : denseFields) {
      if (!names.add(f.name())) {
        throw new IllegalArgumentException("dense field '" + f.name() + "' given twice");
      }
    }
    vectorEncoding = VectorEncoding.parse(vectorEncoding, "vectorEncoding").id();
    hnsw = hnsw == null ? HnswGraph.LUCENE_DEFAULT : hnsw;
    embeddingProvider = embeddingProvider == null || embeddingProvider.isBlank()
        ? org.openbook.embed.Embedder.ONNX : embeddingProvider;
  }

  /** A manifest of an in-process ONNX primary model. */
  public IndexManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, long documents, long chunks, java.util.List<DenseField> denseFields,
      String vectorEncoding, HnswGraph hnsw) {
    this(embeddingModel, dimension, metric, analyzer, chunker, documents, chunks, denseFields,
        vectorEncoding, hnsw, null);
  }

  /** A manifest with Lucene's default HNSW graph parameters. */
  public IndexManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, long documents, long chunks, java.util.List<DenseField> denseFields,
      String vectorEncoding) {
    this(embeddingModel, dimension, metric, analyzer, chunker, documents, chunks, denseFields,
        vectorEncoding, null, null);
  }

  /** A manifest with the primary vector field only, float32 vectors. */
  public IndexManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, long documents, long chunks) {
    this(embeddingModel, dimension, metric, analyzer, chunker, documents, chunks,
        java.util.List.of(), null, null, null);
  }

  /** A manifest with float32 vectors. */
  public IndexManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, long documents, long chunks, java.util.List<DenseField> denseFields) {
    this(embeddingModel, dimension, metric, analyzer, chunker, documents, chunks, denseFields,
        null, null, null);
  }

  /** This manifest with other counts. */
  public IndexManifest withCounts(long documents, long chunks) {
    return new IndexManifest(embeddingModel, dimension, metric, analyzer, chunker, documents,
        chunks, denseFields, vectorEncoding, hnsw, embeddingProvider);
  }

  /** The secondary field called {@code name}, if any. */
  public java.util.Optional<DenseField> denseField(String name) {
    return denseFields.stream().filter(f -> f.name().equals(name)).findFirst();
  }

  /** This manifest with the primary model's provider {@code provider}. */
  public IndexManifest withEmbeddingProvider(String provider) {
    return new IndexManifest(embeddingModel, dimension, metric, analyzer, chunker, documents,
        chunks, denseFields, vectorEncoding, hnsw, provider);
  }

  /** This manifest with {@code encoding} (of every vector field). */
  public IndexManifest withVectorEncoding(VectorEncoding encoding) {
    return new IndexManifest(embeddingModel, dimension, metric, analyzer, chunker, documents,
        chunks, denseFields, encoding.id(), hnsw, embeddingProvider);
  }

  /** This manifest with HNSW graph parameters {@code graph}. */
  public IndexManifest withHnsw(HnswGraph graph) {
    return new IndexManifest(embeddingModel, dimension, metric, analyzer, chunker, documents,
        chunks, denseFields, vectorEncoding, graph, embeddingProvider);
  }

  /** {@link #vectorEncoding()} as the enum. */
  public VectorEncoding encoding() {
    return VectorEncoding.parse(vectorEncoding, "vectorEncoding");
  }

  /**
   * Checks that an index built as {@code this} can be used with {@code wanted}'s model, metric
   * and analyzer.
   *
   * @throws IndexMismatchException naming each difference and how to rebuild
   */
  public void requireCompatible(IndexManifest wanted) {
    StringBuilder diff = new StringBuilder();
    compare(diff, "embedding provider", embeddingProvider, wanted.embeddingProvider);
    compare(diff, "embedding model", embeddingModel, wanted.embeddingModel);
    compare(diff, "dimension", String.valueOf(dimension), String.valueOf(wanted.dimension));
    compare(diff, "metric", metric, wanted.metric);
    compare(diff, "analyzer", analyzer, wanted.analyzer);
    compare(diff, "other dense fields", describe(denseFields), describe(wanted.denseFields));
    compare(diff, "vector encoding", vectorEncoding, wanted.vectorEncoding);
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
