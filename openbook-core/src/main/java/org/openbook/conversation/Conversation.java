package org.openbook.conversation;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A conversation: its id, the principal it belongs to, and its turns, oldest first.
 *
 * @param id    1–64 characters from {@code [A-Za-z0-9_-]}, so it is safe as a file name
 * @param owner name of the principal that started it; only that principal may continue it, so
 *              one user's earlier questions never steer another user's retrieval
 * @param turns finished turns, oldest first
 */
public record Conversation(String id, String owner, List<Turn> turns) {

  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  public Conversation {
    requireValidId(id);
    if (owner == null || owner.isBlank()) {
      throw new IllegalArgumentException("conversation.owner must not be blank");
    }
    turns = turns == null ? List.of() : List.copyOf(turns);
  }

  /**
   * Checks a conversation id.
   *
   * @throws IllegalArgumentException naming the field when {@code id} is not 1–64 characters
   *     from {@code [A-Za-z0-9_-]}
   */
  public static String requireValidId(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      throw new IllegalArgumentException("conversation id must be 1-64 characters from "
          + "[A-Za-z0-9_-], got '" + id + "'");
    }
    return id;
  }

  /** This conversation with {@code turn} appended. */
  public Conversation with(Turn turn) {
    List<Turn> all = new java.util.ArrayList<>(turns);
    all.add(turn);
    return new Conversation(id, owner, all);
  }
}
