package org.openbook.llm;

import java.util.Map;
import java.util.Optional;

/**
 * How to reach an OpenAI-compatible chat endpoint (OpenAI, DeepSeek, Qwen/DashScope compatible
 * mode, Ollama, vLLM, llama.cpp server).
 *
 * <p>Environment variables read by {@link #fromEnvironment}:
 * <ul>
 *   <li>{@value #ENV_BASE_URL} — base URL including the API version path, e.g.
 *       {@code https://api.deepseek.com/v1} or {@code http://localhost:11434/v1}; when unset, no
 *       LLM is configured and answers are extractive;
 *   <li>{@value #ENV_MODEL} — model name, e.g. {@code deepseek-chat}; required with a base URL;
 *   <li>{@value #ENV_API_KEY} — API key; optional (local servers need none);
 *   <li>{@value #ENV_TIMEOUT} — seconds without any response data before giving up; optional,
 *       default {@value #DEFAULT_TIMEOUT_SECONDS}.
 * </ul>
 *
 * @param baseUrl        endpoint base URL, non-blank
 * @param apiKey         API key, or empty
 * @param model          model name, non-blank
 * @param timeoutSeconds idle timeout in seconds, ≥ 1
 */
public record LlmConfig(String baseUrl, String apiKey, String model, int timeoutSeconds) {

  public static final String ENV_BASE_URL = "OPENBOOK_LLM_BASE_URL";
  public static final String ENV_API_KEY = "OPENBOOK_LLM_API_KEY";
  public static final String ENV_MODEL = "OPENBOOK_LLM_MODEL";
  public static final String ENV_TIMEOUT = "OPENBOOK_LLM_TIMEOUT_SECONDS";
  public static final int DEFAULT_TIMEOUT_SECONDS = 60;

  public LlmConfig {
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new IllegalArgumentException("LLM base URL (" + ENV_BASE_URL + ") must not be blank");
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException(
          "LLM model (" + ENV_MODEL + ") must be set when " + ENV_BASE_URL + " is set");
    }
    if (timeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "LLM timeout (" + ENV_TIMEOUT + ") must be >= 1 second, got " + timeoutSeconds);
    }
    baseUrl = baseUrl.strip();
    model = model.strip();
    apiKey = apiKey == null ? "" : apiKey.strip();
  }

  /**
   * Reads the configuration from environment variables (pass {@code System.getenv()}).
   *
   * @return empty when {@value #ENV_BASE_URL} is unset or blank
   * @throws IllegalArgumentException naming the variable when one is set but invalid
   */
  public static Optional<LlmConfig> fromEnvironment(Map<String, String> env) {
    String baseUrl = env.get(ENV_BASE_URL);
    if (baseUrl == null || baseUrl.isBlank()) {
      return Optional.empty();
    }
    String timeout = env.get(ENV_TIMEOUT);
    int seconds = DEFAULT_TIMEOUT_SECONDS;
    if (timeout != null && !timeout.isBlank()) {
      try {
        seconds = Integer.parseInt(timeout.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            ENV_TIMEOUT + " must be a whole number of seconds, got '" + timeout + "'", e);
      }
    }
    return Optional.of(new LlmConfig(baseUrl, env.get(ENV_API_KEY), env.get(ENV_MODEL), seconds));
  }

  /** Never prints the key. */
  @Override
  public String toString() {
    return "LlmConfig[baseUrl=" + baseUrl + ", apiKey=" + (apiKey.isEmpty() ? "" : "***")
        + ", model=" + model + ", timeoutSeconds=" + timeoutSeconds + "]";
  }
}
