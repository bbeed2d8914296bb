package org.openbook.engine;

import org.openbook.embed.BgeSmallEnEmbedder;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.embed.remote.HttpEmbeddingEndpoint;
import org.openbook.embed.remote.RemoteEmbedder;
import org.openbook.engine.config.EmbeddingRoute;
import org.openbook.engine.config.Settings;
import org.openbook.llm.OpenAiEmbeddingEndpoint;

/**
 * The dense routes {@code embedding.routes} configures: per route the in-process ONNX model
 * (bge-small-zh-v1.5 for {@code zh}, bge-small-en-v1.5 for {@code en}) or a {@link
 * RemoteEmbedder} on the configured endpoint; {@code en: {provider: none}} leaves the primary
 * route alone (one multilingual model). The query instructions apply as configured.
 */
final class ConfiguredRoutes {

  private ConfiguredRoutes() {}

  /** The routes of {@code embedding}. */
  static DenseRoutes of(Settings.Embedding embedding) {
    EmbeddingRoute zh = embedding.zh();
    EmbeddingRoute en = embedding.en();
    Embedder primary = zh.remote() ? remote(zh) : new BgeSmallZhEmbedder();
    Embedder english = en.provider().equals(EmbeddingRoute.NONE) ? null
        : en.remote() ? remote(en) : new BgeSmallEnEmbedder();
    DenseRoutes routes = english == null ? DenseRoutes.chinese(primary)
        : DenseRoutes.bilingual(primary, english);
    return routes.withQueryInstructions(embedding.zhQueryInstruction(),
        embedding.enQueryInstruction());
  }

  /** The remote embedder of a route whose provider is {@code openai}, {@code ollama} or {@code tei}. */
  static RemoteEmbedder remote(EmbeddingRoute r) {
    String url = r.url().orElseThrow();
    String key = r.apiKey().orElse(null);
    var endpoint = switch (r.provider()) {
      case EmbeddingRoute.OPENAI -> new OpenAiEmbeddingEndpoint(url, r.model(), key,
          null, r.options().batchSize(), r.timeout());
      case EmbeddingRoute.OLLAMA -> new HttpEmbeddingEndpoint(HttpEmbeddingEndpoint.Api.OLLAMA,
          url, r.model(), key, r.timeout());
      case EmbeddingRoute.TEI -> new HttpEmbeddingEndpoint(HttpEmbeddingEndpoint.Api.TEI, url,
          r.model(), key, r.timeout());
      default -> throw new IllegalArgumentException("embedding.routes." + r.route()
          + ".provider " + r.provider() + " is not remote");
    };
    return new RemoteEmbedder(r.provider(), r.model(), endpoint, r.options());
  }
}
