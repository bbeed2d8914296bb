package org.openbook.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One JSON line per ask or search: {@code {"time", "principal", "endpoint", "questionSha256",
 * "chunkIds"}}. The question itself is not logged, only its SHA-256 (hex), so the log can show
 * who retrieved what without keeping what people asked. Lines go to the {@code openbook.audit}
 * logger and, when a file is configured, are appended to it. Thread-safe.
 */
public final class AuditLog {
  private static final Logger LOG = LoggerFactory.getLogger("openbook.audit");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path file;
  private final Clock clock;

  /**
   * @param file  file to append to, or {@code null} for the logger only
   * @param clock time source
   */
  public AuditLog(Path file, Clock clock) {
    this.file = file;
    this.clock = clock;
  }

  /**
   * Records a retrieval.
   *
   * @throws AuditException when the audit file cannot be written (the request then fails: an
   *     unaudited retrieval must not be served)
   */
  public void record(String endpoint, String principal, String question, List<String> chunkIds) {
    ObjectNode line = JSON.createObjectNode();
    line.put("time", clock.instant().toString());
    line.put("principal", principal);
    line.put("endpoint", endpoint);
    line.put("questionSha256", sha256(question));
    line.set("chunkIds", JSON.valueToTree(chunkIds));
    String text = line.toString();
    // Jackson escapes C0 controls; U+2028, U+0085 and the like are escaped here (still JSON)
    text = LogSafe.of(text);
    LOG.info(text);
    if (file != null) {
      synchronized (this) {
        try {
          Files.writeString(file, text + "\n", StandardCharsets.UTF_8,
              StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
        } catch (IOException e) {
          throw new AuditException(file, e);
        }
      }
    }
  }

  /**
   * Checks that the audit file can be appended to now, so a request can fail with a status
   * before a response (e.g. an event stream) has started.
   *
   * @throws AuditException when it cannot
   */
  public void requireWritable() {
    if (file == null) {
      return;
    }
    synchronized (this) {
      try {
        Files.writeString(file, "", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
            StandardOpenOption.APPEND, StandardOpenOption.WRITE);
      } catch (IOException e) {
        throw new AuditException(file, e);
      }
    }
  }

  /** The audit file cannot be written; the message names the file, so it is for the log only. */
  public static final class AuditException extends RuntimeException {
    AuditException(Path file, IOException cause) {
      super("cannot write audit log " + file, cause);
    }
  }

  /** Lower-case hex SHA-256 of the UTF-8 bytes of {@code text}. */
  public static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }
}
