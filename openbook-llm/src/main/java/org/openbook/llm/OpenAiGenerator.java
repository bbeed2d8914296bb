package org.openbook.llm;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.openbook.answer.GenerationException;
import org.openbook.answer.TruncatedReplyException;
import org.openbook.answer.Generator;
import org.openbook.answer.Prompt;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.Source;

/**
 * Generates answers with an OpenAI-compatible chat endpoint through LangChain4j's
 * {@link OpenAiStreamingChatModel}, streaming, at temperature 0.
 *
 * <p>Pieces are forwarded to {@code onText} on the calling thread as they arrive, with whole code
 * points only ({@link SurrogateSafeBuffer}); the returned text equals their concatenation. Bytes
 * of one UTF-8 character split across network reads are reassembled by LangChain4j's SSE parser,
 * which decodes the response as one UTF-8 stream. If no data arrives for
 * {@link LlmConfig#timeoutSeconds()} the call gives up (the stream is cancelled when possible).
 * Error messages name the base URL, never the API key.
 */
public final class OpenAiGenerator implements Generator {

  private final LlmConfig config;
  private final PromptBuilder prompts;
  private final StreamingChatModel model;

  /**
   * @param config  endpoint, key, model and timeout
   * @param prompts builds the system and user messages
   */
  public OpenAiGenerator(LlmConfig config, PromptBuilder prompts) {
    this.config = config;
    this.prompts = prompts;
    this.model = OpenAiStreamingChatModel.builder()
        .baseUrl(config.baseUrl())
        // Local servers (Ollama, llama.cpp) accept any key; an empty one would be rejected.
        .apiKey(config.apiKey().isEmpty() ? "none" : config.apiKey())
        .modelName(config.model())
        .temperature(0.0)
        .timeout(Duration.ofSeconds(config.timeoutSeconds()))
        .build();
  }

  @Override
  public String id() {
    return "openai:" + config.model();
  }

  @Override
  public String generate(String question, List<Source> sources, Consumer<String> onText)
      throws GenerationException {
    Prompt prompt = prompts.build(question, sources);
    ChatRequest request = ChatRequest.builder()
        .messages(SystemMessage.from(prompt.system()), UserMessage.from(prompt.user()))
        .build();
    BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    AtomicReference<StreamingHandle> handle = new AtomicReference<>();
    try {
      model.chat(request, new StreamingChatResponseHandler() {
        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
          handle.set(context.streamingHandle());
          events.add(new Event(partial.text(), false, null, null));
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
          events.add(new Event(null, true, null, response.finishReason()));
        }

        @Override
        public void onError(Throwable error) {
          events.add(new Event(null, false, error, null));
        }
      });
    } catch (RuntimeException e) {
      throw failure(e);
    }

    SurrogateSafeBuffer buffer = new SurrogateSafeBuffer();
    StringBuilder text = new StringBuilder();
    while (true) {
      Event e;
      try {
        e = events.poll(config.timeoutSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        cancel(handle.get());
        throw new GenerationException("interrupted while waiting for " + config.baseUrl(), ie);
      }
      if (e == null) {
        cancel(handle.get());
        throw new GenerationException("LLM endpoint " + config.baseUrl() + " sent nothing for "
            + config.timeoutSeconds() + " s (timeout)");
      }
      if (e.error() != null) {
        throw failure(e.error());
      }
      try {
        if (e.done()) {
          emit(buffer.flush(), text, onText);
          if (e.finish() != FinishReason.STOP) {
            // Cut off by the length limit or a filter, or a stream that ended without saying it
            // was done: the text is a fragment, not an answer.
            throw new TruncatedReplyException(
                e.finish() == null ? "" : e.finish().name().toLowerCase(java.util.Locale.ROOT),
                text.toString());
          }
          return text.toString();
        }
        if (e.piece() != null) {
          emit(buffer.push(e.piece()), text, onText);
        }
      } catch (RuntimeException listenerFailed) {
        // the consumer is gone (e.g. the HTTP client disconnected): stop paying for tokens
        cancel(handle.get());
        throw listenerFailed;
      }
    }
  }

  private static void emit(String piece, StringBuilder text, Consumer<String> onText) {
    if (!piece.isEmpty()) {
      text.append(piece);
      onText.accept(piece);
    }
  }

  private static void cancel(StreamingHandle handle) {
    if (handle != null) {
      try {
        handle.cancel();
      } catch (RuntimeException ignored) {
        // best effort: the stream is abandoned either way
      }
    }
  }

  private GenerationException failure(Throwable error) {
    return LlmErrors.describe(config, error);
  }

  /** One stream event: a piece, the end (with the model's finish reason, or null), or an error. */
  private record Event(String piece, boolean done, Throwable error, FinishReason finish) {}
}
