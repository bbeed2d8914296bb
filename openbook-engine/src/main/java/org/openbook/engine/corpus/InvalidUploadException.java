package org.openbook.engine.corpus;

/** An uploaded file or folder that cannot be taken, with why. */
public final class InvalidUploadException extends CorpusException {

  /** Why an upload was refused. */
  public enum Reason {
    /** Missing, too long, or not allowed file or folder name; duplicate file. */
    BAD_NAME,
    /** No loader reads this file type. */
    UNSUPPORTED_TYPE,
    /** The file could not be loaded (corrupt, bad front matter) or yielded no chunks. */
    UNREADABLE
  }

  private final Reason reason;

  public InvalidUploadException(Reason reason, String field, String message) {
    super(field, message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
