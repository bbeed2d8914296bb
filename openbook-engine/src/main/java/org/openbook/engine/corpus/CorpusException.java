package org.openbook.engine.corpus;

/**
 * A corpus operation refused for a reason the caller can act on. {@code field} names the
 * offending input ({@code files[1]}, {@code folder}, {@code source}, {@code chunkId}) or is
 * {@code null}. Messages name sources relative to the docs folder, never server paths. An HTTP
 * layer maps the subclasses to status codes.
 */
public abstract class CorpusException extends RuntimeException {
  private final String field;

  protected CorpusException(String field, String message) {
    super(message);
    this.field = field;
  }

  /** The offending input, or {@code null}. */
  public String field() {
    return field;
  }
}
