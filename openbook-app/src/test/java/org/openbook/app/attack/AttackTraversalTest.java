package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 30, attack suite: path traversal against a real {@code openbook serve}. {@code ..} in
 * every encoding (plain, {@code %2e%2e%2f}, {@code ..%2f}, double-encoded {@code %252e}, backslash,
 * absolute paths, NUL) in {@code DELETE /v1/documents/{source}}, in upload file names and in the
 * upload {@code folder} field: refused with a 4xx (a file name's folders may be dropped, as
 * browsers send client paths, but then the file lands inside the docs folder), and no file
 * outside the docs folder is created, changed or deleted.
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackTraversalTest {
  private static RealServer s;
  private static String rootName;

  @BeforeAll
  static void setUp() {
    s = RealServer.shared();
    rootName = s.root.getFileName().toString();
  }

  /** Every file outside the docs folder and the server's own folders, with its content. */
  private static Map<String, String> outside() throws Exception {
    Map<String, String> files = new TreeMap<>();
    try (var walk = Files.walk(s.root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        Path rel = s.root.relativize(p);
        String first = rel.getName(0).toString();
        if (first.equals("docs") || first.equals("docs-data") || first.equals("index")
            || rel.toString().equals("audit.log")) {
          continue;
        }
        files.put(rel.toString(), Files.readString(p, StandardCharsets.ISO_8859_1));
      }
    }
    return files;
  }

  private static String enc(String v) {
    return URLEncoder.encode(v, StandardCharsets.UTF_8).replace("+", "%20");
  }

  static Stream<Arguments> deletePaths() {
    String abs = RealServer.shared().canary().toString();
    String up2 = "..%2F..%2F" + RealServer.shared().root.getFileName() + "%2Fcanary.txt";
    return Stream.of("tok-admin", "tok-hrwriter").flatMap(token -> Stream.of(
        "..%2Fcanary.txt", "%2e%2e%2fcanary.txt", "%2E%2E%2Fcanary.txt", "..%2fcanary.txt",
        "%2e%2e/canary.txt", up2, "%252e%252e%252fcanary.txt", "..%252Fcanary.txt",
        "..%5Ccanary.txt", "..%5C..%5C" + RealServer.shared().root.getFileName() + "%5Ccanary.txt",
        "public%2F..%2F..%2Fcanary.txt", "public/%2e%2e/%2e%2e/canary.txt",
        "..%2Foutside%2Fvictim.txt", enc(abs), "%2F" + enc(abs.substring(1)),
        "..%2Fcanary.txt%00.md", "%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "%C0%AE%C0%AE%2Fcanary.txt", "..%E2%88%95canary.txt")
        .map(p -> Arguments.of(token, p)));
  }

  @ParameterizedTest(name = "{0} DELETE /v1/documents/{1}")
  @MethodSource("deletePaths")
  void should_refuse_a_traversing_delete_and_touch_nothing_outside_the_docs_folder(String token,
      String path) throws Exception {
    Map<String, String> before = outside();

    HttpResponse<String> r = s.delete("/v1/documents/" + path, token);

    assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
    assertThat(outside()).isEqualTo(before);
    assertThat(r.body()).doesNotContain("Exception");
    if (!java.net.URLDecoder.decode(path, StandardCharsets.UTF_8).contains(s.root.toString())) {
      // a refusal may quote the caller's own path back, never a server path it did not send
      assertThat(r.body()).doesNotContain(s.root.toString());
    }
    s.assertHealthy();
  }

  static Stream<Arguments> rawDeletePaths() {
    return Stream.of("/v1/documents/../canary.txt", "/v1/documents/public/../../canary.txt",
        "/v1/documents/./../canary.txt", "/v1/documents/..\\canary.txt",
        "/v1/documents/public/..%2F..%2Fcanary.txt", "/v1/../v1/documents/../../canary.txt",
        "/v1/documents//../canary.txt", "/v1/documents/%2e%2e/%2e%2e/" + "canary.txt")
        .map(Arguments::of);
  }

  /** Written byte for byte on a socket, so no client normalises the path first. */
  @ParameterizedTest(name = "raw DELETE {0}")
  @MethodSource("rawDeletePaths")
  void should_refuse_a_raw_traversing_delete(String path) throws Exception {
    Map<String, String> before = outside();

    RealServer.Raw r = s.raw("DELETE " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer tok-admin\r\nConnection: close\r\n\r\n", 30);

    assertThat(r.status()).as(r.head() + "\n" + r.body()).isBetween(400, 499);
    assertThat(outside()).isEqualTo(before);
    s.assertHealthy();
  }

  static Stream<Arguments> uploadNames() {
    String abs = RealServer.shared().canary().toString();
    return Stream.of("../canary.txt", "..\\canary.txt", "../../" + RealServer.shared().root
            .getFileName() + "/canary.txt", "..\\..\\canary.txt", "%2e%2e%2fcanary.txt",
        "..%2fcanary.txt", "%252e%252e%252fcanary.txt", abs, "C:\\..\\..\\canary.txt", "..", ".",
        "../", "public/../../canary.txt", "./../canary.txt", "..\u2215canary.txt")
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "upload file name {0}")
  @MethodSource("uploadNames")
  void should_keep_an_uploaded_file_name_inside_the_docs_folder(String name) throws Exception {
    Map<String, String> before = outside();

    HttpResponse<String> r = s.upload("tok-admin", "public",
        RealServer.file(name, "overwritten by an attack upload\n"));

    if (r.statusCode() == 202) {
      // only the last segment names the file: it must land inside the docs folder
      JsonNode job = s.awaitJob("tok-admin", json(r).get("jobId").asText(), 120);
      for (JsonNode f : json(r).get("files")) {
        String source = f.get("source").asText();
        assertThat(source).doesNotContain("..", "\\").doesNotStartWith("/");
        assertThat(s.docs.resolve(source).normalize()).startsWith(s.docs);
        s.delete("/v1/documents/" + enc(source), "tok-admin");
      }
      assertThat(job.get("status").asText()).isIn("succeeded", "failed");
    } else {
      assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
      assertThat(json(r).at("/error/field").asText()).startsWith("files");
    }
    assertThat(outside()).isEqualTo(before);
    s.assertHealthy();
  }

  static Stream<Arguments> folders() {
    return Stream.of("..", "../..", "hr/../..", "hr/../../" + "x", "%2e%2e", "%2e%2e%2f",
        "..%2f", "%252e%252e", "..\\..", "hr\\..\\..", "/", "/tmp",
        RealServer.shared().root.toString(), "\\\\server\\share", "hr/\u0000/x", ". .", "…/..")
        .map(Arguments::of);
  }

  /** Folders that stay inside the docs folder, spelled with {@code .} or empty segments. */
  static Stream<Arguments> unnormalisedFolders() {
    return Stream.of(Arguments.of("./finance", "finance/attack.txt", "finance"),
        Arguments.of("finance/.", "finance/attack.txt", "finance"),
        Arguments.of("finance/./x", "finance/x/attack.txt", "finance"),
        Arguments.of("hr//finance", "hr/finance/attack.txt", "hr"),
        Arguments.of("hr/../finance", "finance/attack.txt", "finance"));
  }

  /**
   * Issue 30 item 1, upload side: a folder spelled with {@code .}, {@code ..} or empty segments
   * that stays inside the docs folder is its normal form, and the rule of that folder applies
   * (the reply names the normal source and its department); nothing outside changes.
   */
  @ParameterizedTest(name = "upload folder {0}")
  @MethodSource("unnormalisedFolders")
  void should_upload_into_the_normal_form_of_a_folder_and_apply_its_rule(String folder,
      String source, String dept) throws Exception {
    Map<String, String> before = outside();
    HttpResponse<String> r = s.upload("tok-admin", folder,
        RealServer.file("attack.txt", "written through a folder spelling\n"));
    try {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
      JsonNode file = json(r).get("files").get(0);
      assertThat(file.get("source").asText()).isEqualTo(source);
      assertThat(file.get("dept").asText()).isEqualTo(dept);
      s.awaitJob("tok-admin", json(r).get("jobId").asText(), 120);
      assertThat(outside()).isEqualTo(before);
    } finally {
      s.delete("/v1/documents/" + enc(source), "tok-admin");
    }
  }

  @ParameterizedTest(name = "upload folder {0}")
  @MethodSource("folders")
  void should_refuse_a_traversing_upload_folder_with_400_naming_folder(String folder)
      throws Exception {
    Map<String, String> before = outside();

    HttpResponse<String> r = s.upload("tok-admin", folder,
        RealServer.file("attack.txt", "written through a folder attack\n"));

    assertThat(r.statusCode()).as(r.body()).isBetween(400, 499);
    assertThat(outside()).isEqualTo(before);
    s.assertHealthy();
  }

  // ---- item 1: one normal form of every source path --------------------------------------

  static Stream<Arguments> unnormalisedFinancePaths() {
    return Stream.of(".%2Ffinance%2F%E9%A2%84%E7%AE%97.txt", "finance%2F.%2F%E9%A2%84%E7%AE%97.txt",
        "finance%2F%2F%E9%A2%84%E7%AE%97.txt", "hr%2F..%2Ffinance%2F%E9%A2%84%E7%AE%97.txt",
        ".%2F.%2Ffinance%2F%E9%A2%84%E7%AE%97.txt", "finance%2F%E9%A2%84%E7%AE%97.txt%2F",
        "..%2Fdocs%2Ffinance%2F%E9%A2%84%E7%AE%97.txt", "./finance/%E9%A2%84%E7%AE%97.txt",
        "%2Ffinance%2F%E9%A2%84%E7%AE%97.txt", "finance%2F%E9%A2%84%E7%AE%97.txt%2F.")
        .map(Arguments::of);
  }

  /**
   * Issue 30 item 1: the hr-only writer cannot delete a finance file through a path that
   * normalises to it; the file stays on disk and in the index, and later uploads still work.
   */
  @ParameterizedTest(name = "hrwriter DELETE /v1/documents/{0}")
  @MethodSource("unnormalisedFinancePaths")
  void i30_1_should_refuse_the_hr_writer_a_finance_file_under_any_spelling(String path)
      throws Exception {
    Path budget = s.docs.resolve(AttackCorpus.FINANCE_BUDGET);
    try {
      HttpResponse<String> r = s.delete("/v1/documents/" + path, "tok-hrwriter");

      // 404 as for a missing file; 400 only for a spelling that is no path inside the docs
      // folder (absolute, or '..' above it), decided by the string alone, never by existence
      assertThat(r.statusCode()).as(r.body()).isIn(400, 404);
      if (r.statusCode() == 400) {
        assertThat(json(r).at("/error/field").asText()).isEqualTo("source");
        HttpResponse<String> missing = s.delete("/v1/documents/"
            + path.replace("%E9%A2%84%E7%AE%97", "missing-7"), "tok-hrwriter");
        assertThat(missing.statusCode()).as(missing.body()).isEqualTo(400);
      }
      assertThat(Files.readString(budget)).isEqualTo(AttackCorpus.FINANCE_BUDGET_TEXT);
      assertThat(s.get("/v1/documents?limit=500", "tok-admin").body())
          .contains(AttackCorpus.FINANCE_BUDGET);
      HttpResponse<String> later = s.upload("tok-admin", "public",
          RealServer.file("after-delete.md", "# After\n\nAn upload after the delete attempt.\n"));
      assertThat(later.statusCode()).as(later.body()).isEqualTo(202);
      s.awaitJob("tok-admin", json(later).get("jobId").asText(), 120);
      s.delete("/v1/documents/public%2Fafter-delete.md", "tok-admin");
    } finally {
      // keep the shared corpus whole for the cases after this one
      if (!Files.exists(budget)) {
        Files.writeString(budget, AttackCorpus.FINANCE_BUDGET_TEXT, StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * Issue 30 item 1, constructed: a writer who may read the file deletes it under another
   * spelling; the file is then gone from disk and index alike (or refused, and in both).
   */
  @ParameterizedTest(name = "admin DELETE {0}")
  @ValueSource(strings = {".%2Fpublic%2Fscratch.md", "public%2F.%2Fscratch.md",
      "public%2F%2Fscratch.md", "hr%2F..%2Fpublic%2Fscratch.md", "..%2Fdocs%2Fpublic%2Fscratch.md"})
  void i30_1_should_keep_disk_and_index_in_step_when_a_writer_deletes_under_another_spelling(
      String path) throws Exception {
    JsonNode job = s.uploadAndWait("tok-admin", "public", RealServer.file("scratch.md",
        "# Scratch\n\nA scratch document for a delete.\n"));
    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    try {
      HttpResponse<String> r = s.delete("/v1/documents/" + path, "tok-admin");

      boolean onDisk = Files.exists(s.docs.resolve("public/scratch.md"));
      boolean indexed = s.get("/v1/documents?limit=500", "tok-admin").body()
          .contains("public/scratch.md");
      assertThat(r.statusCode()).as(r.body()).isIn(200, 400, 404);
      assertThat(onDisk).as("on disk %s, indexed %s", onDisk, indexed).isEqualTo(indexed);
      assertThat(onDisk).isEqualTo(r.statusCode() != 200);
      if (r.statusCode() == 200) {
        assertThat(json(r).get("deleted").asText()).isEqualTo("public/scratch.md");
      }
    } finally {
      s.delete("/v1/documents/public%2Fscratch.md", "tok-admin");
      Files.deleteIfExists(s.docs.resolve("public/scratch.md"));
    }
  }

  // ---- item 12: symlinks ------------------------------------------------------------------

  /**
   * Issue 30 item 12: a symlinked folder inside the docs folder lets neither an upload write
   * outside it nor a delete remove a file there.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"tok-admin", "tok-hrwriter"})
  void i30_12_should_refuse_to_follow_a_symlink_out_of_the_docs_folder(String token)
      throws Exception {
    Path link = s.docs.resolve("public/linked");
    Path outsideDir = s.root.resolve(AttackCorpus.OUTSIDE_DIR);
    Files.createSymbolicLink(link, outsideDir);
    Map<String, String> before = outside();
    try {
      HttpResponse<String> up = s.upload(token, "public/linked",
          RealServer.file("planted.txt", "planted outside the docs folder\n"));
      if (up.statusCode() == 202) {
        s.awaitJob(token, json(up).get("jobId").asText(), 120);
      }
      HttpResponse<String> del = s.delete("/v1/documents/public%2Flinked%2F"
          + AttackCorpus.VICTIM_FILE, token);

      assertThat(up.statusCode()).as(up.body()).isBetween(400, 499);
      assertThat(del.statusCode()).as(del.body()).isEqualTo(404);
      assertThat(outside()).isEqualTo(before);
    } finally {
      // an upload that went through the link is indexed: remove it while the link still
      // resolves, else the index names a file the docs folder lacks and writes are disabled
      if (s.get("/v1/documents?limit=500", "tok-admin").body().contains("public/linked/")) {
        s.delete("/v1/documents/public%2Flinked%2Fplanted.txt", "tok-admin");
      }
      Files.deleteIfExists(link);
      Files.deleteIfExists(outsideDir.resolve("planted.txt"));
      if (!Files.exists(outsideDir.resolve(AttackCorpus.VICTIM_FILE))) {
        Files.writeString(outsideDir.resolve(AttackCorpus.VICTIM_FILE),
            AttackCorpus.CANARY_TEXT + " (victim)\n", StandardCharsets.UTF_8);
      }
    }
  }
}
