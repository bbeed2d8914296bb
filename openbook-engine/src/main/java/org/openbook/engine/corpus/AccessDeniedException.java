package org.openbook.engine.corpus;

/**
 * The principal may not make this change: it is not a writer, or the document's department (the
 * new one or the one already indexed at that source) is one it cannot read.
 */
public final class AccessDeniedException extends CorpusException {
  public AccessDeniedException(String field, String message) {
    super(field, message);
  }
}
