package org.openbook.engine;

import org.openbook.analysis.TextAnalysis;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.engine.config.Settings;
import org.openbook.index.IndexManifest;

/**
 * What a run writes into its index and checks an existing index against: the primary model and
 * dimension, the further dense fields of its {@link DenseRoutes routes}, the analyzer, the chunker
 * and the vector encoding (counts 0). One definition for the engine's stores and for the commands
 * that prepare or inspect a store without opening the engine ({@code openbook solr init} creates
 * its collection's schema from it, {@code solr status} compares with it), so a collection made
 * ahead of an ingest has every field the ingest writes.
 */
public final class ExpectedManifest {

  private ExpectedManifest() {}

  /**
   * The routes a run of {@code settings} embeds with when no model is given to the builder:
   * {@code embedding.routes} (each route in process or remote, see {@link ConfiguredRoutes}),
   * by default the bge-small-zh + bge-small-en pair with the configured query instructions.
   * Loads the in-process models (shared per JVM); a remote route without a configured dimension
   * sends one probe request.
   */
  public static DenseRoutes routes(Settings settings) {
    return ConfiguredRoutes.of(settings.embedding());
  }

  /**
   * The manifest of a run embedding with {@code routes} and analysing with {@code analysis}
   * under {@code settings} (chunking, store vector encoding); document and chunk counts 0.
   */
  public static IndexManifest of(DenseRoutes routes, TextAnalysis analysis, Settings settings) {
    Embedder primary = routes.primary();
    return new IndexManifest(primary.modelId(), primary.dimension(), IndexManifest.COSINE,
        analysis.id(), settings.chunking().id(), 0, 0, routes.denseFields(),
        settings.store().vectorEncoding().id()).withEmbeddingProvider(primary.provider());
  }
}
