package org.openbook.conversation;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * One UTF-8 JSON file per conversation, {@code <dir>/<id>.json}, shaped like
 * {@link Conversation} ({@code {"id":…,"owner":…,"turns":[{"question":…,
 * "standaloneQuestion":…,"answer":…,"citedChunkIds":[…],"status":"ANSWERED"}]}}). The CLI keeps
 * them under {@code <index>/conversations}. Files are replaced atomically (write to a temporary
 * file, then move), so an interrupted write never leaves half a conversation. Not safe for two
 * processes writing the same conversation at once (the later write wins).
 */
public final class JsonFileConversationStore implements ConversationStore {

  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final Path dir;

  /** @param dir folder holding the files; created on the first save */
  public JsonFileConversationStore(Path dir) {
    this.dir = dir;
  }

  /** The file of conversation {@code id}. */
  public Path file(String id) {
    return dir.resolve(Conversation.requireValidId(id) + ".json");
  }

  @Override
  public Optional<Conversation> find(String id) throws IOException {
    Path file = file(id);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    Conversation c;
    try {
      c = MAPPER.readValue(file.toFile(), Conversation.class);
    } catch (JacksonException | IllegalArgumentException e) {
      throw new IOException("conversation file " + file + " is not valid: " + e.getMessage(), e);
    }
    if (!c.id().equals(id)) {
      throw new IOException("conversation file " + file + " holds id '" + c.id() + "', not '"
          + id + "'");
    }
    return Optional.of(c);
  }

  @Override
  public void save(Conversation conversation) throws IOException {
    Path file = file(conversation.id());
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, conversation.id(), ".tmp");
    try {
      MAPPER.writeValue(tmp.toFile(), conversation);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
