package org.openbook.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads question files: JSON Lines, UTF-8, one object per line, blank lines skipped.
 *
 * <p>Fields: {@code question} (required), {@code id}, {@code type}, {@code principal},
 * {@code expect} ({@code answer} or {@code refuse}; default {@code answer}), {@code gold}
 * (array of {@code {source, contains}}), {@code answer_contains} (array of strings). A plain
 * question file ({@code {question, principal?}} per line) is therefore also accepted.
 */
public final class EvalCases {

  private static final ObjectMapper JSON = new ObjectMapper();

  private EvalCases() {}

  /**
   * Reads every case of {@code file}.
   *
   * @throws IllegalArgumentException naming the file and line for malformed JSON, a missing or
   *     blank question, an unknown {@code expect}, a bad gold item or a duplicate id
   * @throws IOException if the file cannot be read
   */
  public static List<EvalCase> read(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    List<EvalCase> cases = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = file + ":" + (i + 1);
      EvalCase c = parse(line, i + 1, where);
      if (!ids.add(c.id())) {
        throw new IllegalArgumentException(where + ": duplicate id '" + c.id() + "'");
      }
      cases.add(c);
    }
    return cases;
  }

  private static EvalCase parse(String line, int lineNo, String where) {
    JsonNode n;
    try {
      n = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + ": not valid JSON: " + e.getOriginalMessage());
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException(where + ": expected a JSON object");
    }
    String question = text(n, "question");
    if (question == null || question.isBlank()) {
      throw new IllegalArgumentException(where + ": field 'question' is missing or blank");
    }
    String expect = text(n, "expect");
    if (expect != null && !expect.equals("answer") && !expect.equals("refuse")) {
      throw new IllegalArgumentException(
          where + ": field 'expect' must be 'answer' or 'refuse', got '" + expect + "'");
    }
    List<EvalCase.Gold> gold = new ArrayList<>();
    for (JsonNode g : n.path("gold")) {
      String source = text(g, "source");
      String contains = text(g, "contains");
      if (source == null || contains == null || contains.isEmpty()) {
        throw new IllegalArgumentException(
            where + ": every gold item needs 'source' and a non-empty 'contains'");
      }
      gold.add(new EvalCase.Gold(source, contains));
    }
    List<String> answerContains = new ArrayList<>();
    n.path("answer_contains").forEach(a -> answerContains.add(a.asText()));
    String id = text(n, "id");
    String type = text(n, "type");
    return new EvalCase(id == null ? "line " + lineNo : id, question, type == null ? "" : type,
        text(n, "principal"), "refuse".equals(expect), gold, answerContains);
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : v.asText();
  }
}
