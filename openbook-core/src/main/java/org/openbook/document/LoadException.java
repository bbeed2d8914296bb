package org.openbook.document;

/** A file that cannot be indexed, with the reason shown to the user in the ingest summary. */
public class LoadException extends Exception {

  /** Why a file was skipped; shown in the ingest summary. */
  public enum Reason {
    UNSUPPORTED_TYPE("unsupported type"),
    UNREADABLE("unreadable"),
    EMPTY("empty"),
    NEEDS_OCR("needs OCR"),
    BINARY("binary content"),
    CORRUPT("corrupt"),
    TOO_LARGE("too large"),
    /**
     * Metadata that decides access (front matter, HTML {@code <meta name="dept">}) is present but
     * cannot be read for sure; the file is skipped rather than indexed as public.
     */
    BAD_METADATA("bad front matter");

    private final String label;

    Reason(String label) {
      this.label = label;
    }

    /** Short lower-case label for summaries. */
    public String label() {
      return label;
    }
  }

  private final Reason reason;

  public LoadException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public LoadException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
