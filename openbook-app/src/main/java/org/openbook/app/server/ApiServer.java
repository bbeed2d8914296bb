package org.openbook.app.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.UploadedFile;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerService;
import org.openbook.answer.Generator;
import org.openbook.answer.Source;
import org.openbook.engine.OpenBook;
import org.openbook.app.JsonOutput;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.conversation.ConversationService;
import org.openbook.conversation.KeyTermCarryOver;
import org.openbook.conversation.QuestionRewriter;
import org.openbook.document.DocumentReader;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retrieval;
import org.openbook.retrieve.Retriever;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code openbook serve} (Javalin 6 on Jetty 11).
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><td>{@code POST /v1/ask}</td><td>{@code {question, conversationId?, k?}} → the CLI's
 *       {@code ask --json} object plus {@code conversationId} (a new id when none was sent; a
 *       follow-up in a conversation is rewritten from the previous turn before retrieval, see
 *       {@code diagnostics.rewrittenQuestion}); status 200 whatever the answer status; with {@code Accept:
 *       text/event-stream} the events {@code sources} (array), {@code delta}* ({@code {text}}),
 *       {@code final} (the JSON answer without {@code sources}; {@code answer} is the checked
 *       text), or {@code error} last if the server failed mid-stream</td></tr>
 *   <tr><td>{@code POST /v1/search}</td><td>{@code {question, k?}} → the CLI's
 *       {@code search --json} object (per-route ranks and scores)</td></tr>
 *   <tr><td>{@code POST /v1/documents}</td><td>multipart parts {@code files} (one or more) and
 *       optional {@code folder} → 201 with the ingest report; writers only</td></tr>
 *   <tr><td>{@code DELETE /v1/documents/{source}}</td><td>→ 200; writers only</td></tr>
 *   <tr><td>{@code GET /v1/documents}</td><td>→ {@code {documents: [{source, dept, chunks, hash,
 *       updatedAt}]}}, only departments the caller may read</td></tr>
 *   <tr><td>{@code GET /healthz}, {@code GET /metrics}, {@code GET /}</td><td>health, Prometheus
 *       text, the web page (no authentication)</td></tr>
 * </table>
 *
 * Every {@code /v1} request needs {@code Authorization: Bearer <token>} (401 otherwise). Errors
 * are {@code {"error": {status, field, message}}} (see {@link ApiException}).
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PRINCIPAL = "openbook.principal";
  /** Conversations kept in memory. */
  private static final int CONVERSATIONS = 10_000;
  private static final Set<String> ROUTES =
      Set.of("/v1/ask", "/v1/search", "/v1/documents", "/healthz", "/metrics", "/");

  private final OpenBook engine;
  private final Generator generator;
  private final Retriever retriever;
  private final AnswerService answers;
  private final Authenticator auth;
  private final ApiRequests requests;
  private final DocumentService documents;
  private final Conversations conversations = new Conversations(CONVERSATIONS);
  private final ConversationService conversationService;
  private final ServerMetrics metrics = new ServerMetrics();
  private final AuditLog audit;
  private final long maxUploadBytes;
  private final Javalin app;

  /**
   * A server over {@code engine} (opened for writing so uploads work); not yet listening.
   *
   * @param docsDir   the corpus folder uploads go to and are ingested from
   * @param generator writes answers (the extractive one in tests)
   * @throws IllegalArgumentException for a bad {@code server} config section
   */
  public ApiServer(OpenBook engine, OpenBookConfig config, Path docsDir, Generator generator) {
    this(engine, config, docsDir, generator, new KeyTermCarryOver());
  }

  /**
   * As {@link #ApiServer(OpenBook, OpenBookConfig, Path, Generator)} with the rewriter that turns a
   * follow-up into a standalone question (an LLM's when one is configured).
   */
  public ApiServer(OpenBook engine, OpenBookConfig config, Path docsDir, Generator generator,
      QuestionRewriter rewriter) {
    this.engine = engine;
    this.generator = generator;
    this.retriever = engine.retriever();
    this.answers = engine.answerService(generator);
    // Follow-ups are rewritten before retrieval, so the history steers what is retrieved.
    this.conversationService = new ConversationService(answers::ask, rewriter, conversations);
    this.auth = new Authenticator(config);
    var s = config.server();
    if (s.maxKOr() < 1) {
      throw new IllegalArgumentException("server.maxK must be >= 1, got " + s.maxKOr());
    }
    this.requests = new ApiRequests(s.maxBodyBytesOr(), s.maxKOr());
    this.maxUploadBytes = s.maxUploadBytesOr();
    long maxFile = config.ingest().maxFileBytes() == null
        ? DocumentReader.DEFAULT_MAX_BYTES : config.ingest().maxFileBytes();
    this.documents = new DocumentService(engine, docsDir, maxFile);
    this.audit = new AuditLog(s.auditLog() == null ? null : Path.of(s.auditLog()),
        Clock.systemUTC());
    this.metrics.chunks(documents.count());
    this.app = Javalin.create(c -> {
      c.showJavalinBanner = false;
      // SSE must reach the client event by event; compression would buffer it.
      c.http.disableCompression();
      c.http.maxRequestSize = Math.max(s.maxBodyBytesOr(), maxUploadBytes);
      c.jetty.multipartConfig.maxTotalRequestSize(maxUploadBytes, io.javalin.config.SizeUnit.BYTES);
      c.jetty.multipartConfig.maxFileSize(maxUploadBytes, io.javalin.config.SizeUnit.BYTES);
      c.staticFiles.add(sf -> {
        sf.hostedPath = "/";
        sf.directory = "/web";
        sf.location = Location.CLASSPATH;
      });
      c.requestLogger.http((ctx, ms) -> metrics.request(endpoint(ctx), ctx.method().name(),
          ctx.statusCode(), ms / 1000.0));
    });
    routes();
  }

  /** Starts listening; {@code port} 0 picks a free port (see {@link #port()}). */
  public ApiServer start(String host, int port) {
    app.start(host, port);
    return this;
  }

  /** The port listened on. */
  public int port() {
    return app.port();
  }

  /** The docs folder uploads go to. */
  public Path docsDir() {
    return documents.docsDir();
  }

  /** Stops listening; the engine stays open (its owner closes it). */
  @Override
  public void close() {
    app.stop();
  }

  private void routes() {
    app.before("/v1/*", ctx -> ctx.attribute(PRINCIPAL, auth.authenticate(ctx.header("Authorization"))));
    app.post("/v1/ask", this::ask);
    app.post("/v1/search", this::search);
    app.get("/v1/documents", this::listDocuments);
    app.post("/v1/documents", this::upload);
    app.delete("/v1/documents/<source>", this::delete);
    app.get("/healthz", this::health);
    app.get("/metrics", ctx -> ctx.contentType(metrics.contentType()).result(metrics.scrape()));

    app.exception(ApiException.class, (e, ctx) -> {
      if (e.status() == 401) {
        ctx.header("WWW-Authenticate", "Bearer");
      }
      error(ctx, e);
    });
    app.exception(HttpResponseException.class, (e, ctx) -> error(ctx,
        new ApiException(e.getStatus(), e.getStatus() == 413 ? "body" : null, e.getMessage())));
    app.exception(Exception.class, (e, ctx) -> {
      LOG.error("request {} {} failed", ctx.method(), ctx.path(), e);
      error(ctx, new ApiException(500, null, "internal error: " + e.getClass().getSimpleName()
          + (e.getMessage() == null ? "" : ": " + e.getMessage())));
    });
  }

  private static void error(Context ctx, ApiException e) {
    ctx.status(e.status()).contentType("application/json").result(e.toJson());
  }

  /**
   * The metrics label of a request: its route template. Derived from the path rather than
   * Javalin's matched handler, which is not known when a before-handler (authentication)
   * ended the request; anything else is {@code other} so scans cannot create label values.
   */
  static String endpoint(Context ctx) {
    String path = ctx.path();
    if (ROUTES.contains(path)) {
      return path;
    }
    if (path.startsWith("/v1/documents/")) {
      return "/v1/documents/<source>";
    }
    return "other";
  }

  private static Principal principal(Context ctx) {
    return ctx.attribute(PRINCIPAL);
  }

  private void ask(Context ctx) throws IOException {
    Principal who = principal(ctx);
    ApiRequests.Ask req = requests.ask(ctx.bodyInputStream(), ctx.contentLength());
    Query query = engine.query(req.question(), who, req.k());
    String conversationId = req.conversationId() == null
        ? conversations.start(who.name()) : conversations.require(req.conversationId(), who.name());
    String accept = ctx.header("Accept");
    boolean stream = accept != null && accept.contains("text/event-stream");
    if (!stream) {
      Audited listener = new Audited(query, who, null);
      Answer a = conversationService.ask(conversationId, query, listener);
      finish(a, query, who, listener);
      ObjectNode body = (ObjectNode) JSON.readTree(JsonOutput.ask(query, a));
      body.put("conversationId", conversationId);
      ctx.contentType("application/json").result(body.toString());
      return;
    }
    ctx.status(200);
    ctx.res().setContentType("text/event-stream;charset=utf-8");
    ctx.res().setHeader("Cache-Control", "no-cache");
    ctx.res().setHeader("X-Accel-Buffering", "no");
    SseEmitter sse = new SseEmitter(ctx.res().getOutputStream());
    Audited listener = new Audited(query, who, sse);
    try {
      Answer a = conversationService.ask(conversationId, query, listener);
      listener.ensureSources();
      finish(a, query, who, listener);
      ObjectNode fin = (ObjectNode) JSON.readTree(JsonOutput.ask(query, a));
      fin.remove("sources");
      fin.put("conversationId", conversationId);
      sse.send("final", fin.toString());
    } catch (UncheckedIOException e) {
      // The client closed the stream; the response cannot carry an error any more.
      LOG.debug("ask stream of {} ended early: {}", who.name(), e.getMessage());
    } catch (RuntimeException e) {
      // The 200 header is gone: report the failure as a last event instead of a status.
      LOG.error("ask stream of {} failed", who.name(), e);
      sse.send("error", new ApiException(500, null, "internal error: "
          + e.getClass().getSimpleName()).toJson());
    }
  }

  private void finish(Answer a, Query query, Principal who, Audited listener) {
    if (!listener.audited.get()) {
      // Gate 1 refused or retrieval failed: nothing was returned, still one audit line.
      audit.record("/v1/ask", who.name(), query.text(), List.of());
    }
    metrics.answer(a);
  }

  /**
   * Audits the sources before anyone sees them, then (when streaming) sends them and the text
   * deltas. The {@code sources} event always comes first: an empty one is sent before the
   * refusal text when gate 1 refused.
   */
  private final class Audited implements AnswerService.Listener {
    private final Query query;
    private final Principal who;
    private final SseEmitter sse;
    private final AtomicBoolean audited = new AtomicBoolean();
    private boolean sourcesSent;

    Audited(Query query, Principal who, SseEmitter sse) {
      this.query = query;
      this.who = who;
      this.sse = sse;
    }

    @Override
    public void onSources(List<Source> sources) {
      audit.record("/v1/ask", who.name(), query.text(),
          sources.stream().map(Source::chunkId).toList());
      audited.set(true);
      if (sse != null) {
        sse.send("sources", JsonOutput.sources(sources));
        sourcesSent = true;
      }
    }

    @Override
    public void onText(String text) {
      if (sse != null) {
        ensureSources();
        sse.send("delta", JSON.createObjectNode().put("text", text).toString());
      }
    }

    void ensureSources() {
      if (sse != null && !sourcesSent) {
        sse.send("sources", "[]");
        sourcesSent = true;
      }
    }
  }

  private void search(Context ctx) throws IOException {
    Principal who = principal(ctx);
    ApiRequests.Search req = requests.search(ctx.bodyInputStream(), ctx.contentLength());
    Query query = engine.query(req.question(), who, req.k());
    long t0 = System.nanoTime();
    Retrieval r = retriever.retrieve(query);
    long millis = (System.nanoTime() - t0) / 1_000_000;
    audit.record("/v1/search", who.name(), query.text(),
        r.hits().stream().map(h -> h.chunk().id()).toList());
    ctx.contentType("application/json").result(JsonOutput.search(query, r, millis));
  }

  private void listDocuments(Context ctx) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode arr = root.putArray("documents");
    for (DocumentService.DocumentInfo d : documents.list(principal(ctx))) {
      ObjectNode n = arr.addObject();
      n.put("source", d.source());
      n.put("dept", d.dept());
      n.put("chunks", d.chunks());
      n.put("hash", d.hash());
      if (d.updatedAt() == null) {
        n.putNull("updatedAt");
      } else {
        n.put("updatedAt", d.updatedAt().toString());
      }
    }
    ctx.contentType("application/json").result(root.toString());
  }

  private void upload(Context ctx) throws IOException {
    Principal who = principal(ctx);
    auth.requireWriter(who);
    if (ctx.contentLength() > maxUploadBytes) {
      throw new ApiException(413, "body", "upload of " + ctx.contentLength()
          + " bytes exceeds the limit of " + maxUploadBytes + " bytes (server.maxUploadBytes)");
    }
    if (!ctx.isMultipartFormData()) {
      throw new ApiException(415, "Content-Type",
          "expected multipart/form-data with one or more parts named 'files'");
    }
    List<UploadedFile> parts;
    String folder;
    try {
      parts = ctx.uploadedFiles("files");
      folder = ctx.formParam("folder");
    } catch (RuntimeException e) {
      // Jetty refuses a multipart body over the configured size while parsing it.
      throw new ApiException(413, "body", "upload exceeds the limit of " + maxUploadBytes
          + " bytes (server.maxUploadBytes): " + e.getMessage());
    }
    List<DocumentService.Upload> files = new ArrayList<>();
    for (UploadedFile f : parts) {
      try (var in = f.content()) {
        files.add(new DocumentService.Upload(f.filename(), in.readAllBytes()));
      }
    }
    IngestReport report = documents.upload(who, folder, files);
    long total = documents.count();
    metrics.chunks(total);
    ObjectNode body = (ObjectNode) JSON.readTree(JsonOutput.ingest(report, total));
    ctx.status(201).contentType("application/json").result(body.toString());
  }

  private void delete(Context ctx) throws IOException {
    Principal who = principal(ctx);
    auth.requireWriter(who);
    String source = ctx.pathParam("source");
    documents.delete(who, source);
    long total = documents.count();
    metrics.chunks(total);
    ObjectNode body = JSON.createObjectNode();
    body.put("deleted", source);
    body.put("totalChunks", total);
    ctx.contentType("application/json").result(body.toString());
  }

  private void health(Context ctx) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    var m = engine.store().manifest();
    body.put("status", "ok");
    body.put("indexOpened", true);
    body.put("chunks", documents.count());
    body.put("model", m.embeddingModel());
    body.put("dimension", m.dimension());
    body.put("analyzer", m.analyzer());
    body.put("generator", generator.id());
    ctx.contentType("application/json").result(body.toString());
  }
}
