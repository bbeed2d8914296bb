package org.openbook.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.openbook.conversation.Conversation;
import org.openbook.conversation.ConversationStore;
import org.openbook.conversation.Turn;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's conversations, persisted per principal: one JSON file per conversation
 * ({@code <dir>/<id>.json}, replaced atomically: temporary file, then move), all held in memory
 * for listing. Ids are random UUIDs issued by the server; a client cannot invent one, and every
 * read or change checks the owner, answering "not found" for another principal's id so ids of
 * others are not revealed. A conversation is written at its first finished turn.
 *
 * <p>Quotas: a principal holds at most {@code maxConversations} conversations and a conversation
 * at most {@code maxTurns} turns; one more is refused with 429 naming the limit, so the memory
 * held is bounded per principal (conversations × turns × one question and answer). Conversations
 * started but never answered (a failed ask) hold no turn and are forgotten first. Thread-safe.
 */
public final class ConversationLibrary implements ConversationStore {
  private static final Logger LOG = LoggerFactory.getLogger(ConversationLibrary.class);
  private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();
  /** Longest title kept; a default title is the first question cut to {@value #DEFAULT_TITLE} chars. */
  static final int MAX_TITLE = 200;
  static final int DEFAULT_TITLE = 60;

  /**
   * One stored conversation.
   *
   * @param createdAt ISO-8601 instant
   * @param updatedAt ISO-8601 instant of the last turn or rename
   */
  public record Stored(String id, String owner, String title, String createdAt, String updatedAt,
      List<Turn> turns) {
    public Stored {
      turns = turns == null ? List.of() : List.copyOf(turns);
    }

    Conversation conversation() {
      return new Conversation(id, owner, turns);
    }
  }

  private final Path dir;
  private final Clock clock;
  private final Map<String, Stored> byId = new HashMap<>();
  private final int maxConversations;
  private final int maxTurns;

  /**
   * Loads every conversation under {@code dir} with the default quotas.
   *
   * @param dir folder of the files; created when absent
   */
  public ConversationLibrary(Path dir, Clock clock) throws IOException {
    this(dir, clock, org.openbook.engine.config.ServerLimits.DEFAULT_MAX_CONVERSATIONS,
        org.openbook.engine.config.ServerLimits.DEFAULT_MAX_TURNS);
  }

  /**
   * Loads every conversation under {@code dir}; an unreadable file is logged and skipped.
   *
   * @param dir              folder of the files; created when absent
   * @param maxConversations conversations per principal ({@code server.quotas.maxConversationsPerPrincipal})
   * @param maxTurns         turns per conversation ({@code server.quotas.maxTurnsPerConversation})
   */
  public ConversationLibrary(Path dir, Clock clock, int maxConversations, int maxTurns)
      throws IOException {
    this.dir = dir;
    this.clock = clock;
    this.maxConversations = maxConversations;
    this.maxTurns = maxTurns;
    Files.createDirectories(dir);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.json")) {
      for (Path f : files) {
        try {
          Stored s = JSON.readValue(f.toFile(), Stored.class);
          byId.put(s.id(), s);
        } catch (IOException | RuntimeException e) {
          LOG.warn("skipping unreadable conversation file {}: {}", LogSafe.of(f),
              LogSafe.of(e.getMessage()));
        }
      }
    }
  }

  /**
   * Starts a conversation of {@code owner} and returns its new id.
   *
   * @throws ApiException 429 when {@code owner} already holds {@code maxConversations}
   */
  public synchronized String start(String owner) {
    if (count(owner) >= maxConversations) {
      // started but never answered: nothing to lose
      byId.values().removeIf(s -> s.owner().equals(owner) && s.turns().isEmpty());
      long n = count(owner);
      if (n >= maxConversations) {
        throw new ApiException(429, null, "principal '" + owner + "' holds " + n
            + " conversations, at most " + maxConversations
            + " (server.quotas.maxConversationsPerPrincipal); delete some to start another");
      }
    }
    String id = UUID.randomUUID().toString();
    String now = clock.instant().toString();
    byId.put(id, new Stored(id, owner, null, now, now, List.of()));
    return id;
  }

  /**
   * The conversation {@code id} of {@code owner}.
   *
   * @throws ApiException 404 naming {@code field} when unknown or another principal's
   */
  public synchronized Stored require(String id, String owner, String field) {
    Stored s = id == null ? null : byId.get(id);
    if (s == null || !s.owner().equals(owner)) {
      throw new ApiException(404, field, "unknown conversation id");
    }
    return s;
  }

  /**
   * As {@link #require}, for asking one more turn.
   *
   * @throws ApiException 429 naming {@code field} when the conversation has {@code maxTurns}
   */
  public synchronized Stored requireRoomForTurn(String id, String owner, String field) {
    Stored s = require(id, owner, field);
    if (s.turns().size() >= maxTurns) {
      throw new ApiException(429, field, "the conversation has " + s.turns().size()
          + " turns, at most " + maxTurns + " (server.quotas.maxTurnsPerConversation); start a"
          + " new conversation");
    }
    return s;
  }

  private long count(String owner) {
    return byId.values().stream().filter(s -> s.owner().equals(owner)).count();
  }

  /** The conversations of {@code owner} with at least one turn, most recently updated first. */
  public synchronized List<Stored> list(String owner) {
    return byId.values().stream()
        .filter(s -> s.owner().equals(owner) && !s.turns().isEmpty())
        .sorted(Comparator.comparing(Stored::updatedAt).reversed().thenComparing(Stored::id))
        .toList();
  }

  /** Renames a conversation of {@code owner}; see {@link #require} for errors. */
  public synchronized Stored rename(String id, String owner, String title) {
    Stored s = require(id, owner, "id");
    Stored renamed = new Stored(s.id(), s.owner(), title, s.createdAt(),
        clock.instant().toString(), s.turns());
    write(renamed);
    return renamed;
  }

  /** Deletes a conversation of {@code owner}; see {@link #require} for errors. */
  public synchronized void delete(String id, String owner) {
    require(id, owner, "id");
    byId.remove(id);
    try {
      Files.deleteIfExists(file(id));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The title shown: the given one, else the first question cut to {@value #DEFAULT_TITLE}. */
  static String titleOf(Stored s) {
    if (s.title() != null && !s.title().isBlank()) {
      return s.title();
    }
    if (s.turns().isEmpty()) {
      return "";
    }
    String q = s.turns().get(0).question().strip();
    return q.codePointCount(0, q.length()) <= DEFAULT_TITLE ? q
        : q.substring(0, q.offsetByCodePoints(0, DEFAULT_TITLE)) + "…";
  }

  @Override
  public synchronized Optional<Conversation> find(String id) {
    Stored s = byId.get(id);
    return s == null ? Optional.empty() : Optional.of(s.conversation());
  }

  @Override
  public synchronized void save(Conversation c) {
    Stored old = byId.get(c.id());
    String now = clock.instant().toString();
    Stored s = new Stored(c.id(), c.owner(), old == null ? null : old.title(),
        old == null ? now : old.createdAt(), now, c.turns());
    write(s);
  }

  private void write(Stored s) {
    try {
      Path tmp = Files.createTempFile(dir, "c-", ".tmp");
      try {
        JSON.writeValue(tmp.toFile(), s);
        try {
          Files.move(tmp, file(s.id()), StandardCopyOption.REPLACE_EXISTING,
              StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, file(s.id()), StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write conversation " + s.id(), e);
    }
    byId.put(s.id(), s);
  }

  private Path file(String id) {
    return dir.resolve(Conversation.requireValidId(id) + ".json");
  }

  /** Now, for callers that stamp related records. */
  Instant now() {
    return clock.instant();
  }
}
