package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30 item 7 with {@code access.uploadsOnlyInRuledFolders: true}: a writer cannot tell a
 * name taken by another department's document from a free one, because uploads outside the
 * ruled folders are refused alike, and inside a ruled folder every document has its department.
 */
class RuledUploadFoldersTest {
  @TempDir static Path root;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1, null, "access:\n  folders:\n    hr/: [hr]\n"
        + "    finance/: [finance]\n  uploadsOnlyInRuledFolders: true\n");
    // a finance document outside the ruled folders, as in the attack
    Files.createDirectories(s.docs.resolve("reports"));
    Files.writeString(s.docs.resolve("reports/layoffs.md"),
        "---\ndept: finance\n---\n# Layoffs\n\nConfidential list.\n");
    s.engine.ingest(s.docs, org.openbook.ingest.IngestListener.NONE);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private static String shape(HttpResponse<String> r, String source) throws Exception {
    ObjectNode b = (ObjectNode) json(r);
    ((ObjectNode) b.get("error")).remove("requestId");
    return r.statusCode() + " " + b.toString().replace(source, "<source>");
  }

  @Test
  void i30_7_should_give_a_taken_and_a_free_name_outside_ruled_folders_the_same_reply()
      throws Exception {
    HttpResponse<String> taken = s.upload("tok-hrwriter", "reports",
        Map.of("layoffs.md", "# Layoffs\n\nNone.\n"));
    HttpResponse<String> free = s.upload("tok-hrwriter", "reports",
        Map.of("free.md", "# Free\n\nNone.\n"));
    HttpResponse<String> own = s.upload("tok-hrwriter", "hr",
        Map.of("rota.md", "# Rota\n\nThe heron rota.\n"));

    assertThat(taken.statusCode()).isEqualTo(403);
    assertThat(shape(taken, "reports/layoffs.md")).isEqualTo(shape(free, "reports/free.md"));
    assertThat(Files.readString(s.docs.resolve("reports/layoffs.md"))).contains("Confidential");
    assertThat(Files.exists(s.docs.resolve("reports/free.md"))).isFalse();
    assertThat(own.statusCode()).isEqualTo(202);
    assertThat(s.awaitJob("tok-hrwriter", json(own).get("jobId").asText()).get("status")
        .asText()).isEqualTo("succeeded");
  }
}
