package org.openbook.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Thumbs-up/down feedback on answers, one JSON file per rated turn
 * ({@code <dir>/<id>.json}, id derived from conversation and turn so rating a turn again replaces
 * the earlier rating; atomic replace). Each record carries what an evaluation needs: question,
 * answer, cited chunk ids and the cited passages' sources and opening text. Thread-safe.
 */
public final class FeedbackStore {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Longest comment kept, characters. */
  static final int MAX_COMMENT = 2000;

  /**
   * One rated answer.
   *
   * @param rating    {@code up} or {@code down}
   * @param cited     the cited passages at rating time: source and the passage's opening text
   * @param createdAt ISO-8601 instant
   */
  public record Feedback(String id, String principal, String conversationId, int turn,
      String rating, String comment, String question, String answer, List<String> citedChunkIds,
      List<Cited> cited, String createdAt) {
    public Feedback {
      citedChunkIds = citedChunkIds == null ? List.of() : List.copyOf(citedChunkIds);
      cited = cited == null ? List.of() : List.copyOf(cited);
    }
  }

  /** A cited passage: its source and a verbatim opening snippet of it. */
  public record Cited(String chunkId, String source, String snippet) {}

  private final Path dir;

  /** @param dir folder of the files; created on the first save */
  public FeedbackStore(Path dir) {
    this.dir = dir;
  }

  /** The id of the feedback on turn {@code turn} of {@code conversationId}. */
  static String idOf(String conversationId, int turn) {
    return "fb-" + AuditLog.sha256(conversationId + "#" + turn).substring(0, 24);
  }

  /** Stores {@code f}, replacing an earlier rating of the same turn. */
  public synchronized void save(Feedback f) {
    try {
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, "f-", ".tmp");
      try {
        Files.writeString(tmp, JSON.writeValueAsString(f), StandardCharsets.UTF_8);
        try {
          Files.move(tmp, dir.resolve(f.id() + ".json"), StandardCopyOption.REPLACE_EXISTING,
              StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, dir.resolve(f.id() + ".json"), StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write feedback " + f.id(), e);
    }
  }

  /**
   * Stores {@code f} as {@link #save(Feedback)} when its principal has room: re-rating a turn
   * (same id) always may, a new rating only while the principal holds fewer than {@code max}.
   * Checked and written under one lock, so concurrent ratings cannot pass the quota together.
   *
   * @throws ApiException 429 naming the limit {@code server.quotas.maxFeedbackPerPrincipal}
   */
  public synchronized void save(Feedback f, int max) throws IOException {
    if (!Files.exists(dir.resolve(f.id() + ".json"))) {
      int held = of(f.principal()).size();
      if (held >= max) {
        throw new ApiException(429, null, "principal '" + f.principal() + "' holds " + held
            + " ratings, at most " + max + " (server.quotas.maxFeedbackPerPrincipal)");
      }
    }
    save(f);
  }

  /** Every stored feedback, oldest first. */
  public synchronized List<Feedback> all() throws IOException {
    return read(dir);
  }

  /** The feedback of {@code principal}, oldest first. */
  public List<Feedback> of(String principal) throws IOException {
    return all().stream().filter(f -> f.principal().equals(principal)).toList();
  }

  /**
   * Reads every feedback file under {@code dir} (none when it is absent), oldest first.
   *
   * @throws IOException naming the file when one is not a feedback record
   */
  public static List<Feedback> read(Path dir) throws IOException {
    List<Feedback> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "fb-*.json")) {
      for (Path f : files) {
        try {
          out.add(JSON.readValue(f.toFile(), Feedback.class));
        } catch (IOException e) {
          throw new IOException("feedback file " + f + " is not valid: " + e.getMessage(), e);
        }
      }
    }
    out.sort(Comparator.comparing(Feedback::createdAt).thenComparing(Feedback::id));
    return out;
  }
}
