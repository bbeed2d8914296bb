package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openbook.ingest.IngestListener;

/**
 * Issue 30, items 1, 7 and 12 (part): source paths from requests are normalised once before any
 * rule or file operation; "exists but not yours" and "does not exist" get the same reply; no
 * change goes through a symbolic link. The setup is the attack's: {@code access.folders} for
 * {@code hr/} and {@code finance/}, an hr-only writer ({@code tok-hrwriter}), a finance file
 * {@code finance/预算.txt} (department from the folder rule), a finance document outside the
 * ruled folders ({@code reports/裁员名单.md}, front matter), a finance file whose name is stored
 * in NFD on disk, and links from the docs folder to a folder and a file outside it.
 */
class CorpusPathsTest {
  private static final String BUDGET = "finance/预算.txt";
  private static final String LAYOFFS = "reports/裁员名单.md";
  /** {@code Prämie.md} as macOS writes it: a + combining diaeresis. */
  private static final String BONUS_NFD = Normalizer.normalize("Prämie.md", Normalizer.Form.NFD);
  private static final String BONUS = "finance/Prämie.md";
  /** Stored in NFC; asked for in NFD. */
  private static final String CAFE = "finance/Café-budget.txt";

  @TempDir static Path root;
  static TestServer s;
  static Path outside;

  @BeforeAll
  static void start() throws Exception {
    Path corpus = Files.createDirectories(root.resolve("corpus"));
    for (Map.Entry<String, String> e : TestServer.CORPUS.entrySet()) {
      write(corpus.resolve(e.getKey()), e.getValue());
    }
    write(corpus.resolve(BUDGET), "2025 年度预算：研发投入八千万元。\n");
    write(corpus.resolve(CAFE), "Café budget: 4 200 euros.\n");
    write(corpus.resolve(LAYOFFS), "---\ndept: finance\n---\n# 裁员名单\n\n名单内容保密。\n");
    write(corpus.resolve("finance").resolve(BONUS_NFD), "# Prämie\n\nDie Prämie beträgt 1,2.\n");
    s = new TestServer(root, 0.1, corpus,
        "access:\n  folders:\n    hr/: [hr]\n    finance/: [finance]\n");
    // outside the docs folder, linked from inside it; a full ingest follows the links
    outside = Files.createDirectories(root.resolve("outside"));
    write(outside.resolve("shared.md"), "---\ndept: hr\n---\n# Shared\n\nThe linked walrus memo.\n");
    write(outside.resolve("target.md"), "---\ndept: hr\n---\n# Target\n\nThe linked otter memo.\n");
    Files.createSymbolicLink(s.docs.resolve("linked"), outside);
    Files.createSymbolicLink(s.docs.resolve("hr/alias.md"), outside.resolve("target.md"));
    s.engine.ingest(s.docs, IngestListener.NONE);
  }

  @AfterAll
  static void stop() throws Exception {
    s.close();
  }

  private static void write(Path p, String text) throws Exception {
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private static String enc(String path) {
    return URLEncoder.encode(path, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The reply without its request id, which differs per request. */
  private static String shape(HttpResponse<String> r) throws Exception {
    JsonNode b = json(r);
    if (b.has("error")) {
      ((ObjectNode) b.get("error")).remove("requestId");
    }
    return r.statusCode() + " " + b;
  }

  private static boolean indexed(String source) throws Exception {
    return s.engine.store().documentHashes().containsKey(source);
  }

  private static HttpResponse<String> deleteAs(String token, String encodedSource)
      throws Exception {
    return s.delete("/v1/documents/" + encodedSource, token);
  }

  // 1 ---------------------------------------------------------------------------------------

  @Test
  void i30_1_should_not_let_an_hr_writer_delete_a_finance_file_through_a_dot_segment()
      throws Exception {
    // the attack's request, byte for byte
    HttpResponse<String> r =
        deleteAs("tok-hrwriter", ".%2Ffinance%2F%E9%A2%84%E7%AE%97.txt");
    HttpResponse<String> none = deleteAs("tok-hrwriter", "finance%2Fno-such.txt");

    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(shape(r)).isEqualTo(shape(none));
    assertThat(r.body()).doesNotContain("预算");
    assertThat(Files.exists(s.docs.resolve(BUDGET))).isTrue();
    assertThat(indexed(BUDGET)).isTrue();
    // nothing is left half-deleted: uploads by others go on
    JsonNode job = s.uploadAndWait("tok-editor", "notes",
        Map.of("after-i30-1.md", "# After\n\nThe heron rota.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
  }

  @ParameterizedTest
  @ValueSource(strings = {"finance/./预算.txt", "finance//预算.txt", "hr/../finance/预算.txt",
      "./finance/预算.txt", "finance/预算.txt/", "%2e%2ffinance%2f预算.txt", "NFD"})
  void i30_1_should_treat_every_spelling_of_a_finance_file_as_that_file(String spelling)
      throws Exception {
    String path = spelling.equals("NFD") ? Normalizer.normalize(CAFE, Normalizer.Form.NFD)
        : spelling;
    String encoded = path.startsWith("%") ? path.replace("预算", enc("预算")) : enc(path);
    HttpResponse<String> none = deleteAs("tok-hrwriter", enc("finance/no-such.txt"));

    HttpResponse<String> r = deleteAs("tok-hrwriter", encoded);

    assertThat(shape(r)).isEqualTo(shape(none));
    assertThat(Files.exists(s.docs.resolve(BUDGET))).isTrue();
    assertThat(indexed(BUDGET)).isTrue();
    assertThat(Files.exists(s.docs.resolve(CAFE))).isTrue();
    assertThat(indexed(CAFE)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"finance\\预算.txt", "../docs/finance/预算.txt", "hr/../../x.txt",
      "/finance/预算.txt", "C:/finance/预算.txt", ".openbook-upload/journal.json",
      "finance/\u0007预算.txt", "finance/\u202e预算.txt"})
  void i30_1_should_refuse_a_source_without_a_normal_form_with_400_naming_source(String path)
      throws Exception {
    HttpResponse<String> r = deleteAs("tok-admin", enc(path));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(json(r).at("/error/field").asText()).isEqualTo("source");
    assertThat(Files.exists(s.docs.resolve(BUDGET))).isTrue();
    assertThat(indexed(BUDGET)).isTrue();
  }

  @Test
  void i30_1_should_delete_a_file_named_in_nfd_on_disk_by_its_nfc_source_from_disk_and_index()
      throws Exception {
    Path onDisk = s.docs.resolve("finance").resolve(BONUS_NFD);
    assertThat(indexed(BONUS)).as("ingest gives NFC sources").isTrue();

    HttpResponse<String> hr = deleteAs("tok-hrwriter", enc(BONUS));
    assertThat(hr.statusCode()).isEqualTo(404);

    HttpResponse<String> r = deleteAs("tok-admin",
        enc(Normalizer.normalize("finance/./" + BONUS_NFD, Normalizer.Form.NFD)));

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(json(r).get("deleted").asText()).isEqualTo(BONUS);
    assertThat(Files.exists(onDisk)).isFalse();
    assertThat(indexed(BONUS)).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"./finance", "hr/../finance", "finance/", "finance//."})
  void i30_1_should_apply_the_folder_rule_of_the_normalised_upload_folder(String folder)
      throws Exception {
    HttpResponse<String> r = s.upload("tok-hrwriter", folder,
        Map.of("预算.txt", "预算全部取消。\n"));
    HttpResponse<String> fresh = s.upload("tok-hrwriter", folder,
        Map.of("i30-new.txt", "新的预算。\n"));

    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(fresh.statusCode()).isEqualTo(403);
    assertThat(json(r).at("/error/field").asText()).isEqualTo("files[0]");
    assertThat(Files.readString(s.docs.resolve(BUDGET))).contains("八千万");
    assertThat(Files.exists(s.docs.resolve("finance/i30-new.txt"))).isFalse();
  }

  @Test
  void i30_1_should_refuse_an_upload_folder_that_leaves_the_docs_folder_and_normalise_its_own()
      throws Exception {
    HttpResponse<String> out = s.upload("tok-hrwriter", "hr/../../finance",
        Map.of("x.txt", "x\n"));
    HttpResponse<String> own = s.upload("tok-hrwriter", "./hr/./notes/",
        Map.of(Normalizer.normalize("Übung.md", Normalizer.Form.NFD), "# Übung\n\nText.\n"));

    assertThat(out.statusCode()).isEqualTo(400);
    assertThat(json(out).at("/error/field").asText()).isEqualTo("folder");
    assertThat(own.statusCode()).isEqualTo(202);
    assertThat(json(own).at("/files/0/source").asText()).isEqualTo("hr/notes/Übung.md");
    assertThat(json(own).at("/files/0/dept").asText()).isEqualTo("hr");
    assertThat(s.awaitJob("tok-hrwriter", json(own).get("jobId").asText())
        .get("status").asText()).isEqualTo("succeeded");
    assertThat(indexed("hr/notes/Übung.md")).isTrue();
  }

  // 7 ---------------------------------------------------------------------------------------

  @Test
  void i30_7_should_refuse_replacing_an_unreadable_document_with_the_reply_of_any_unwritable_name()
      throws Exception {
    String before = Files.readString(s.docs.resolve(LAYOFFS));

    // the name is taken by a finance document; the content is harmless
    HttpResponse<String> taken = s.upload("tok-hrwriter", "reports",
        Map.of("裁员名单.md", "# 名单\n\n没有名单。\n"));
    // a fresh name the writer may not write either: the file declares finance
    HttpResponse<String> declared = s.upload("tok-hrwriter", "reports",
        Map.of("i30-7.md", "---\ndept: finance\n---\n# 名单\n\n没有名单。\n"));

    assertThat(taken.statusCode()).isEqualTo(403);
    assertThat(shape(taken).replace(LAYOFFS, "<source>"))
        .isEqualTo(shape(declared).replace("reports/i30-7.md", "<source>"));
    assertThat(taken.body()).doesNotContain("department of", "finance", "exists");
    assertThat(Files.readString(s.docs.resolve(LAYOFFS))).isEqualTo(before);
    assertThat(Files.exists(s.docs.resolve("reports/i30-7.md"))).isFalse();
  }

  @Test
  void i30_7_should_answer_a_section_of_another_department_as_a_missing_one() throws Exception {
    String finance = s.engine.store().documents().stream()
        .filter(d -> d.source().equals(BUDGET)).findFirst().orElseThrow().source() + "#0";
    assertThat(s.engine.store().get(finance)).isPresent();

    HttpResponse<String> hidden = s.get("/v1/sections/" + enc(finance), "tok-hrwriter");
    HttpResponse<String> missing = s.get("/v1/sections/" + enc("finance/nothing.txt#0"),
        "tok-hrwriter");

    assertThat(hidden.statusCode()).isEqualTo(404);
    assertThat(shape(hidden)).isEqualTo(shape(missing));
    assertThat(s.get("/v1/sections/" + enc(finance), "tok-admin").statusCode()).isEqualTo(200);
  }

  @Test
  void i30_7_should_show_counts_only_to_authenticated_callers_and_only_what_they_read()
      throws Exception {
    HttpResponse<String> health = s.get("/healthz", null);
    HttpResponse<String> metrics = s.get("/metrics", null);
    JsonNode visitor = json(s.get("/v1/me", "tok-visitor"));
    JsonNode admin = json(s.get("/v1/me", "tok-admin"));

    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(json(health).get("status").asText()).isEqualTo("ok");
    assertThat(json(health).fieldNames()).toIterable().containsOnly("status", "indexOpened");
    assertThat(metrics.body()).doesNotContain("openbook_index_chunks")
        .doesNotContainPattern("(?m)^openbook_\\w*chunk\\w* ");
    long publicChunks = s.engine.store().documents().stream()
        .filter(d -> d.dept().equals("public")).mapToLong(d -> d.chunks()).sum();
    assertThat(visitor.get("chunks").asLong()).isEqualTo(publicChunks);
    assertThat(admin.get("chunks").asLong()).isEqualTo(s.engine.count());
    assertThat(visitor.get("documents").asInt()).isLessThan(admin.get("documents").asInt());
  }

  @Test
  void i30_7_should_not_name_an_indexed_source_when_writes_are_disabled() throws Exception {
    Path other = Files.createDirectories(root.resolve("other-docs"));
    try (ApiServer wrong = new ApiServer(s.engine, other).start("127.0.0.1", 0)) {
      HttpResponse<String> r = s.uploadTo(wrong.port(), "tok-hrwriter", "hr",
          Map.of("x.md", "# X\n\n内容。\n"));

      assertThat(r.statusCode()).isEqualTo(409);
      assertThat(json(r).at("/error/message").asText()).contains("writes are disabled");
      assertThat(r.body()).doesNotContain("finance", "reports", "about.md", "预算", "handbook");
    }
  }

  // 12 --------------------------------------------------------------------------------------

  @Test
  void i30_12_should_index_linked_files_but_never_write_or_delete_through_a_link()
      throws Exception {
    assertThat(indexed("linked/shared.md")).as("ingest follows links (read-only)").isTrue();
    String sharedBefore = Files.readString(outside.resolve("shared.md"));

    HttpResponse<String> into = s.upload("tok-admin", "linked",
        Map.of("planted.md", "# Planted\n\nWritten outside.\n"));
    HttpResponse<String> over = s.upload("tok-admin", "linked",
        Map.of("shared.md", "# Shared\n\nOverwritten.\n"));
    HttpResponse<String> del = deleteAs("tok-admin", enc("linked/shared.md"));
    HttpResponse<String> delNew = deleteAs("tok-admin", enc("linked/planted.md"));

    assertThat(into.statusCode()).isEqualTo(403);
    assertThat(over.statusCode()).isEqualTo(403);
    assertThat(shape(into).replace("linked/planted.md", "<s>"))
        .isEqualTo(shape(over).replace("linked/shared.md", "<s>"));
    assertThat(Files.exists(outside.resolve("planted.md"))).isFalse();
    assertThat(Files.readString(outside.resolve("shared.md"))).isEqualTo(sharedBefore);
    assertThat(del.statusCode()).isEqualTo(403);
    assertThat(json(del).at("/error/field").asText()).isEqualTo("source");
    assertThat(delNew.statusCode()).isEqualTo(404);
    assertThat(Files.exists(outside.resolve("shared.md"))).isTrue();
    assertThat(indexed("linked/shared.md")).isTrue();
  }

  @Test
  void i30_12_should_never_write_or_delete_a_symlinked_file() throws Exception {
    String before = Files.readString(outside.resolve("target.md"));

    HttpResponse<String> over = s.upload("tok-hrwriter", "hr",
        Map.of("alias.md", "# Alias\n\nOverwritten.\n"));
    HttpResponse<String> del = deleteAs("tok-hrwriter", enc("hr/alias.md"));
    HttpResponse<String> hidden = deleteAs("tok-editor", enc("hr/alias.md"));

    assertThat(over.statusCode()).isEqualTo(403);
    assertThat(del.statusCode()).isEqualTo(403);
    // a writer that cannot read hr gets the reply of a missing file, link or not
    assertThat(shape(hidden)).isEqualTo(shape(deleteAs("tok-editor", enc("hr/no-such.md"))));
    assertThat(Files.readString(outside.resolve("target.md"))).isEqualTo(before);
    assertThat(Files.isSymbolicLink(s.docs.resolve("hr/alias.md"))).isTrue();
  }
}
