package org.openbook.app.server;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes Server-Sent Events (WHATWG HTML § 9.2) to a response stream: {@code event: NAME},
 * one {@code data:} line per line of the payload, a blank line, then a flush so the client sees
 * each event at once. Payloads are JSON, which has no raw newlines, so each event is one line.
 * Not thread-safe; one emitter per response.
 */
final class SseEmitter {
  private final OutputStream out;

  SseEmitter(OutputStream out) {
    this.out = out;
  }

  /**
   * Sends one event.
   *
   * @throws UncheckedIOException when the client has gone away
   */
  void send(String event, String json) {
    StringBuilder sb = new StringBuilder("event: ").append(event).append('\n');
    for (String line : json.split("\n", -1)) {
      sb.append("data: ").append(line).append('\n');
    }
    sb.append('\n');
    try {
      out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("client closed the event stream", e);
    }
  }
}
