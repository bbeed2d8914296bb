package org.openbook.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openbook.answer.ExtractiveGenerator;
import org.openbook.answer.RefusalPolicy;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.testing.HashEmbedder;
import org.openbook.testing.SharedData;

/**
 * A server on 127.0.0.1 (ephemeral port) over a small corpus with {@code public}, {@code hr} and
 * {@code finance} documents, the {@link HashEmbedder} and the extractive generator, plus an HTTP
 * client. Tokens: {@code tok-visitor} (public), {@code tok-hr} (hr), {@code tok-admin} (hr,
 * finance; writer), {@code tok-editor} (public only; writer), {@code tok-hrwriter} (hr; writer).
 */
final class TestServer implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  /** Facts only the restricted documents hold; they must never reach a visitor. */
  static final String FINANCE_FACT = "2025-03-15";
  static final String PAYROLL_FACT = "25th of every month";
  static final String HR_FACT = "10:00 to 16:00";

  static final Map<String, String> CORPUS = Map.of(
      "about.md", """
          ---
          title: About Acme
          dept: public
          ---
          # About Acme

          Acme Widgets was founded in 2001 in Lisbon. The support hotline opens at 9:00 on weekdays.
          """,
      "support/returns.md", """
          ---
          dept: public
          ---
          # Returns

          Customers may return a widget within 7 days of delivery. Refunds are issued within 3 working days.
          """,
      "hr/handbook.md", """
          ---
          dept: hr
          ---
          # Employee handbook

          ## Working hours

          Core hours are 10:00 to 16:00 for every employee. Flexible time is allowed outside core hours.

          ## Annual leave

          Annual leave is 7 days in the first year, 10 days after one year, 12 days after three years \
          and 15 days after five years of service. Leave longer than 3 days needs the approval of the \
          vice president in charge. Unused leave expires at the end of March of the next year. \
          Sick leave needs a doctor's note after two days. Parental leave follows the law of the \
          country of employment and is paid in full for the first four weeks.

          ## Expenses

          Travel expenses are reimbursed within 30 days when the receipts are uploaded to the portal. \
          Meals are reimbursed up to 40 euros per day while travelling abroad.
          """,
      "finance/bonus.md", """
          ---
          dept: finance
          ---
          # Annual bonus policy

          Finance documents: the annual bonus for 2024 is paid on 2025-03-15. The bonus equals the \
          monthly base salary times the personal performance factor times the company factor 1.2.
          """,
      "finance/payroll.md", """
          ---
          dept: finance
          ---
          # Payroll calendar

          Finance documents: all finance documents list the payroll calendar. Salaries are paid on \
          the 25th of every month.
          """);

  static final String CONFIG = """
      principals:
        visitor: []
        hr: [hr]
        admin: [hr, finance]
        editor: []
        hrwriter: [hr]
      gate:
        threshold: %s
      server:
        tokens:
          tok-visitor: visitor
          tok-hr: hr
          tok-admin: admin
          tok-editor: editor
          tok-hrwriter: hrwriter
        writers: [admin, editor, hrwriter]
        maxBodyBytes: 2048
        maxUploadBytes: 65536
        maxK: 20
        auditLog: %s
      """;

  final Path root;
  final Path docs;
  final Path auditLog;
  final OpenBookConfig config;
  final OpenBook engine;
  final IngestReport initialIngest;
  final ApiServer server;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  /**
   * @param gateThreshold gate-1 cosine threshold; the hash embedder gives related texts a cosine
   *                      well above 0.1 and a question with no shared characters 0
   */
  TestServer(Path root, double gateThreshold) throws IOException {
    this(root, gateThreshold, null);
  }

  /**
   * As {@link #TestServer(Path, double)} over a copy of {@code corpus} (e.g. kb-demo/docs) made
   * in {@code root}, or over {@link #CORPUS} when {@code corpus} is null.
   */
  TestServer(Path root, double gateThreshold, Path corpus) throws IOException {
    this(root, gateThreshold, corpus, "");
  }

  /** As {@link #TestServer(Path, double, Path)} with {@code extraConfig} appended to the YAML. */
  TestServer(Path root, double gateThreshold, Path corpus, String extraConfig) throws IOException {
    this(root, gateThreshold, corpus, extraConfig, List.of());
  }

  /**
   * As {@link #TestServer(Path, double, Path, String)} with the server loading uploads with the
   * configured loaders plus {@code extraLoaders}, e.g. a slow or failing test loader.
   */
  TestServer(Path root, double gateThreshold, Path corpus, String extraConfig,
      List<org.openbook.document.DocumentLoader> extraLoaders) throws IOException {
    this.root = root;
    this.docs = root.resolve("docs");
    this.auditLog = root.resolve("audit.log");
    if (corpus == null) {
      for (Map.Entry<String, String> e : CORPUS.entrySet()) {
        Path p = docs.resolve(e.getKey());
        Files.createDirectories(p.getParent());
        Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
      }
    } else {
      try (var files = Files.walk(corpus)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Path p = docs.resolve(corpus.relativize(f).toString());
          Files.createDirectories(p.getParent());
          Files.copy(f, p);
        }
      }
    }
    Path cfg = root.resolve("openbook.yaml");
    Files.writeString(cfg, CONFIG.formatted(gateThreshold, auditLog.toString()) + extraConfig);
    this.config = ConfigLoader.read(cfg);
    this.engine = OpenBook.builder().index(root.resolve("index")).config(config)
        .embedder(new HashEmbedder()).generator(new ExtractiveGenerator(RefusalPolicy.DEFAULT))
        .mode(OpenBook.Mode.RESET).build();
    this.initialIngest = engine.ingest(docs, IngestListener.NONE);
    this.server = new ApiServer(engine, docs, extraLoaders)
        .start("127.0.0.1", 0);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).GET();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> post(String path, String token, String json)
      throws IOException, InterruptedException {
    return post(path, token, json, "application/json");
  }

  HttpResponse<String> post(String path, String token, String json, String accept)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path))
        .header("Content-Type", "application/json").header("Accept", accept)
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> delete(String path, String token) throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).DELETE();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /** Uploads {@code files} (name → content) as multipart parts named {@code files}. */
  HttpResponse<String> upload(String token, String folder, Map<String, String> files)
      throws IOException, InterruptedException {
    return uploadTo(server.port(), token, folder, files);
  }

  /** As {@link #upload} to the server listening on {@code port} of 127.0.0.1. */
  HttpResponse<String> uploadTo(int port, String token, String folder, Map<String, String> files)
      throws IOException, InterruptedException {
    Map<String, byte[]> bytes = new java.util.LinkedHashMap<>();
    files.forEach((name, text) -> bytes.put(name, text.getBytes(StandardCharsets.UTF_8)));
    return uploadBytes(port, token, folder, bytes);
  }

  /** As {@link #upload} with binary contents (name → bytes). */
  HttpResponse<String> uploadBytes(String token, String folder, Map<String, byte[]> files)
      throws IOException, InterruptedException {
    return uploadBytes(server.port(), token, folder, files);
  }

  private HttpResponse<String> uploadBytes(int port, String token, String folder,
      Map<String, byte[]> files) throws IOException, InterruptedException {
    String boundary = "----openbook-test-boundary";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (folder != null) {
      body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"folder\"\r\n\r\n"
          + folder + "\r\n").getBytes(StandardCharsets.UTF_8));
    }
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; "
          + "filename=\"" + f.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8));
      body.writeBytes(f.getValue());
      body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    HttpRequest.Builder b = HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/v1/documents"))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  /**
   * Uploads as {@link #upload} and waits for the job: the {@code 202} response's job polled until
   * it is {@code succeeded} or {@code failed} (bounded: 60 s).
   *
   * @return the finished job object
   * @throws AssertionError when the upload is not accepted with 202
   */
  JsonNode uploadAndWait(String token, String folder, Map<String, String> files)
      throws IOException, InterruptedException {
    HttpResponse<String> r = upload(token, folder, files);
    if (r.statusCode() != 202) {
      throw new AssertionError("upload not accepted: " + r.statusCode() + " " + r.body());
    }
    return awaitJob(token, json(r).get("jobId").asText());
  }

  /** Polls {@code GET /v1/jobs/{id}} until the job has finished (at most 60 s). */
  JsonNode awaitJob(String token, String jobId) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (true) {
      JsonNode job = json(get("/v1/jobs/" + jobId, token));
      String status = job.path("status").asText();
      if (status.equals("succeeded") || status.equals("failed")) {
        return job;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("job " + jobId + " still " + status);
      }
      Thread.sleep(20);
    }
  }

  static JsonNode json(HttpResponse<String> r) throws IOException {
    return JSON.readTree(r.body());
  }

  static String q(String question) {
    return JSON.createObjectNode().put("question", question).toString();
  }

  /** One server-sent event. */
  record Event(String name, String data) {}

  /**
   * Splits an event-stream body into events (blank-line separated; multi-line data joined;
   * comment blocks skipped as the WHATWG parser does).
   */
  static List<Event> events(String body) {
    List<Event> out = new ArrayList<>();
    for (String block : body.split("\n\n")) {
      if (block.isBlank()) {
        continue;
      }
      String name = "message";
      StringBuilder data = new StringBuilder();
      if (block.lines().allMatch(l -> l.startsWith(":"))) {
        continue;  // a comment (the server's heartbeat); clients ignore it
      }
      for (String line : block.split("\n")) {
        if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("data: ")) {
          if (data.length() > 0) {
            data.append('\n');
          }
          data.append(line.substring(6));
        }
      }
      out.add(new Event(name, data.toString()));
    }
    return out;
  }

  /** kb-demo/docs from the shared folder ({@link SharedData#require}). */
  static Path kbDemoDocs() {
    return SharedData.require("fixtures/kb-demo/docs");
  }

  @Override
  public void close() throws IOException {
    server.close();
    engine.close();
  }
}
