package org.openbook.llm;

import dev.langchain4j.exception.HttpException;
import org.openbook.answer.GenerationException;

/** Turns client failures into messages that name the endpoint and never the API key. */
final class LlmErrors {

  private LlmErrors() {}

  /**
   * A failure naming the endpoint and, for HTTP errors, the status, or "timeout" for a timeout;
   * the key is masked wherever it appears.
   */
  static GenerationException describe(LlmConfig config, Throwable error) {
    StringBuilder msg = new StringBuilder("LLM endpoint ").append(config.baseUrl()).append(" failed");
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof HttpException http) {
        msg.append(": HTTP ").append(http.statusCode());
        break;
      }
      if (t instanceof dev.langchain4j.exception.TimeoutException
          || t instanceof java.net.http.HttpTimeoutException) {
        msg.append(": timeout after ").append(config.timeoutSeconds()).append(" s");
        break;
      }
    }
    String detail = error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage();
    msg.append(": ").append(detail);
    String text = msg.toString();
    if (!config.apiKey().isEmpty()) {
      text = text.replace(config.apiKey(), "***");
    }
    return new GenerationException(text, error);
  }
}
