package org.openbook.answer;

/**
 * A generator's reply was cut off before the model finished (an OpenAI-compatible
 * {@code finish_reason} other than {@code stop}, e.g. {@code length}, or a stream that ended
 * without any finish reason). A cut-off reply is not an answer: {@link AnswerService} reports
 * {@link AnswerStatus#FAILED} with reason {@value #REASON} and keeps the partial text in the
 * diagnostics.
 */
public class TruncatedReplyException extends GenerationException {

  /** The failure reason recorded in the diagnostics. */
  public static final String REASON = "truncated";

  private final String partialText;
  private final String finishReason;

  /**
   * @param finishReason the finish reason the model gave, or empty when the stream ended without
   * @param partialText  what the model wrote before it stopped, possibly empty
   */
  public TruncatedReplyException(String finishReason, String partialText) {
    super("reply truncated (finish_reason: "
        + (finishReason == null || finishReason.isEmpty() ? "none" : finishReason) + ")");
    this.finishReason = finishReason == null ? "" : finishReason;
    this.partialText = partialText == null ? "" : partialText;
  }

  public String partialText() {
    return partialText;
  }

  public String finishReason() {
    return finishReason;
  }
}
