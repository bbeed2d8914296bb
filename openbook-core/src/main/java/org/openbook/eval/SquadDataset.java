package org.openbook.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A SQuAD-format reading-comprehension set (SQuAD 1.1 JSON: {@code data[].paragraphs[]} with
 * {@code context} and {@code qas[]}; CMRC 2018, DRCD and XQuAD use it) seen as a retrieval
 * benchmark: the corpus is every context, each question's gold is its own context.
 *
 * @param name       data set name
 * @param paragraphs the contexts in file order
 * @param questions  every question, with the index of its paragraph
 */
public record SquadDataset(String name, List<Paragraph> paragraphs, List<Question> questions) {

  public SquadDataset {
    paragraphs = List.copyOf(paragraphs);
    questions = List.copyOf(questions);
  }

  /**
   * One context.
   *
   * @param id    {@code p<index>} (0-based, file order); unique even where the file reuses ids
   * @param title the article title, or {@code ""}
   * @param text  the context text
   */
  public record Paragraph(String id, String title, String text) {}

  /**
   * One question.
   *
   * @param id        the file's question id
   * @param text      the question
   * @param paragraph index into {@link #paragraphs()} of its context
   */
  public record Question(String id, String text, int paragraph) {}

  /**
   * Reads a SQuAD-format file. Questions with a blank text are skipped (counted in the error
   * message never; they cannot be asked); contexts are kept verbatim.
   *
   * @throws IllegalArgumentException naming the file if it has no {@code data} array or a
   *     paragraph lacks {@code context}
   * @throws IOException if the file cannot be read or is not JSON
   */
  public static SquadDataset read(String name, Path file) throws IOException {
    JsonNode root = new ObjectMapper().readTree(file.toFile());
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) {
      throw new IllegalArgumentException(file + ": no 'data' array; not a SQuAD-format file");
    }
    List<Paragraph> paragraphs = new ArrayList<>();
    List<Question> questions = new ArrayList<>();
    for (JsonNode article : data) {
      String title = article.path("title").asText("");
      for (JsonNode p : article.path("paragraphs")) {
        JsonNode context = p.get("context");
        if (context == null || !context.isTextual()) {
          throw new IllegalArgumentException(
              file + ": paragraph " + paragraphs.size() + " has no 'context' string");
        }
        int index = paragraphs.size();
        paragraphs.add(new Paragraph("p" + index, title, context.asText()));
        for (JsonNode qa : p.path("qas")) {
          String q = qa.path("question").asText("");
          if (!q.isBlank()) {
            questions.add(new Question(qa.path("id").asText(""), q.strip(), index));
          }
        }
      }
    }
    return new SquadDataset(name, paragraphs, questions);
  }
}
