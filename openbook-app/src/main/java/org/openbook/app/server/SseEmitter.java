package org.openbook.app.server;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes Server-Sent Events (WHATWG HTML § 9.2) to a response stream: {@code event: NAME},
 * one {@code data:} line per line of the payload, a blank line, then a flush so the client sees
 * each event at once. Payloads are JSON, which has no raw newlines, so each event is one line.
 * Thread-safe: the request thread sends events while a heartbeat thread sends comments.
 */
final class SseEmitter {
  private final OutputStream out;

  SseEmitter(OutputStream out) {
    this.out = out;
  }

  /**
   * Sends one event.
   *
   * @throws ClientGoneException when the client has gone away
   */
  void send(String event, String json) {
    StringBuilder sb = new StringBuilder("event: ").append(event).append('\n');
    for (String line : json.split("\n", -1)) {
      sb.append("data: ").append(line).append('\n');
    }
    sb.append('\n');
    write(sb.toString());
  }

  /**
   * Sends a comment line, which clients ignore: writing it is how a gone client is noticed while
   * no event is due (e.g. while the LLM thinks).
   *
   * @throws ClientGoneException when the client has gone away
   */
  void heartbeat() {
    write(":\n\n");
  }

  private synchronized void write(String text) {
    try {
      out.write(text.getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      throw new ClientGoneException(e);
    }
  }

  /** The client closed the event stream; nothing more can be sent. */
  static final class ClientGoneException extends RuntimeException {
    ClientGoneException(IOException cause) {
      super("client closed the event stream", cause);
    }
  }
}
