package org.openbook.index;

/** An index opened with settings other than those it was built with. */
public class IndexMismatchException extends IllegalStateException {
  public IndexMismatchException(String message) {
    super(message);
  }
}
