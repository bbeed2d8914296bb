package org.openbook.llm;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openbook.answer.AnswerLanguage;
import org.openbook.rerank.RerankException;
import org.openbook.rerank.RerankScore;
import org.openbook.rerank.Reranker;

/**
 * Listwise reranking by the configured chat model, in the manner of RankGPT (Sun et al., "Is
 * ChatGPT Good at Search? Investigating Large Language Models as Re-Ranking Agents", EMNLP
 * 2023): the passages are shown numbered {@code [1]..[n]} (each cut to
 * {@value #PASSAGE_CHARS} characters) and the model answers with the numbers of the most
 * relevant ones, best first, e.g. {@code [3] > [1] > [2]}.
 *
 * <p>The reply is validated strictly: it must consist only of passage numbers (bracketed or
 * not) separated by {@code >}, commas or spaces, each in 1..n and none twice; anything else
 * (prose, an unknown number, a repeat, an empty reply) is a {@link RerankException}, so the stage
 * keeps the fused order. Passages the model leaves out stay unscored and follow in fused order.
 *
 * <p>Scores are rank-derived, not probabilities: the passage the model puts at position p
 * (0-based) of m listed gets {@code (m - p) / m}, in (0, 1]. A gate-1 threshold on them only says
 * "the model listed something", so leave {@code rerank.threshold} unset with this reranker.
 */
public final class LlmReranker implements Reranker {

  /** Characters of each passage shown to the model; bounds the prompt at fetch-k × this. */
  public static final int PASSAGE_CHARS = 400;

  /** Chinese instruction. */
  public static final String SYSTEM_ZH = "你是检索结果排序器。根据与问题的相关程度给编号段落排序。"
      + "只输出最相关的段落编号，按相关程度从高到低，用 > 分隔，例如 [2] > [1] > [3]。不要输出其他文字。";
  /** English instruction. */
  public static final String SYSTEM_EN = "You rank search results. Order the numbered passages by "
      + "how relevant they are to the question. Output only the numbers of the most relevant "
      + "passages, most relevant first, separated by >, e.g. [2] > [1] > [3]. Output nothing else.";

  private static final Pattern WHOLE_REPLY =
      Pattern.compile("\\s*\\[?\\d+]?(\\s*[>,，、]?\\s*\\[?\\d+]?)*\\s*");
  private static final Pattern NUMBER = Pattern.compile("\\d+");

  private final LlmConfig config;
  private final ChatModel model;

  /** A reranker on the chat endpoint of {@code config} (temperature 0, no retries). */
  public LlmReranker(LlmConfig config) {
    this.config = config;
    this.model = ChatModels.of(config);
  }

  @Override
  public String id() {
    return "llm:" + config.model();
  }

  @Override
  public List<RerankScore> rerank(String query, List<String> passages, int topN)
      throws RerankException {
    boolean zh = AnswerLanguage.of(query) == AnswerLanguage.ZH;
    StringBuilder user = new StringBuilder();
    for (int i = 0; i < passages.size(); i++) {
      user.append('[').append(i + 1).append("] ").append(cut(passages.get(i)).strip())
          .append("\n\n");
    }
    user.append(zh ? "问题：" : "Question: ").append(query.strip()).append('\n');
    user.append(zh
        ? "按相关程度列出最相关的 " + topN + " 个段落编号："
        : "List the numbers of the " + topN + " most relevant passages:");
    ChatRequest request = ChatRequest.builder()
        .messages(SystemMessage.from(zh ? SYSTEM_ZH : SYSTEM_EN), UserMessage.from(user.toString()))
        .build();
    String reply;
    try {
      reply = model.chat(request).aiMessage().text();
    } catch (RuntimeException e) {
      throw new RerankException(LlmErrors.describe(config, e).getMessage(), e);
    }
    return parse(reply, passages.size());
  }

  /**
   * The scores of a listwise reply over {@code n} passages; see the class comment.
   *
   * @throws RerankException for a reply that is not a list of distinct numbers in 1..n
   */
  static List<RerankScore> parse(String reply, int n) throws RerankException {
    if (reply == null || reply.isBlank() || !WHOLE_REPLY.matcher(reply).matches()) {
      throw new RerankException("malformed LLM ranking (expected e.g. [2] > [1]): "
          + abbreviate(reply));
    }
    List<Integer> order = new ArrayList<>();
    Matcher m = NUMBER.matcher(reply);
    while (m.find()) {
      int number;
      try {
        number = Integer.parseInt(m.group());
      } catch (NumberFormatException e) {
        number = -1;
      }
      if (number < 1 || number > n) {
        throw new RerankException("LLM ranking names passage " + m.group() + ", not in 1.." + n
            + ": " + abbreviate(reply));
      }
      if (order.contains(number - 1)) {
        throw new RerankException("LLM ranking names passage " + number + " twice: "
            + abbreviate(reply));
      }
      order.add(number - 1);
    }
    List<RerankScore> out = new ArrayList<>(order.size());
    for (int p = 0; p < order.size(); p++) {
      out.add(new RerankScore(order.get(p), (order.size() - p) / (double) order.size()));
    }
    return out;
  }

  private static String cut(String passage) {
    return passage.codePointCount(0, passage.length()) <= PASSAGE_CHARS
        ? passage
        : passage.substring(0, passage.offsetByCodePoints(0, PASSAGE_CHARS)) + "…";
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "(none)";
    }
    return s.length() <= 120 ? s : s.substring(0, 120) + "…";
  }
}
