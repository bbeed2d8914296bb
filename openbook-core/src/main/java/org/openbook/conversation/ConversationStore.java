package org.openbook.conversation;

import java.io.IOException;
import java.util.Optional;

/**
 * Keeps conversations between questions. Implementations: {@link InMemoryConversationStore}
 * (server, tests) and {@link JsonFileConversationStore} (one JSON file per conversation, for the
 * CLI, whose process ends after every question).
 */
public interface ConversationStore {

  /**
   * The conversation with {@code id}, or empty when there is none yet.
   *
   * @throws IllegalArgumentException for an invalid id ({@link Conversation#requireValidId})
   * @throws IOException when a stored conversation cannot be read; the message names the file
   */
  Optional<Conversation> find(String id) throws IOException;

  /** Stores {@code conversation}, replacing any earlier state with the same id. */
  void save(Conversation conversation) throws IOException;
}
