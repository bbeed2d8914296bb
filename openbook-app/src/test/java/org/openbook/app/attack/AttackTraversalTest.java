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

/**
 * Issue 30, attack suite: path traversal against a real {@code openbook serve}. {@code ..} in
 * every encoding (plain, {@code %2e%2e%2f}, {@code ..%2f}, double-encoded {@code %252e}, backslash,
 * absolute paths, NUL) in {@code DELETE /v1/documents/{source}}, in upload file names and in the
 * upload {@code folder} field: refused with a 4xx (a file name's folders may be dropped, as
 * browsers send client paths, but then the file lands inside the docs folder), and no file
 * outside the docs folder is created, changed or deleted.
 */
@ExtendWith(RealServer.Extension.class)
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
    assertThat(r.body()).doesNotContain(s.root.toString(), "Exception");
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

    HttpResponse<String> r = s.upload("tok-admin", null,
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
        "..%2f", "%252e%252e", "..\\..", "hr\\..\\..", "./finance", "finance/.", "finance/./x",
        "hr//finance", "/", "/tmp", RealServer.shared().root.toString(), "\\\\server\\share",
        "hr/\u0000/x", ". .", "…/..").map(Arguments::of);
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
}
