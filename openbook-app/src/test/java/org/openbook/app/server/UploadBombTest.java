package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.server.TestServer.json;
import static org.openbook.app.server.TestServer.q;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadResult;
import org.openbook.document.MarkdownLoader;

/**
 * Issue 30 item 5 through the server: upload bombs are answered at once and fail their job as
 * "too large" naming the limit, an {@link OutOfMemoryError} in a job fails only that job, and one
 * writer's slow job does not hold up another writer's upload. The bombs are built here.
 */
class UploadBombTest {
  @TempDir static Path root;
  static TestServer s;

  /** Released by the test; the {@code .slow} loader waits for it (at most 60 s). */
  static final CountDownLatch RELEASE_SLOW = new CountDownLatch(1);
  /** Counted down when the {@code .slow} loader has started. */
  static final CountDownLatch SLOW_STARTED = new CountDownLatch(1);

  /** Markdown under {@code .slow}, loaded only once the test releases it. */
  static final class SlowLoader implements DocumentLoader {
    @Override
    public Set<String> extensions() {
      return Set.of("slow");
    }

    @Override
    public LoadResult load(Path file, String source) throws IOException,
        org.openbook.document.LoadException {
      SLOW_STARTED.countDown();
      try {
        RELEASE_SLOW.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new MarkdownLoader().load(file, source);
    }
  }

  /** Markdown under {@code .count}; counts how often a file is parsed. */
  static final class CountingLoader implements DocumentLoader {
    static final java.util.concurrent.atomic.AtomicInteger LOADS =
        new java.util.concurrent.atomic.AtomicInteger();

    @Override
    public Set<String> extensions() {
      return Set.of("count");
    }

    @Override
    public LoadResult load(Path file, String source) throws IOException,
        org.openbook.document.LoadException {
      LOADS.incrementAndGet();
      return new MarkdownLoader().load(file, source);
    }
  }

  /** Any {@code .oom} file exhausts the loader's memory. */
  static final class OomLoader implements DocumentLoader {
    @Override
    public Set<String> extensions() {
      return Set.of("oom");
    }

    @Override
    public LoadResult load(Path file, String source) {
      throw new OutOfMemoryError("Java heap space (thrown by the test loader)");
    }
  }

  @BeforeAll
  static void start() throws Exception {
    s = new TestServer(root, 0.1, null, """
        ingest:
          maxInflatedBytes: 524288
          maxXmlNodes: 20000
        """, java.util.List.of(new SlowLoader(), new OomLoader(), new CountingLoader()));
  }

  @AfterAll
  static void stop() throws Exception {
    RELEASE_SLOW.countDown();
    s.close();
  }

  /**
   * An OpenDocument text whose content.xml is {@code bytes} of paragraphs: highly compressible
   * but above the 1 % zip-bomb ratio (letters vary a little, as in the attack's 2.8 % file).
   */
  static byte[] odt(int bytes, String unit) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(out)) {
      zip.putNextEntry(new ZipEntry("mimetype"));
      zip.write("application/vnd.oasis.opendocument.text".getBytes(StandardCharsets.US_ASCII));
      zip.putNextEntry(new ZipEntry("content.xml"));
      zip.write(("<?xml version=\"1.0\" encoding=\"UTF-8\"?><office:document-content"
          + " xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\""
          + " xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\"><office:body>"
          + "<office:text>").getBytes(StandardCharsets.UTF_8));
      Random r = new Random(5);
      StringBuilder sb = new StringBuilder();
      for (int written = 0; written < bytes; ) {
        sb.setLength(0);
        for (String part : unit.split("#", -1)) {
          sb.append(part).append((char) ('a' + r.nextInt(3)));
        }
        sb.setLength(sb.length() - 1);
        byte[] b = sb.toString().getBytes(StandardCharsets.UTF_8);
        zip.write(b);
        written += b.length;
      }
      zip.write("</office:text></office:body></office:document-content>"
          .getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
    }
    return out.toByteArray();
  }

  private static boolean stagingEmpty() throws IOException {
    Path staging = s.docs.resolve(".openbook-upload");
    if (!Files.isDirectory(staging)) {
      return true;
    }
    try (var files = Files.walk(staging)) {
      return files.noneMatch(Files::isRegularFile);
    }
  }

  private JsonNode uploadAndWait(String token, String folder, Map<String, byte[]> files)
      throws Exception {
    long t0 = System.nanoTime();
    HttpResponse<String> r = s.uploadBytes(token, folder, files);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
    // answered from the declared departments: nothing was parsed or rendered yet
    assertThat((System.nanoTime() - t0) / 1e9).isLessThan(10.0);
    return s.awaitJob(token, json(r).get("jobId").asText());
  }

  @Test
  void i30_5_should_fail_an_odt_inflating_past_the_cap_as_too_large_and_keep_serving()
      throws Exception {
    byte[] bomb = odt(1024 * 1024, "<text:p>" + "预算 # ".repeat(300) + "</text:p>");
    // under the 64 KiB upload limit, and above the 1 % ratio (the attack's file had 2.8 %)
    assertThat(bomb.length).isLessThan(65536).isGreaterThan(1024 * 1024 / 100);

    JsonNode job = uploadAndWait("tok-admin", "finance", Map.of("预算 bomb.odt", bomb));

    assertThat(job.get("status").asText()).isEqualTo("failed");
    assertThat(job.at("/error/status").asInt()).isEqualTo(422);
    assertThat(job.at("/error/field").asText()).isEqualTo("files[0]");
    assertThat(job.at("/error/message").asText())
        .contains("finance/预算 bomb.odt", "too large", "ingest.maxInflatedBytes", "524288");
    assertThat(s.docs.resolve("finance/预算 bomb.odt")).doesNotExist();
    assertThat(stagingEmpty()).isTrue();
    assertThat(s.get("/healthz", null).statusCode()).isEqualTo(200);
  }

  @Test
  void i30_5_should_fail_an_odt_of_too_many_xml_nodes_as_too_large() throws Exception {
    // 300 KB of empty elements: under the byte cap, 30 k nodes over the 20 k node cap
    byte[] nodes = odt(300 * 1024, "<text:p><text:s text:c=\"#\"/></text:p>");

    JsonNode job = uploadAndWait("tok-editor", null, Map.of("nodes.odt", nodes));

    assertThat(job.get("status").asText()).isEqualTo("failed");
    assertThat(job.at("/error/message").asText())
        .contains("nodes.odt", "too large", "ingest.maxXmlNodes");
    assertThat(stagingEmpty()).isTrue();
  }

  @Test
  void i30_5_should_answer_a_pdf_of_huge_blank_pages_at_once_and_never_index_it()
      throws Exception {
    ByteArrayOutputStream pdf = new ByteArrayOutputStream();
    try (PDDocument d = new PDDocument()) {
      for (int i = 0; i < 8; i++) {
        d.addPage(new PDPage(new PDRectangle(3000, 3000)));
      }
      d.save(pdf);
    }

    JsonNode job = uploadAndWait("tok-editor", null, Map.of("blank.pdf", pdf.toByteArray()));

    // with Tesseract: too large (ingest.maxOcrPagePixels), without: needs OCR; never rendered
    assertThat(job.get("status").asText()).isEqualTo("failed");
    assertThat(job.at("/error/message").asText()).contains("blank.pdf")
        .containsAnyOf("too large", "needs OCR");
    assertThat(stagingEmpty()).isTrue();
  }

  @Test
  void i30_5_should_parse_an_uploaded_file_once_from_the_upload_to_the_index() throws Exception {
    int before = CountingLoader.LOADS.get();

    JsonNode job = s.uploadAndWait("tok-editor", "once", Map.of("parsed.count",
        "# Parsed once\n\nThe puffin census is in May.\n"));

    assertThat(job.get("status").asText()).isEqualTo("succeeded");
    // not by the 202 check (metadata only), once by the job, not again by the ingest
    assertThat(CountingLoader.LOADS.get() - before).isEqualTo(1);
    assertThat(s.post("/v1/search", "tok-visitor", q("puffin census")).body())
        .contains("once/parsed.count");
  }

  @Test
  void i30_5_should_fail_only_the_job_whose_loader_runs_out_of_memory() throws Exception {
    JsonNode job = uploadAndWait("tok-editor", "oom", Map.of("big.oom", "x".getBytes()));

    assertThat(job.get("status").asText()).isEqualTo("failed");
    assertThat(job.at("/error/status").asInt()).isEqualTo(500);
    assertThat(job.at("/error/message").asText()).contains("memory", job.get("id").asText());
    assertThat(s.docs.resolve("oom/big.oom")).doesNotExist();
    assertThat(stagingEmpty()).isTrue();
    assertThat(s.get("/healthz", null).statusCode()).isEqualTo(200);
    // the same writer's next upload runs and is searchable
    JsonNode next = s.uploadAndWait("tok-editor", "after", Map.of("after-oom.md",
        "# After\n\nThe heron feeder is refilled on Fridays.\n"));
    assertThat(next.get("status").asText()).isEqualTo("succeeded");
    assertThat(s.post("/v1/search", "tok-visitor", q("heron feeder")).body())
        .contains("after/after-oom.md");
  }

  @Test
  void i30_5_should_finish_one_writers_upload_while_another_writers_slow_job_runs()
      throws Exception {
    HttpResponse<String> slow = s.upload("tok-editor", "slow",
        Map.of("scan.slow", "# Scan\n\nThe slow scan is about owls.\n"));
    assertThat(slow.statusCode()).isEqualTo(202);
    String slowJob = json(slow).get("jobId").asText();
    assertThat(SLOW_STARTED.await(30, TimeUnit.SECONDS)).isTrue();

    JsonNode fast = s.uploadAndWait("tok-admin", "fast", Map.of("quick.md",
        "# Quick\n\nThe quick note is about kestrels.\n"));

    assertThat(fast.get("status").asText()).isEqualTo("succeeded");
    assertThat(json(s.get("/v1/jobs/" + slowJob, "tok-editor")).get("status").asText())
        .isEqualTo("running");
    RELEASE_SLOW.countDown();
    JsonNode done = s.awaitJob("tok-editor", slowJob);
    assertThat(done.get("status").asText()).as(done.toString()).isEqualTo("succeeded");
    assertThat(s.post("/v1/search", "tok-visitor", q("owls")).body()).contains("slow/scan.slow");
  }
}
