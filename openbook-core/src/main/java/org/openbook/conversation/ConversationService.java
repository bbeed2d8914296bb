package org.openbook.conversation;

import java.io.IOException;
import java.util.List;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.Answerer;
import org.openbook.answer.Citation;
import org.openbook.answer.GenerationException;
import org.openbook.retrieve.Query;

/**
 * Multi-turn asking: a follow-up is rewritten into a standalone question from the conversation's
 * earlier turns BEFORE retrieval, then answered as a single question; the turn is stored.
 *
 * <ol>
 *   <li>Load the conversation (a new id starts one owned by the query's principal; an id owned by
 *       another principal is an error, so nobody's history steers another's retrieval).
 *   <li>With earlier turns, rewrite the question with the {@link QuestionRewriter} (an LLM in the
 *       app when configured); if that rewriter fails, fall back to {@link KeyTermCarryOver} and
 *       say so in the diagnostics' reason.
 *   <li>Ask the standalone question through {@link Answerer} (normally {@link AnswerService#ask}); the
 *       rewrite, when it differs from the question, is the answer's
 *       {@code diagnostics().rewrittenQuestion()}.
 *   <li>Append the turn (question, standalone question, answer text, cited chunk ids, status,
 *       and the ids of every source it was written from).
 * </ol>
 */
public final class ConversationService {

  private final Answerer asker;
  private final QuestionRewriter rewriter;
  private final ConversationStore store;
  private final TurnAccess access;
  private final KeyTermCarryOver fallback = new KeyTermCarryOver();

  /**
   * A service whose history is read in full ({@link TurnAccess#OPEN}).
   *
   * @param asker    answers a standalone question
   * @param rewriter rewrites follow-ups
   * @param store    keeps the turns
   */
  public ConversationService(Answerer asker, QuestionRewriter rewriter, ConversationStore store) {
    this(asker, rewriter, store, TurnAccess.OPEN);
  }

  /**
   * @param access which earlier turns the asking principal may still read: the others reach the
   *               rewriter withheld, so an answer from documents it lost access to cannot steer
   *               (or be quoted by) the rewrite
   */
  public ConversationService(Answerer asker, QuestionRewriter rewriter, ConversationStore store,
      TurnAccess access) {
    this.asker = asker;
    this.rewriter = rewriter;
    this.store = store;
    this.access = access;
  }

  /**
   * Asks {@code query} as the next turn of conversation {@code conversationId}.
   *
   * @param conversationId 1–64 characters from {@code [A-Za-z0-9_-]}
   * @param query          the question as asked, with principal and top-k
   * @param listener       receives sources and text as {@link Answerer.Listener} does
   * @return the answer; its diagnostics carry the rewrite
   * @throws IllegalArgumentException for an invalid id, or an id that belongs to another principal
   * @throws IOException when the store cannot read or write the conversation
   */
  public Answer ask(String conversationId, Query query, Answerer.Listener listener)
      throws IOException {
    String owner = query.principal().name();
    Conversation conversation = store.find(conversationId)
        .orElseGet(() -> new Conversation(conversationId, owner, List.of()));
    if (!conversation.owner().equals(owner)) {
      throw new IllegalArgumentException("conversation '" + conversationId
          + "' belongs to another principal; start a new conversation id");
    }

    String standalone = query.text();
    String note = "";
    if (!conversation.turns().isEmpty()) {
      List<Turn> history = access.visible(conversation.turns(), query.principal());
      try {
        standalone = rewriter.rewrite(query.text(), history);
      } catch (GenerationException | RuntimeException e) {
        standalone = fallback.rewrite(query.text(), history);
        note = "question rewrite failed (" + e.getMessage() + "); used key-term carry-over";
      }
      if (standalone == null || standalone.isBlank()) {
        standalone = query.text();
      }
    }

    Query asked = new Query(standalone, query.principal(), query.topK(), query.fetchK());
    Answer answer = asker.ask(asked, listener);
    String rewritten = standalone.equals(query.text()) ? "" : standalone;
    var diagnostics = answer.diagnostics().withRewrittenQuestion(rewritten);
    if (!note.isEmpty()) {
      diagnostics = diagnostics.withReason(diagnostics.reason().isEmpty()
          ? note : diagnostics.reason() + "; " + note);
    }
    Answer result = new Answer(answer.status(), answer.text(), answer.citations(),
        answer.sources(), diagnostics);

    List<String> cited = result.citations().stream().map(Citation::chunkId).toList();
    // every chunk the answer was written from, cited or not: what its readability depends on
    List<String> used = java.util.stream.Stream.concat(cited.stream(),
        result.sources().stream().map(org.openbook.answer.Source::chunkId)).distinct().toList();
    store.save(conversation.with(
        new Turn(query.text(), standalone, result.text(), cited, result.status(), used)));
    return result;
  }
}
