package org.openbook.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import java.time.Duration;

/** Builds the non-streaming chat client used for question rewriting and agent tool rounds. */
final class ChatModels {

  private ChatModels() {}

  /**
   * An {@link OpenAiChatModel} at temperature 0 whose whole request may take at most
   * {@link LlmConfig#timeoutSeconds()}. No retries: a failing endpoint is reported at once
   * instead of tripling the wait (the user can simply ask again).
   */
  static ChatModel of(LlmConfig config) {
    return OpenAiChatModel.builder()
        .baseUrl(config.baseUrl())
        // Local servers (Ollama, llama.cpp) accept any key; an empty one would be rejected.
        .apiKey(config.apiKey().isEmpty() ? "none" : config.apiKey())
        .modelName(config.model())
        .temperature(0.0)
        .timeout(Duration.ofSeconds(config.timeoutSeconds()))
        .maxRetries(0)
        .build();
  }
}
