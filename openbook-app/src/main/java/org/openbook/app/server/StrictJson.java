package org.openbook.app.server;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;

/**
 * Parses a request body as exactly one JSON value: a duplicate key at any depth is an error
 * naming that key (parsers disagree on which duplicate wins, so a body could mean one thing to
 * a proxy or validator and another here), and anything but whitespace after the value
 * ({@code {"question":"x"} {"a":1}}, {@code {"question":"x"}garbage}) is an error naming
 * {@code body}.
 */
final class StrictJson {
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .build();

  private StrictJson() {}

  /**
   * The value of {@code bytes}.
   *
   * @throws ApiException 400 naming the duplicated key, or {@code body} for malformed JSON and
   *     trailing content
   */
  static JsonNode read(byte[] bytes) {
    try (JsonParser p = JSON.createParser(bytes)) {
      JsonNode root;
      try {
        root = JSON.readTree(p);
      } catch (StreamReadException e) {
        String dup = duplicate(e, p);
        if (dup != null) {
          throw ApiException.badRequest(dup, "duplicate key '" + dup + "' in the JSON body");
        }
        throw malformed(e);
      }
      JsonToken next;
      try {
        next = p.nextToken();
      } catch (JacksonException e) {
        next = JsonToken.NOT_AVAILABLE;
      }
      if (next != null) {
        throw ApiException.badRequest("body", "trailing content after the JSON value at line "
            + p.currentLocation().getLineNr() + ", column "
            + p.currentLocation().getColumnNr() + ": send exactly one JSON object");
      }
      return root;
    } catch (JacksonException e) {
      throw malformed(e);
    } catch (IOException e) {
      throw ApiException.badRequest("body", "cannot read request body: " + e.getMessage());
    }
  }

  /** The duplicated key when {@code e} is Jackson's duplicate-detection error, else null. */
  private static String duplicate(StreamReadException e, JsonParser p) {
    String m = e.getOriginalMessage();
    if (m == null || !m.startsWith("Duplicate field '")) {
      return null;
    }
    try {
      // the parser stands on the second occurrence of the key
      String name = p.currentName();
      return name != null ? name : "body";
    } catch (IOException | RuntimeException ex) {
      return "body";
    }
  }

  private static ApiException malformed(JacksonException e) {
    return ApiException.badRequest("body", "malformed JSON at line "
        + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + ", column "
        + (e.getLocation() == null ? "?" : e.getLocation().getColumnNr()));
  }
}
