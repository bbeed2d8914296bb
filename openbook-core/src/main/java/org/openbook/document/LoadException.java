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
    /** Password-protected (encrypted) file: it cannot be read without the password. */
    ENCRYPTED("encrypted"),
    TOO_LARGE("too large"),
    /**
     * Metadata that decides access (front matter, HTML {@code <meta name="dept">}) is present but
     * cannot be read for sure; the file is skipped rather than indexed as public.
     */
    BAD_METADATA("bad front matter"),
    /**
     * An image while OCR is off or not installed: not a failure of the run (an image beside the
     * documents is normal), reported so the user knows it was not read.
     */
    IMAGE_NO_OCR("image (OCR off)");

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

  /**
   * @param message names the file and says why, without repeating the reason's label: a skip is
   *                shown as both, {@code bin.txt (binary content: NUL bytes, and not UTF-16)}
   */
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
