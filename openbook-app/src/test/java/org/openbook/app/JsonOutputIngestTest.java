package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestReport;
import org.openbook.testing.HashEmbedder;

/**
 * {@code ingest --json} grows with what a run changed, not with the folder: unchanged files are a
 * count, named only with {@code --list-unchanged}.
 */
class JsonOutputIngestTest {
  @TempDir Path docs;
  @TempDir Path work;

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void should_count_unchanged_files_and_name_only_what_changed() throws Exception {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      String name = String.format("f%02d.md", i);
      names.add(name);
      Files.writeString(docs.resolve(name), "# 第" + i + "篇\n\n第" + i + "篇的内容。\n");
    }
    Files.writeString(docs.resolve("notes.xyz"), "not a document");
    Path index = work.resolve("index");
    IngestReport second;
    long total;
    try (OpenBook kb = OpenBook.builder().index(index).config(OpenBookConfig.defaults())
        .embedder(new HashEmbedder()).mode(OpenBook.Mode.WRITE).build()) {
      kb.ingest(docs);
      Files.writeString(docs.resolve("f07.md"), "# 第7篇\n\n改过的内容。\n");
      Files.delete(docs.resolve("f08.md"));
      second = kb.ingest(docs);
      total = kb.count();
    }

    JsonNode brief = JSON.readTree(JsonOutput.ingest(second, total, false));
    JsonNode full = JSON.readTree(JsonOutput.ingest(second, total, true));

    assertThat(brief.get("unchanged").isInt()).isTrue();
    assertThat(brief.get("unchanged").asInt()).isEqualTo(28);
    assertThat(brief.has("unchangedSources")).isFalse();
    assertThat(brief.get("indexed")).hasSize(1);
    assertThat(brief.at("/indexed/0/source").asText()).isEqualTo("f07.md");
    assertThat(brief.at("/indexed/0/updated").asBoolean()).isTrue();
    assertThat(brief.get("removed")).hasSize(1);
    assertThat(brief.at("/removed/0").asText()).isEqualTo("f08.md");
    assertThat(brief.get("skipped")).hasSize(1);
    assertThat(brief.at("/skipped/0/source").asText()).isEqualTo("notes.xyz");
    assertThat(brief.get("filesSeen").asInt()).isEqualTo(30);
    assertThat(brief.get("added").asInt()).isZero();
    assertThat(brief.get("updated").asInt()).isEqualTo(1);
    assertThat(brief.get("totalChunks").asLong()).isEqualTo(total);
    assertThat(brief.at("/formats/md/unchanged").asInt()).isEqualTo(28);
    // the brief report does not grow with the folder: no unchanged name in it
    assertThat(brief.toString()).doesNotContain("f00.md");

    List<String> listed = new ArrayList<>();
    full.get("unchangedSources").forEach(n -> listed.add(n.asText()));
    List<String> expected = new ArrayList<>(names);
    expected.removeAll(List.of("f07.md", "f08.md"));
    assertThat(listed).containsExactlyElementsOf(expected);
    assertThat(full.get("unchanged").asInt()).isEqualTo(28);
  }
}
