package org.openbook.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SquadDatasetTest {

  @TempDir Path dir;

  @Test
  void should_number_paragraphs_in_file_order_and_link_questions_to_them() throws IOException {
    Path f = dir.resolve("s.json");
    Files.writeString(f, """
        {"data":[{"title":"A","paragraphs":[
          {"context":"第一段。","qas":[{"id":"q1","question":" 第一问？ "},{"id":"q2","question":""}]},
          {"context":"第二段。","qas":[{"id":"q3","question":"第二问？"}]}]},
         {"title":"B","paragraphs":[{"context":"第三段。","qas":[]}]}]}
        """);

    SquadDataset d = SquadDataset.read("t", f);

    assertThat(d.paragraphs()).containsExactly(
        new SquadDataset.Paragraph("p0", "A", "第一段。"),
        new SquadDataset.Paragraph("p1", "A", "第二段。"),
        new SquadDataset.Paragraph("p2", "B", "第三段。"));
    assertThat(d.questions()).containsExactly(
        new SquadDataset.Question("q1", "第一问？", 0), new SquadDataset.Question("q3", "第二问？", 1));
  }

  @Test
  void should_reject_a_file_without_data_array() throws IOException {
    Path f = dir.resolve("x.json");
    Files.writeString(f, "{\"version\":\"1\"}");

    assertThatThrownBy(() -> SquadDataset.read("t", f))
        .hasMessage(f + ": no 'data' array; not a SQuAD-format file");
  }
}
