package org.openbook.embed.remote;

import java.util.List;

/**
 * One remote embedding API, one request per call: the wire format only. Batching, concurrency,
 * retries, the dimension check and normalisation are {@link RemoteEmbedder}'s, the same for every
 * API. Known implementations: {@link HttpEmbeddingEndpoint} (Ollama {@code /api/embed}, Hugging
 * Face TEI {@code /embed}) and, in {@code openbook-llm}, the OpenAI-compatible {@code
 * /v1/embeddings} through LangChain4j's {@code OpenAiEmbeddingModel}.
 *
 * <p>Implementations are thread-safe: {@link RemoteEmbedder} calls them from several threads.
 */
public interface EmbeddingEndpoint {

  /** The URL requests go to, without user info, query or key: safe for messages and logs. */
  String url();

  /**
   * Embeds {@code texts} in one request.
   *
   * @return one vector per text, in order, as the server gave it (not normalised)
   * @throws EndpointException for a failed request or a reply that is not the expected JSON;
   *     the message names {@link #url()} and never the key
   */
  List<float[]> embed(List<String> texts);
}
