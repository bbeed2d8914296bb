package org.openbook.engine.corpus;

/**
 * No such document, chunk or job for this principal. Deliberately the same whether it does not
 * exist or belongs to a department the principal cannot read, so its existence is not revealed.
 */
public final class NotFoundException extends CorpusException {
  public NotFoundException(String field, String message) {
    super(field, message);
  }
}
