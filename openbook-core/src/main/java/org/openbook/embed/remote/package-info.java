/**
 * Embedding models behind HTTP: {@link org.openbook.embed.remote.RemoteEmbedder} gives any
 * {@link org.openbook.embed.remote.EmbeddingEndpoint} (OpenAI-compatible {@code /v1/embeddings},
 * Ollama {@code /api/embed}, Hugging Face TEI {@code /embed}) the in-process models' contract —
 * fixed dimension, L2-normalised vectors, over-long inputs rejected — plus batching, a bound on
 * requests in flight, a timeout and retries with backoff on 429/5xx. A failure is an {@link
 * org.openbook.embed.EmbeddingUnavailableException} naming the endpoint, never the key.
 */
package org.openbook.embed.remote;
