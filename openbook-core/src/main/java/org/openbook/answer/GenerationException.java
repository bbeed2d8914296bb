package org.openbook.answer;

/** The generator failed; the answer becomes {@link AnswerStatus#FAILED} with this message. */
public class GenerationException extends Exception {
  public GenerationException(String message, Throwable cause) {
    super(message, cause);
  }

  public GenerationException(String message) {
    super(message);
  }
}
