package org.openbook.rerank;

/** A reranker failed or replied with something unusable; the stage falls back to fused order. */
public class RerankException extends Exception {

  public RerankException(String message) {
    super(message);
  }

  public RerankException(String message, Throwable cause) {
    super(message, cause);
  }
}
