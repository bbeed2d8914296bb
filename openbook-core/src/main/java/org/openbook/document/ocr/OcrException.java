package org.openbook.document.ocr;

/** OCR of one page failed (tool error, timeout); the message says why. */
public class OcrException extends Exception {
  public OcrException(String message) {
    super(message);
  }

  public OcrException(String message, Throwable cause) {
    super(message, cause);
  }
}
