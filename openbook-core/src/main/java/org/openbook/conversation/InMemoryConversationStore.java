package org.openbook.conversation;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Conversations in a map; lost when the process ends. Thread-safe. */
public final class InMemoryConversationStore implements ConversationStore {

  private final Map<String, Conversation> byId = new ConcurrentHashMap<>();

  @Override
  public Optional<Conversation> find(String id) {
    return Optional.ofNullable(byId.get(Conversation.requireValidId(id)));
  }

  @Override
  public void save(Conversation conversation) {
    byId.put(conversation.id(), conversation);
  }
}
