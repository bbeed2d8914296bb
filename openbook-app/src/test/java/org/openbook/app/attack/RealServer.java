package org.openbook.app.attack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real {@code openbook serve} process for the attack suite: the CLI entry point
 * ({@code org.openbook.app.cli.OpenBookCommand}) in its own JVM with the test class path, over an
 * index built by {@code openbook ingest} (also its own JVM) with the default bge-small ONNX
 * models and the extractive generator, listening on 127.0.0.1.
 *
 * <p>The corpus ({@link AttackCorpus}) is written to a temporary folder: {@code docs/} with
 * {@code public/}, {@code hr/}, {@code finance/} and {@code reports/}, canary files outside it
 * ({@link #canary}), the config with static tokens ({@code tok-visitor}, {@code tok-hr},
 * {@code tok-finance}, {@code tok-admin} (hr + finance, writer), {@code tok-hrwriter} (hr,
 * writer)), {@code access.folders} for hr/ and finance/, and {@code server.oidc} against a JWKS
 * served by this JVM on 127.0.0.1 ({@link #jwt}).
 *
 * <p>Started lazily once per test JVM ({@link #shared()}, via the {@link Extension} every attack
 * class registers) and stopped when JUnit closes its root store, or by a shutdown hook. Its
 * stdout and stderr go to {@code <build dir>/attack/server.log} ({@link #log()}).
 */
final class RealServer implements ExtensionContext.Store.CloseableResource, AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String ISSUER = "https://idp.attack.test/realms/acme";
  /** The suite server's {@code server.quotas.maxConversationsPerPrincipal} (item 12 case). */
  static final int MAX_CONVERSATIONS = 150;
  static final String AUDIENCE = "openbook";
  static final String KID = "k1";
  /** Longest wait for the server to become healthy (JVM start and ONNX model load). */
  private static final long START_SECONDS = 180;
  private static final String MAIN = "org.openbook.app.cli.OpenBookCommand";
  private static final Pattern SERVING = Pattern.compile("openbook serving .* on http://127\\.0\\.0\\.1:(\\d+)/");

  private static RealServer instance;

  final Path root;
  final Path docs;
  final Path index;
  final Path config;
  final Path auditLog;
  final Path logFile;
  final RSAKey key;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final HttpServer jwks;
  /** Requests to {@link #oobUrl}: an XML parser fetched an external entity. */
  final java.util.concurrent.atomic.AtomicInteger oobHits =
      new java.util.concurrent.atomic.AtomicInteger();
  private Process process;
  private int port;
  private final Thread hook;

  /** JUnit extension: starts the shared server before a class and closes it after the run. */
  static final class Extension implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
      context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
          .getOrComputeIfAbsent(RealServer.class, k -> shared(), RealServer.class);
    }
  }

  /**
   * The one server of this JVM, started on first use, and started again when its process died
   * or stopped answering {@code /healthz} (an attack that brought it down must not fail every
   * later class for the wrong reason).
   */
  static synchronized RealServer shared() {
    try {
      if (instance == null) {
        instance = new RealServer();
      } else if (!instance.healthy()) {
        instance.stopProcess();
        instance.startServe(instance.config);
      }
      return instance;
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the attack server: " + e, e);
    }
  }

  private RealServer() throws Exception {
    Path build = Path.of(RealServer.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI()).getParent();
    Path logs = build.resolve("attack");
    Files.createDirectories(logs);
    this.logFile = logs.resolve("server.log");
    Files.deleteIfExists(logFile);
    this.root = Files.createTempDirectory("openbook-attack");
    this.docs = root.resolve("docs");
    this.index = root.resolve("index");
    this.config = root.resolve("openbook.yaml");
    this.auditLog = root.resolve("audit.log");
    this.key = new RSAKeyGenerator(2048).keyID(KID).generate();
    this.jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    byte[] keys = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    jwks.createContext("/jwks", ex -> {
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, keys.length);
      ex.getResponseBody().write(keys);
      ex.close();
    });
    // out-of-band probe: an XML parser that fetches an external entity or DTD calls here
    jwks.createContext("/oob", ex -> {
      oobHits.incrementAndGet();
      byte[] dtd = "<!ENTITY oob \"OOBFETCHED\">".getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, dtd.length);
      ex.getResponseBody().write(dtd);
      ex.close();
    });
    jwks.start();
    this.hook = new Thread(this::stopProcess, "openbook-attack-server-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    AttackCorpus.write(root, docs);
    Files.writeString(config, configYaml(AttackCorpus.PRINCIPALS), StandardCharsets.UTF_8);
    ingest();
    startServe(config);
  }

  /** The YAML config with {@code principals} as given (indented block, two spaces). */
  String configYaml(String principals) {
    return "principals:\n" + principals
        + """
        access:
          # the recommended setting for servers with folder rules (docs/SERVER.md, "Security
          # model"): a writer cannot tell a name taken by another department from a free one
          uploadsOnlyInRuledFolders: true
          folders:
            hr/: [hr]
            finance/: [finance]
            public/: [public]
        server:
          tokens:
            tok-visitor: visitor
            tok-hr: hr
            tok-finance: finance
            tok-admin: admin
            tok-hrwriter: hrwriter
          writers: [admin, hrwriter]
          quotas:
            maxConversationsPerPrincipal: %d
          maxK: 20
          auditLog: %s
          oidc:
            issuer: %s
            audience: %s
            jwksUri: http://127.0.0.1:%d/jwks
            clockSkewSeconds: 30
            groups:                 # token groups map through their own table
              finance-team: [finance]
              hr-team: [hr]
        """.formatted(MAX_CONVERSATIONS, auditLog, ISSUER, AUDIENCE, jwks.getAddress().getPort());
  }

  private List<String> java(String... args) {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-Dstderr.encoding=UTF-8",
        "-Djava.security.egd=file:/dev/./urandom",
        // as the ./openbook launcher, but with OpenBook's own loggers at info so that the log
        // the tests scan holds every line a request can cause
        "-Dlog4j2.loggerContextFactory=org.apache.logging.log4j.simple.SimpleLoggerContextFactory",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
        "-Dorg.slf4j.simpleLogger.log.org.openbook=info",
        "-Dorg.slf4j.simpleLogger.log.ai.djl=error",
        "-Dorg.slf4j.simpleLogger.log.org.apache.pdfbox=error",
        "-Dorg.slf4j.simpleLogger.log.openbook.audit=info",
        "-cp", System.getProperty("java.class.path"), MAIN));
    cmd.addAll(List.of(args));
    return cmd;
  }

  private void ingest() throws Exception {
    Path ingestLog = logFile.resolveSibling("ingest.log");
    Process p = new ProcessBuilder(java("ingest", docs.toString(), "--index", index.toString(),
        "--config", config.toString(), "--no-progress"))
        .redirectErrorStream(true).redirectOutput(ingestLog.toFile()).start();
    if (!p.waitFor(START_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("openbook ingest did not finish in " + START_SECONDS
          + " s; see " + ingestLog);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException("openbook ingest exited " + p.exitValue() + ":\n"
          + Files.readString(ingestLog));
    }
  }

  private void startServe(Path cfg) throws Exception {
    long logStart = Files.exists(logFile) ? Files.size(logFile) : 0;
    // appended, so that a restart keeps the lines of the run before it
    process = new ProcessBuilder(java("serve", "--index", index.toString(), "--docs",
        docs.toString(), "--config", cfg.toString(), "--port", "0", "--host", "127.0.0.1"))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        .start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    port = 0;
    while (port == 0) {
      Matcher m = SERVING.matcher(logSince(logStart));
      if (m.find()) {
        port = Integer.parseInt(m.group(1));
      } else if (!process.isAlive()) {
        throw new IllegalStateException("openbook serve exited " + process.exitValue() + ":\n"
            + logSince(logStart));
      } else if (System.nanoTime() > deadline) {
        stopProcess();
        throw new IllegalStateException("openbook serve printed no address in "
            + START_SECONDS + " s:\n" + logSince(logStart));
      } else {
        Thread.sleep(100);
      }
    }
    while (true) {
      try {
        if (get("/healthz", null).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      if (System.nanoTime() > deadline || !process.isAlive()) {
        stopProcess();
        throw new IllegalStateException("openbook serve never became healthy:\n" + log());
      }
      Thread.sleep(100);
    }
  }

  /**
   * Stops the server and starts it again on the same index and docs with {@code cfg} (a config
   * file), as an operator restarting it after a change.
   */
  synchronized void restart(Path cfg) throws Exception {
    stopProcess();
    startServe(cfg);
  }

  private synchronized void stopProcess() {
    if (process == null || !process.isAlive()) {
      return;
    }
    process.destroy();  // SIGTERM: the serve command closes the index on its shutdown hook
    try {
      if (!process.waitFor(40, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private boolean healthy() {
    try {
      return process.isAlive() && send(HttpRequest.newBuilder(uri("/healthz")).GET(), null,
          Duration.ofSeconds(10)).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Whether the server process is running. */
  boolean alive() {
    return process.isAlive();
  }

  @Override
  public void close() throws IOException {
    stopProcess();
    jwks.stop(0);
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down
    }
    try (var files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary folder: best effort
    }
  }

  /** A URL on 127.0.0.1 that counts its requests in {@link #oobHits}. */
  String oobUrl(String name) {
    return "http://127.0.0.1:" + jwks.getAddress().getPort() + "/oob/" + name;
  }

  // ------------------------------------------------------------------ files

  /** A file outside the docs folder whose bytes no request may change or show. */
  Path canary() {
    return root.resolve(AttackCorpus.CANARY_FILE);
  }

  /** The server's log so far (stdout and stderr). */
  String log() throws IOException {
    return Files.readString(logFile, StandardCharsets.UTF_8);
  }

  /** The length of the log now, to read what a test caused with {@link #logSince}. */
  long logMark() throws IOException {
    return Files.size(logFile);
  }

  /** The log written since {@code mark}. */
  String logSince(long mark) throws IOException {
    byte[] all = Files.readAllBytes(logFile);
    int from = (int) Math.min(mark, all.length);
    return new String(all, from, all.length - from, StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------ HTTP

  int port() {
    return port;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** Sends {@code b} (with {@code token} unless null), waiting at most 120 s for the reply. */
  HttpResponse<String> send(HttpRequest.Builder b, String token)
      throws IOException, InterruptedException {
    return send(b, token, Duration.ofSeconds(120));
  }

  /** Sends {@code b} (with {@code token} unless null), waiting at most {@code timeout}. */
  HttpResponse<String> send(HttpRequest.Builder b, String token, Duration timeout)
      throws IOException, InterruptedException {
    b.timeout(timeout);
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).GET(), token);
  }

  HttpResponse<String> delete(String path, String token)
      throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).DELETE(), token);
  }

  HttpResponse<String> post(String path, String token, String json)
      throws IOException, InterruptedException {
    return post(path, token, json, "application/json");
  }

  HttpResponse<String> post(String path, String token, String json, String accept)
      throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .header("Accept", accept)
        .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)), token);
  }

  HttpResponse<String> patch(String path, String token, String json)
      throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
        .method("PATCH", HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)),
        token);
  }

  /** {@code {"question": q}}. */
  static String q(String question) {
    return JSON.createObjectNode().put("question", question).toString();
  }

  static JsonNode json(HttpResponse<String> r) throws IOException {
    return JSON.readTree(r.body());
  }

  /** An {@code ask} as JSON; asserts nothing. */
  HttpResponse<String> ask(String token, String question)
      throws IOException, InterruptedException {
    return post("/v1/ask", token, q(question));
  }

  /**
   * A multipart upload to {@code /v1/documents}: {@code files} name → bytes, written byte for
   * byte (names unescaped, as an attacker sends them); {@code folder} null for none.
   */
  HttpResponse<String> upload(String token, String folder, Map<String, byte[]> files)
      throws IOException, InterruptedException {
    String boundary = "----openbook-attack-boundary";
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if (folder != null) {
      body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"folder\""
          + "\r\n\r\n" + folder + "\r\n").getBytes(StandardCharsets.UTF_8));
    }
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"files\"; "
          + "filename=\"" + f.getKey() + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8));
      body.writeBytes(f.getValue());
      body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }
    body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
    return send(HttpRequest.newBuilder(uri("/v1/documents"))
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())), token);
  }

  /** One text file to upload. */
  static Map<String, byte[]> file(String name, String text) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    m.put(name, text.getBytes(StandardCharsets.UTF_8));
    return m;
  }

  /** Polls {@code GET /v1/jobs/{id}} until it has finished (at most {@code seconds}). */
  JsonNode awaitJob(String token, String jobId, long seconds)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      JsonNode job = json(get("/v1/jobs/" + jobId, token));
      String status = job.path("status").asText();
      if (status.equals("succeeded") || status.equals("failed")) {
        return job;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("job " + jobId + " still " + status + " after " + seconds + " s");
      }
      Thread.sleep(100);
    }
  }

  /** Uploads and waits for the job; fails unless the upload is accepted with 202. */
  JsonNode uploadAndWait(String token, String folder, Map<String, byte[]> files)
      throws IOException, InterruptedException {
    HttpResponse<String> r = upload(token, folder, files);
    if (r.statusCode() != 202) {
      throw new AssertionError("upload not accepted: " + r.statusCode() + " " + r.body());
    }
    return awaitJob(token, json(r).get("jobId").asText(), 120);
  }

  /** The reply to a request written byte for byte on a socket (status line, headers, body). */
  record Raw(int status, String head, String body) {}

  /**
   * Sends {@code request} (a whole HTTP/1.1 request, {@code Connection: close} expected) and
   * reads the reply until the server closes, at most {@code seconds}.
   */
  Raw raw(byte[] request, int seconds) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
      s.setSoTimeout(seconds * 1000);
      OutputStream out = s.getOutputStream();
      out.write(request);
      out.flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream reply = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      try {
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
          reply.write(buf, 0, n);
        }
      } catch (java.net.SocketTimeoutException | java.net.SocketException e) {
        // what arrived is the reply
      }
      String text = reply.toString(StandardCharsets.UTF_8);
      int split = text.indexOf("\r\n\r\n");
      String head = split < 0 ? text : text.substring(0, split);
      String body = split < 0 ? "" : text.substring(split + 4);
      Matcher m = Pattern.compile("^HTTP/1\\.[01] (\\d{3})").matcher(head);
      return new Raw(m.find() ? Integer.parseInt(m.group(1)) : -1, head, body);
    }
  }

  /** As {@link #raw(byte[], int)} for a request given as text (UTF-8). */
  Raw raw(String request, int seconds) throws IOException {
    return raw(request.getBytes(StandardCharsets.UTF_8), seconds);
  }

  /** Asserts the server still answers {@code /healthz} with 200 within 10 s. */
  void assertHealthy() throws Exception {
    HttpResponse<String> r = send(HttpRequest.newBuilder(uri("/healthz")).GET(), null,
        Duration.ofSeconds(10));
    if (r.statusCode() != 200 || !alive()) {
      throw new AssertionError("server not healthy: " + r.statusCode() + " " + r.body());
    }
  }

  // ------------------------------------------------------------------ JWT

  /** Claims of a valid token for {@code username} in {@code groups}, valid for 5 min. */
  JWTClaimsSet.Builder claims(String username, List<String> groups) {
    Instant now = Instant.now();
    JWTClaimsSet.Builder b = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE)
        .subject("sub-" + username).issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)));
    if (username != null) {
      b.claim("preferred_username", username);
    }
    if (groups != null) {
      b.claim("groups", groups);
    }
    return b;
  }

  /** {@code claims} signed RS256 with the key the JWKS publishes. */
  String jwt(JWTClaimsSet claims) throws Exception {
    return sign(key, claims);
  }

  static String sign(RSAKey k, JWTClaimsSet claims) throws Exception {
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(k.getKeyID())
        .type(JOSEObjectType.JWT).build(), claims);
    jwt.sign(new RSASSASigner(k));
    return jwt.serialize();
  }
}
