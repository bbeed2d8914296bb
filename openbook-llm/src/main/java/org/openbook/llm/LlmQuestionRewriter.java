package org.openbook.llm;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.List;
import org.openbook.answer.AnswerLanguage;
import org.openbook.answer.GenerationException;
import org.openbook.conversation.QuestionRewriter;
import org.openbook.conversation.Turn;

/**
 * Rewrites a follow-up into a standalone question by asking the chat model (non-streaming,
 * temperature 0). The prompt gives the last {@value #HISTORY_TURNS} turns (each answer cut to
 * {@value #ANSWER_CHARS} characters: the rewrite needs the topic, not the whole answer) and asks
 * for the question only. The first non-blank line of the reply, without surrounding quotes, is
 * the rewrite.
 */
public final class LlmQuestionRewriter implements QuestionRewriter {

  /** Earlier turns shown to the model. */
  public static final int HISTORY_TURNS = 3;
  /** Characters of each earlier answer shown to the model. */
  public static final int ANSWER_CHARS = 300;

  /** Chinese instruction. */
  public static final String SYSTEM_ZH = "根据对话历史，把用户的追问改写成一个不依赖上下文、可以单独用来检索的完整问题。"
      + "保留历史中追问所指的对象、编号和条件。只输出改写后的问题，不要回答，不要解释。";
  /** English instruction. */
  public static final String SYSTEM_EN = "Rewrite the follow-up question into a standalone question "
      + "using the conversation history, keeping the entities, identifiers and conditions it refers "
      + "to. Output only the question; do not answer it and do not explain.";

  private final LlmConfig config;
  private final ChatModel model;

  /** A rewriter on the endpoint of {@code config}. */
  public LlmQuestionRewriter(LlmConfig config) {
    this.config = config;
    this.model = ChatModels.of(config);
  }

  @Override
  public String rewrite(String followUp, List<Turn> history) throws GenerationException {
    boolean zh = AnswerLanguage.of(followUp) == AnswerLanguage.ZH;
    StringBuilder user = new StringBuilder(zh ? "对话历史：\n" : "Conversation history:\n");
    for (Turn t : history.subList(Math.max(0, history.size() - HISTORY_TURNS), history.size())) {
      user.append(zh ? "问：" : "Q: ").append(t.standaloneQuestion().strip()).append('\n');
      user.append(zh ? "答：" : "A: ").append(cut(t.answer().strip())).append('\n');
    }
    user.append('\n').append(zh ? "追问：" : "Follow-up: ").append(followUp.strip());
    ChatRequest request = ChatRequest.builder()
        .messages(SystemMessage.from(zh ? SYSTEM_ZH : SYSTEM_EN), UserMessage.from(user.toString()))
        .build();
    String reply;
    try {
      reply = model.chat(request).aiMessage().text();
    } catch (RuntimeException e) {
      throw LlmErrors.describe(config, e);
    }
    String question = firstLine(reply);
    if (question.isEmpty()) {
      throw new GenerationException("LLM endpoint " + config.baseUrl()
          + " returned an empty rewrite of the follow-up question");
    }
    return question;
  }

  private static String cut(String answer) {
    return answer.codePointCount(0, answer.length()) <= ANSWER_CHARS
        ? answer
        : answer.substring(0, answer.offsetByCodePoints(0, ANSWER_CHARS)) + "…";
  }

  /** The first non-blank line without surrounding quotes, or empty. */
  static String firstLine(String reply) {
    if (reply == null) {
      return "";
    }
    for (String line : reply.split("\\R")) {
      String s = line.strip().replaceAll("^[\"“「『']+|[\"”」』']+$", "").strip();
      if (!s.isEmpty()) {
        return s;
      }
    }
    return "";
  }
}
