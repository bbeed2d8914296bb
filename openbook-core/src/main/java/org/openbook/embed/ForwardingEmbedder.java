package org.openbook.embed;

/**
 * Base of an {@link Embedder} that stands in for another model: model id, dimension, input
 * limit and token counting are the wrapped model's, so indexes and manifests cannot tell the two
 * apart; subclasses decide only where vectors come from ({@link #embedAll}).
 */
public abstract class ForwardingEmbedder implements Embedder {

  /** The model this embedder stands for. */
  protected final Embedder model;

  /** @param model the model whose id, dimension and tokenizer this embedder reports */
  protected ForwardingEmbedder(Embedder model) {
    this.model = model;
  }

  @Override
  public String modelId() {
    return model.modelId();
  }

  @Override
  public String provider() {
    return model.provider();
  }

  @Override
  public int ingestBatchSize() {
    return model.ingestBatchSize();
  }

  @Override
  public int dimension() {
    return model.dimension();
  }

  @Override
  public int maxInputTokens() {
    return model.maxInputTokens();
  }

  @Override
  public int countTokens(String text) {
    return model.countTokens(text);
  }

  @Override
  public boolean fitsTokens(String text, int limit) {
    return model.fitsTokens(text, limit);
  }
}
