package org.openbook.engine.corpus;

/**
 * Writes are refused because the docs folder does not hold the index's documents (an ingest
 * there would remove them), e.g. a server started with another {@code --docs} folder.
 */
public final class CorpusConflictException extends CorpusException {
  public CorpusConflictException(String message) {
    super(null, message);
  }
}
