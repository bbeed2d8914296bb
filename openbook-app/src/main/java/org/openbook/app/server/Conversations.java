package org.openbook.app.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.openbook.conversation.Conversation;
import org.openbook.conversation.ConversationStore;

/**
 * The server's conversations: ids it issued, each owned by the principal that started it, with
 * the turns that {@link org.openbook.conversation.ConversationService} stores. In memory, keeping
 * the {@code capacity} most recently used conversations so a long-running server stays bounded.
 * Unlike the CLI, a client cannot invent an id: it gets one from its first ask and may only
 * continue it as the same principal. Thread-safe.
 */
public final class Conversations implements ConversationStore {
  private final int capacity;
  private final Map<String, Conversation> byId;

  /** @param capacity conversations kept, ≥ 1 */
  public Conversations(int capacity) {
    this.capacity = capacity;
    this.byId = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Conversation> eldest) {
        return size() > Conversations.this.capacity;
      }
    };
  }

  /** Starts a conversation of {@code owner} and returns its new id (a random UUID). */
  public synchronized String start(String owner) {
    String id = UUID.randomUUID().toString();
    byId.put(id, new Conversation(id, owner, List.of()));
    return id;
  }

  /**
   * Checks that {@code id} is a live conversation of {@code owner}.
   *
   * @return {@code id}
   * @throws ApiException 404 naming {@code conversationId} when the id is unknown, expired, or
   *     belongs to another principal (the same answer, so ids of others are not revealed)
   */
  public synchronized String require(String id, String owner) {
    Conversation c = byId.get(id);
    if (c == null || !c.owner().equals(owner)) {
      throw new ApiException(404, "conversationId", "unknown conversation id '" + id + "'");
    }
    return id;
  }

  @Override
  public synchronized Optional<Conversation> find(String id) {
    return Optional.ofNullable(byId.get(id));
  }

  @Override
  public synchronized void save(Conversation conversation) {
    byId.put(conversation.id(), conversation);
  }
}
