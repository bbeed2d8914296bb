package org.openbook.embed;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} that answers from an {@link EmbeddingCache} first and sends only the texts
 * it does not know to the wrapped model, in one batch, storing their vectors. Model id,
 * dimension and token counting are the wrapped model's. A cache I/O error is logged and the text
 * is embedded as if it were absent: the cache can cost speed, never correctness.
 */
public final class CachingEmbedder extends ForwardingEmbedder {

  private static final Logger LOG = LoggerFactory.getLogger(CachingEmbedder.class);

  private final EmbeddingCache cache;

  /**
   * @param model the embedder that computes vectors on a miss
   * @param cache where vectors are looked up and stored, keyed by {@code model.modelId()}
   */
  public CachingEmbedder(Embedder model, EmbeddingCache cache) {
    super(model);
    this.cache = cache;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Texts found in the cache are not sent to the model (so an over-long text that is cached
   * does not throw); the others are embedded in one {@code embedAll} call.
   */
  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      Optional<float[]> hit = lookup(texts.get(i));
      out.add(hit.orElse(null));
      if (hit.isEmpty()) {
        missing.add(i);
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    List<float[]> fresh = model.embedAll(missing.stream().map(texts::get).toList());
    for (int j = 0; j < missing.size(); j++) {
      int i = missing.get(j);
      out.set(i, fresh.get(j));
      store(texts.get(i), fresh.get(j));
    }
    return out;
  }

  /** The model id, qualified by a remote provider: its vectors are not the ONNX model's. */
  private String cacheKey() {
    return Embedder.ONNX.equals(model.provider()) ? model.modelId()
        : model.provider() + ":" + model.modelId();
  }

  private Optional<float[]> lookup(String text) {
    try {
      return cache.get(cacheKey(), text, model.dimension());
    } catch (IOException e) {
      LOG.warn("embedding cache lookup failed, embedding again: {}", e.toString());
      return Optional.empty();
    }
  }

  private void store(String text, float[] vector) {
    try {
      cache.put(cacheKey(), text, vector);
    } catch (IOException e) {
      LOG.warn("embedding cache write failed: {}", e.toString());
    }
  }
}
