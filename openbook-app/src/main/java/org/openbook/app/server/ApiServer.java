package org.openbook.app.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.UploadedFile;
import io.javalin.http.staticfiles.Location;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openbook.answer.Answer;
import org.openbook.answer.Answerer;
import org.openbook.answer.Source;
import org.openbook.app.JsonOutput;
import org.openbook.chunk.Chunk;
import org.openbook.conversation.ConversationService;
import org.openbook.conversation.Turn;
import org.openbook.conversation.TurnAccess;
import org.openbook.document.Document;
import org.openbook.embed.InputTooLongException;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.Settings;
import org.openbook.engine.corpus.AccessDeniedException;
import org.openbook.engine.corpus.Corpus;
import org.openbook.engine.corpus.CorpusConflictException;
import org.openbook.engine.corpus.CorpusException;
import org.openbook.engine.corpus.InvalidUploadException;
import org.openbook.engine.corpus.NotFoundException;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retriever;
import org.openbook.retrieve.SearchResult;
import org.openbook.solr.SolrChunkStore;
import org.openbook.solr.SolrCollectionStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP server of {@code openbook serve} (Javalin 6 on Jetty 11). The endpoints, bodies,
 * status codes and events are specified in {@code docs/API.md}; in short: {@code /v1/ask}
 * (JSON or SSE), {@code /v1/search}, {@code /v1/me}, {@code /v1/conversations[/{id}]},
 * {@code /v1/feedback}, {@code /v1/documents} (list, upload as a background job, delete),
 * {@code /v1/jobs/{id}}, {@code /v1/sections/{chunkId}}; {@code /healthz}, {@code /metrics} and
 * the web page without authentication.
 *
 * <p>Every response carries {@code X-Request-Id} and the security headers (CSP without inline
 * script and with {@code frame-ancestors 'none'}, {@code nosniff}, {@code no-referrer}). Errors
 * are {@code {"error": {status, field, message, requestId}}}; a 500 says only "internal error"
 * and the request id, the details go to the server log under that id. Corpus rules live in
 * {@link Corpus}; this class maps its exceptions to status codes.
 */
public final class ApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ApiServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String IDENTITY = "openbook.identity";
  private static final String REQUEST_ID = "openbook.requestId";
  private static final String STARTED = "openbook.started";
  /** Set once a request was counted against its principal's in-flight limit. */
  private static final String COUNTED = "openbook.counted";
  /** Longest question accepted, in characters; longer ones are refused with 400. */
  public static final int MAX_QUESTION_CHARS = 1000;
  /** Largest page of a list endpoint ({@code limit}). */
  static final int MAX_PAGE = 500;
  /**
   * Default page of {@code GET /v1/conversations} and {@code /v1/feedback}: a sidebar's worth;
   * the documents list keeps its own default of 50.
   */
  static final int DEFAULT_LIST_PAGE = 100;
  /** Seconds between SSE heartbeats, which notice a client that went away. */
  static final long HEARTBEAT_MILLIS = 500;

  static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; "
      + "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
      + "form-action 'self'; frame-ancestors 'none'";
  private static final Set<String> ROUTES = Set.of("/v1/ask", "/v1/search", "/v1/documents",
      "/v1/me", "/v1/conversations", "/v1/feedback", "/healthz", "/metrics", "/");

  private final OpenBook engine;
  private final Retriever retriever;
  private final Authenticator auth;
  private final ApiRequests requests;
  private final Corpus corpus;
  private final ConversationLibrary conversations;
  private final FeedbackStore feedback;
  private final ConversationService conversationService;
  /** Conversations answered by the tool-calling agent; empty without an LLM endpoint. */
  private final Optional<ConversationService> agentConversations;
  private final ServerMetrics metrics = new ServerMetrics();
  private final AuditLog audit;
  private final UploadJobs jobs;
  private final ScheduledExecutorService heartbeats =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "openbook-sse-heartbeat");
        t.setDaemon(true);
        return t;
      });
  private final long maxUploadBytes;
  private final int maxFeedback;
  private final RequestLimits limits;
  /** Stored answers whose sources the caller can no longer read are withheld. */
  private final TurnAccess turnAccess;
  private final Javalin app;

  /**
   * A server over {@code engine} (opened for writing so uploads work; its generator and
   * rewriter answer); not yet listening. Conversations and feedback go to
   * {@code server.dataDir}, else {@code <docsDir>-data}. At start the docs folder is reconciled
   * with the index ({@link Corpus#reconcile()}).
   *
   * @param docsDir the corpus folder uploads go to
   * @throws IOException when the data folder cannot be read or created
   */
  public ApiServer(OpenBook engine, Path docsDir) throws IOException {
    this(engine, docsDir, List.of());
  }

  /**
   * As {@link #ApiServer(OpenBook, Path)} loading uploads with the configured loaders plus
   * {@code extraLoaders} (tests add a slow or failing loader for an extension of their own).
   */
  ApiServer(OpenBook engine, Path docsDir, List<org.openbook.document.DocumentLoader> extraLoaders)
      throws IOException {
    this.engine = engine;
    this.retriever = engine.retriever();
    Settings settings = engine.settings();
    var s = settings.server();
    Path docs = docsDir.toAbsolutePath().normalize();
    Path dataDir = s.dataDir().orElse(docs.resolveSibling(docs.getFileName() + "-data"));
    this.conversations = new ConversationLibrary(dataDir.resolve("conversations"),
        Clock.systemUTC(), s.limits().maxConversationsPerPrincipal(),
        s.limits().maxTurnsPerConversation());
    this.maxFeedback = s.limits().maxFeedbackPerPrincipal();
    this.feedback = new FeedbackStore(dataDir.resolve("feedback"));
    // Follow-ups are rewritten before retrieval, so the history steers what is retrieved.
    this.conversationService = engine.conversations(engine.answerer(), conversations);
    this.agentConversations = settings.llm().isPresent()
        ? Optional.of(engine.conversations(engine.agent(), conversations)) : Optional.empty();
    this.auth = new Authenticator(settings);
    this.turnAccess = new TurnAccess(engine.store());
    this.requests = new ApiRequests(s.maxBodyBytes(), s.maxK(), MAX_QUESTION_CHARS);
    this.maxUploadBytes = s.maxUploadBytes();
    long maxFile = settings.ingest().maxFileBytes();
    this.corpus = extraLoaders.isEmpty() ? new Corpus(engine, docs, maxFile)
        : new Corpus(engine, docs, maxFile, org.openbook.document.Loaders.defaults(
            settings.ingest().loaders()).plus(extraLoaders.toArray(
                org.openbook.document.DocumentLoader[]::new)));
    this.jobs = new UploadJobs(Clock.systemUTC(), s.limits().maxJobsPerPrincipal());
    Corpus.Reconciled r = corpus.reconcile();
    if (!r.rolledBack().isEmpty()) {
      LOG.warn("start-up: rolled back the interrupted upload of {}",
          LogSafe.of(r.rolledBack()));
    }
    corpus.writesDisabled().ifPresent(w -> LOG.warn("start-up: {}", LogSafe.of(w)));
    if (settings.access().hasRules() && !settings.access().uploadsOnlyInRuledFolders()) {
      // the one existence signal left by design (docs/SERVER.md, "Security model")
      LOG.warn("start-up: writers may upload into folders without an access.folders rule, where a"
          + " refused upload can tell them that a name is taken by a document of a department"
          + " they cannot read; set access.uploadsOnlyInRuledFolders: true to close this");
    }
    this.audit = new AuditLog(s.auditLog().orElse(null), Clock.systemUTC());
    this.limits = new RequestLimits(s.limits());
    this.app = Javalin.create(c -> {
      c.showJavalinBanner = false;
      limits.configure(c);
      // SSE must reach the client event by event; compression would buffer it.
      c.http.disableCompression();
      // a known path with another method is 405 with an Allow header, not 404
      c.http.prefer405over404 = true;
      c.http.maxRequestSize = Math.max(s.maxBodyBytes(), maxUploadBytes);
      c.jetty.multipartConfig.maxTotalRequestSize(maxUploadBytes, io.javalin.config.SizeUnit.BYTES);
      c.jetty.multipartConfig.maxFileSize(maxUploadBytes, io.javalin.config.SizeUnit.BYTES);
      // Jetty's own 400/431 replies in the API's JSON shape with the security headers (the
      // servlet context has no handler of its own, so it falls back to the server's)
      c.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorHandler()));
      // the method is the request line's, never a header's
      c.jetty.modifyServletContextHandler(MethodOverrideFilter::install);
      c.staticFiles.add(sf -> {
        sf.hostedPath = "/";
        sf.directory = "/web";
        sf.location = Location.CLASSPATH;
        sf.headers = JsonErrorHandler.SECURITY_HEADERS;
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
    return corpus.docsDir();
  }

  /**
   * Why uploads are refused (409 at once, before a job is queued), or empty when they are
   * accepted: the docs folder does not hold the documents the index was built from.
   */
  public Optional<String> writesDisabled() throws IOException {
    return corpus.writesDisabled();
  }

  /** Stops listening and waits for a running upload job; the engine stays open. */
  @Override
  public void close() {
    app.stop();
    jobs.close();
    heartbeats.shutdownNow();
  }

  private void routes() {
    app.before(ctx -> {
      ctx.attribute(STARTED, System.nanoTime());
      String id = UUID.randomUUID().toString();
      ctx.attribute(REQUEST_ID, id);
      ctx.header("X-Request-Id", id);
      JsonErrorHandler.SECURITY_HEADERS.forEach(ctx::header);
    });
    app.before("/v1/*", ctx -> {
      Identity id = auth.identify(ctx.header("Authorization"));
      ctx.attribute(IDENTITY, id);
      Principal who = id.principal();
      // before any body is read, so a slow body holds at most this many threads per principal
      if (!limits.enter(who.name())) {
        throw limits.tooManyRequests(ctx);
      }
      ctx.attribute(COUNTED, who.name());
    });
    app.after("/v1/*", ctx -> {
      String counted = ctx.attribute(COUNTED);
      if (counted != null) {
        ctx.attribute(COUNTED, null);
        limits.exit(counted);
      }
    });
    app.post("/v1/ask", this::ask);
    app.post("/v1/search", this::search);
    app.get("/v1/me", this::me);
    app.get("/v1/conversations", this::listConversations);
    app.get("/v1/conversations/{id}", this::getConversation);
    app.patch("/v1/conversations/{id}", this::renameConversation);
    app.delete("/v1/conversations/{id}", this::deleteConversation);
    app.post("/v1/feedback", this::postFeedback);
    app.get("/v1/feedback", this::listFeedback);
    app.get("/v1/documents", this::listDocuments);
    app.post("/v1/documents", this::upload);
    app.delete("/v1/documents/<source>", this::delete);
    app.get("/v1/jobs/{id}", this::job);
    app.get("/v1/sections/<chunkId>", this::section);
    app.get("/healthz", this::health);
    app.get("/metrics", ctx -> ctx.contentType(metrics.contentType()).result(metrics.scrape()));

    app.exception(ApiException.class, (e, ctx) -> {
      if (e.status() == 401) {
        ctx.header("WWW-Authenticate", "Bearer");
      }
      error(ctx, e);
    });
    app.exception(CorpusException.class, (e, ctx) -> error(ctx, map(e)));
    app.exception(InputTooLongException.class, (e, ctx) -> error(ctx, tooLong()));
    app.exception(HttpResponseException.class, (e, ctx) -> {
      String allow = e.getDetails().get("availableMethods");
      if (e.getStatus() == 405 && allow != null) {
        ctx.header("Allow", allow);
      }
      error(ctx, new ApiException(e.getStatus(), e.getStatus() == 413 ? "body" : null,
          e.getStatus() == 413 ? "request body too large"
              : e.getStatus() == 405 && allow != null ? "method not allowed; allowed: " + allow
              : plainStatus(e.getStatus())));
    });
    app.exception(Exception.class, (e, ctx) -> error(ctx, internal(ctx, e)));
  }

  /** The HTTP form of a corpus refusal. */
  static ApiException map(CorpusException e) {
    int status;
    if (e instanceof AccessDeniedException) {
      status = 403;
    } else if (e instanceof NotFoundException) {
      status = 404;
    } else if (e instanceof CorpusConflictException) {
      status = 409;
    } else if (e instanceof InvalidUploadException u) {
      status = switch (u.reason()) {
        case BAD_NAME -> 400;
        case UNSUPPORTED_TYPE -> 415;
        case UNREADABLE -> 422;
      };
    } else {
      status = 400;
    }
    return new ApiException(status, e.field(), e.getMessage());
  }

  private static ApiException tooLong() {
    return ApiException.badRequest("question", "the question is too long for the embedding "
        + "model; shorten it (at most " + MAX_QUESTION_CHARS + " characters are accepted)");
  }

  private static String plainStatus(int status) {
    return status == 404 ? "not found" : status == 405 ? "method not allowed" : "bad request";
  }

  /** Logs {@code e} under the request id and returns the generic 500 the client sees. */
  private static ApiException internal(Context ctx, Throwable e) {
    String id = ctx.attribute(REQUEST_ID);
    LOG.error("request {} {} {} failed", id, ctx.method(), LogSafe.of(ctx.path()),
        LogSafe.of(e));
    return new ApiException(500, null, "internal error; quote request id " + id);
  }

  private static void error(Context ctx, ApiException e) {
    ctx.status(e.status()).contentType("application/json")
        .result(e.toJson(ctx.attribute(REQUEST_ID)));
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
    for (String prefix : List.of("/v1/documents/", "/v1/conversations/", "/v1/jobs/",
        "/v1/sections/")) {
      if (path.startsWith(prefix)) {
        return prefix + "<id>";
      }
    }
    return "other";
  }

  /** The request body under the body deadline ({@link RequestLimits#body}). */
  private InputStream body(Context ctx) {
    Long started = ctx.attribute(STARTED);
    return limits.body(ctx, started == null ? System.nanoTime() : started);
  }

  private static Principal principal(Context ctx) {
    return identity(ctx).principal();
  }

  private static Identity identity(Context ctx) {
    return ctx.attribute(IDENTITY);
  }

  // ------------------------------------------------------------------ ask and search

  private void ask(Context ctx) throws IOException {
    Principal who = principal(ctx);
    ApiRequests.Ask req = requests.ask(body(ctx), ctx.contentLength());
    Query query = engine.query(req.question(), who, req.k());
    ConversationService answering = !req.agent() ? conversationService
        : agentConversations.orElseThrow(() -> ApiException.badRequest("agent",
            "agent mode needs an LLM endpoint, and none is configured on this server"));
    String conversationId = req.conversationId() == null
        ? conversations.start(who.name())
        : conversations.requireRoomForTurn(req.conversationId(), who.name(), "conversationId")
            .id();
    // fail with a status, not a broken stream, when the audit log cannot be written
    audit.requireWritable();
    String accept = ctx.header("Accept");
    boolean stream = accept != null && accept.contains("text/event-stream");
    boolean showScores = identity(ctx).writer();
    if (!stream) {
      Audited listener = new Audited(query, who, showScores, null);
      Answer a = answering.ask(conversationId, query, listener);
      finish(a, query, who, listener);
      ctx.contentType("application/json").result(JsonOutput.write(
          answerBody(query, a, conversationId, true, showScores)));
      return;
    }
    ctx.status(200);
    ctx.res().setContentType("text/event-stream;charset=utf-8");
    ctx.res().setHeader("Cache-Control", "no-cache");
    ctx.res().setHeader("X-Accel-Buffering", "no");
    SseEmitter sse = new SseEmitter(ctx.res().getOutputStream());
    Audited listener = new Audited(query, who, showScores, sse);
    Thread worker = Thread.currentThread();
    AtomicBoolean gone = new AtomicBoolean();
    ScheduledFuture<?> beat = heartbeats.scheduleWithFixedDelay(() -> {
      try {
        sse.heartbeat();
      } catch (SseEmitter.ClientGoneException e) {
        // interrupting the request thread makes the generator cancel the upstream LLM request
        if (gone.compareAndSet(false, true)) {
          worker.interrupt();
        }
        throw e;
      }
    }, HEARTBEAT_MILLIS, HEARTBEAT_MILLIS, TimeUnit.MILLISECONDS);
    try {
      Answer a = answering.ask(conversationId, query, listener);
      if (gone.get()) {
        throw new SseEmitter.ClientGoneException(new IOException("client gone"));
      }
      listener.ensureSources();
      finish(a, query, who, listener);
      ObjectNode fin = answerBody(query, a, conversationId, false, showScores);
      sse.send("final", JsonOutput.write(fin));
    } catch (SseEmitter.ClientGoneException e) {
      metrics.askCancelled();
      LOG.debug("ask stream of {} cancelled: the client went away", LogSafe.of(who.name()));
    } catch (RuntimeException e) {
      // The 200 header is gone: report the failure as a last event instead of a status.
      ApiException err = e instanceof InputTooLongException ? tooLong() : internal(ctx, e);
      try {
        sse.send("error", err.toJson(ctx.attribute(REQUEST_ID)));
      } catch (SseEmitter.ClientGoneException gone2) {
        metrics.askCancelled();
      }
    } finally {
      beat.cancel(false);
      Thread.interrupted();  // clear an interrupt that arrived after the answer
    }
  }

  /** The JSON answer plus conversation id and turn index; without sources for the SSE final. */
  private ObjectNode answerBody(Query query, Answer a, String conversationId,
      boolean withSources, boolean showScores) {
    ObjectNode body = JsonOutput.askNode(query, a);
    if (!withSources) {
      body.remove("sources");
    }
    ScoreVisibility.applyToReply(body, showScores);
    if (a.status() == org.openbook.answer.AnswerStatus.FAILED) {
      // the reason may name the LLM endpoint; it goes to the log, the client gets a generic one
      LOG.warn("answer failed for {}: {}", LogSafe.of(query.principal().name()),
          LogSafe.of(a.diagnostics().reason()));
      ((ObjectNode) body.get("diagnostics")).put("reason", "the answer could not be generated");
    }
    body.put("conversationId", conversationId);
    int turns = conversations.find(conversationId).map(c -> c.turns().size()).orElse(0);
    if (turns > 0) {
      body.put("turn", turns - 1);
    } else {
      body.putNull("turn");
    }
    return body;
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
  private final class Audited implements Answerer.Listener {
    private final Query query;
    private final Principal who;
    private final boolean showScores;
    private final SseEmitter sse;
    private final AtomicBoolean audited = new AtomicBoolean();
    private boolean sourcesSent;

    Audited(Query query, Principal who, boolean showScores, SseEmitter sse) {
      this.query = query;
      this.who = who;
      this.showScores = showScores;
      this.sse = sse;
    }

    @Override
    public void onSources(List<Source> sources) {
      audit.record("/v1/ask", who.name(), query.text(),
          sources.stream().map(Source::chunkId).toList());
      audited.set(true);
      if (sse != null) {
        sse.send("sources", JsonOutput.write(
            ScoreVisibility.apply(JsonOutput.sourcesNode(sources), showScores)));
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
    ApiRequests.Search req = requests.search(body(ctx), ctx.contentLength());
    Query query = engine.query(req.question(), who, req.k());
    long t0 = System.nanoTime();
    SearchResult r = retriever.retrieve(query);
    long millis = (System.nanoTime() - t0) / 1_000_000;
    audit.record("/v1/search", who.name(), query.text(),
        r.hits().stream().map(h -> h.chunk().id()).toList());
    ObjectNode body = JsonOutput.searchNode(query, r, millis);
    ScoreVisibility.applyToReply(body, identity(ctx).writer());
    ctx.contentType("application/json").result(JsonOutput.write(body));
  }

  // ------------------------------------------------------------------ me, conversations, feedback

  private void me(Context ctx) throws IOException {
    Principal who = principal(ctx);
    ObjectNode body = JSON.createObjectNode();
    body.put("principal", who.name());
    body.put("displayName", identity(ctx).displayName());
    ArrayNode depts = body.putArray("departments");
    who.departments().stream().sorted().forEach(depts::add);
    body.put("writer", identity(ctx).writer());
    // counts are per caller (the unauthenticated /healthz has none): what this principal reads
    Corpus.Counts readable = corpus.counts(who);
    body.put("documents", readable.documents());
    body.put("chunks", readable.chunks());
    var m = engine.store().manifest();
    body.putObject("index").put("model", m.embeddingModel()).put("dimension", m.dimension())
        .put("analyzer", m.analyzer()).put("generator", engine.generatorId());
    ctx.contentType("application/json").result(body.toString());
  }

  private void listConversations(Context ctx) {
    Principal who = principal(ctx);
    int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    int limit = intParam(ctx, "limit", DEFAULT_LIST_PAGE, 1, MAX_PAGE);
    List<ConversationLibrary.Stored> all = conversations.list(who.name());
    ObjectNode body = page(all.size(), offset, limit);
    ArrayNode arr = body.putArray("conversations");
    for (ConversationLibrary.Stored s : slice(all, offset, limit)) {
      arr.add(summary(s));
    }
    ctx.contentType("application/json").result(body.toString());
  }

  /** The paging fields of a list reply: {@code total} items, this page's offset and limit. */
  private static ObjectNode page(int total, int offset, int limit) {
    ObjectNode body = JSON.createObjectNode();
    body.put("total", total);
    body.put("offset", offset);
    body.put("limit", limit);
    return body;
  }

  /** Items {@code offset .. offset + limit - 1} of {@code all} (empty past the end). */
  private static <T> List<T> slice(List<T> all, int offset, int limit) {
    int from = Math.min(offset, all.size());
    return all.subList(from, (int) Math.min(all.size(), (long) from + limit));
  }

  private static ObjectNode summary(ConversationLibrary.Stored s) {
    ObjectNode n = JSON.createObjectNode();
    n.put("id", s.id());
    n.put("title", ConversationLibrary.titleOf(s));
    n.put("createdAt", s.createdAt());
    n.put("updatedAt", s.updatedAt());
    n.put("turns", s.turns().size());
    return n;
  }

  private void getConversation(Context ctx) throws IOException {
    Principal who = principal(ctx);
    ConversationLibrary.Stored s = conversations.require(ctx.pathParam("id"), who.name(), "id");
    ObjectNode body = summary(s);
    ArrayNode turns = body.putArray("turns");
    for (int i = 0; i < s.turns().size(); i++) {
      Turn t = turnAccess.visible(s.turns().get(i), who);
      ObjectNode n = turns.addObject();
      n.put("turn", i);
      n.put("question", t.question());
      n.put("answer", t.answer());
      n.put("status", t.status().name());
      n.put("withheld", t != s.turns().get(i));
      ArrayNode cited = n.putArray("citedChunkIds");
      ArrayNode sources = n.putArray("sources");
      int k = 1;
      for (String id : t.citedChunkIds()) {
        // the caller's departments may have shrunk since: show only what it may read now
        Optional<Chunk> c = engine.store().get(id);
        if (c.isPresent() && who.departments().contains(c.get().dept())) {
          cited.add(id);
          sources.add(JsonOutput.chunkSource(k++, c.get()));
        }
      }
    }
    ctx.contentType("application/json").result(JsonOutput.write(body));
  }

  private void renameConversation(Context ctx) {
    Principal who = principal(ctx);
    JsonNode body = requests.object(body(ctx), ctx.contentLength(), Set.of("title"));
    JsonNode title = body.get("title");
    if (title == null || !title.isTextual() || title.asText().isBlank()
        || title.asText().length() > ConversationLibrary.MAX_TITLE) {
      throw ApiException.badRequest("title", "'title' must be a string of 1-"
          + ConversationLibrary.MAX_TITLE + " characters");
    }
    ConversationLibrary.Stored s =
        conversations.rename(ctx.pathParam("id"), who.name(), title.asText().strip());
    ctx.contentType("application/json").result(summary(s).toString());
  }

  private void deleteConversation(Context ctx) {
    conversations.delete(ctx.pathParam("id"), principal(ctx).name());
    ctx.status(204);
  }

  private void postFeedback(Context ctx) throws IOException {
    Principal who = principal(ctx);
    JsonNode body = requests.object(body(ctx), ctx.contentLength(),
        Set.of("conversationId", "turn", "rating", "comment"));
    JsonNode cid = body.get("conversationId");
    if (cid == null || !cid.isTextual()) {
      throw ApiException.badRequest("conversationId", "'conversationId' must be a string");
    }
    ConversationLibrary.Stored s = conversations.require(cid.asText(), who.name(),
        "conversationId");
    JsonNode turnNode = body.get("turn");
    if (turnNode == null || !turnNode.canConvertToInt() || !turnNode.isIntegralNumber()) {
      throw ApiException.badRequest("turn", "'turn' must be an integer");
    }
    int turn = turnNode.intValue();
    if (turn < 0 || turn >= s.turns().size()) {
      throw new ApiException(404, "turn", "no turn " + turn + " in this conversation");
    }
    JsonNode rating = body.get("rating");
    if (rating == null || !rating.isTextual()
        || !Set.of("up", "down").contains(rating.asText())) {
      throw ApiException.badRequest("rating", "'rating' must be \"up\" or \"down\"");
    }
    JsonNode comment = body.get("comment");
    String text = comment == null || comment.isNull() ? "" : comment.asText();
    if (comment != null && !comment.isNull() && !comment.isTextual()
        || text.length() > FeedbackStore.MAX_COMMENT) {
      throw ApiException.badRequest("comment", "'comment' must be a string of at most "
          + FeedbackStore.MAX_COMMENT + " characters");
    }
    // what the caller may see of the turn now, not what it once saw
    Turn t = turnAccess.visible(s.turns().get(turn), who);
    List<FeedbackStore.Cited> cited = new ArrayList<>();
    for (String id : t.citedChunkIds()) {
      engine.store().get(id).ifPresent(c -> cited.add(new FeedbackStore.Cited(id, c.source(),
          snippet(c.raw()))));
    }
    String id = FeedbackStore.idOf(s.id(), turn);
    feedback.save(new FeedbackStore.Feedback(id, who.name(), s.id(), turn, rating.asText(),
        text, t.question(), t.answer(), t.citedChunkIds(), cited,
        conversations.now().toString()), maxFeedback);
    ctx.status(201).contentType("application/json")
        .result(JSON.createObjectNode().put("id", id).toString());
  }

  /** The opening of a passage (up to 40 code points, whole), verbatim for gold matching. */
  static String snippet(String raw) {
    String t = raw.strip();
    int n = t.codePointCount(0, t.length());
    return n <= 40 ? t : t.substring(0, t.offsetByCodePoints(0, 40));
  }

  private void listFeedback(Context ctx) throws IOException {
    int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    int limit = intParam(ctx, "limit", DEFAULT_LIST_PAGE, 1, MAX_PAGE);
    String conversation = ctx.queryParam("conversationId");
    List<FeedbackStore.Feedback> all = feedback.of(principal(ctx).name()).stream()
        .filter(f -> conversation == null || f.conversationId().equals(conversation)).toList();
    ObjectNode body = page(all.size(), offset, limit);
    ArrayNode arr = body.putArray("feedback");
    for (FeedbackStore.Feedback f : slice(all, offset, limit)) {
      ObjectNode n = arr.addObject();
      n.put("id", f.id());
      n.put("conversationId", f.conversationId());
      n.put("turn", f.turn());
      n.put("rating", f.rating());
      n.put("comment", f.comment());
      n.put("createdAt", f.createdAt());
    }
    ctx.contentType("application/json").result(body.toString());
  }

  // ------------------------------------------------------------------ documents and jobs

  private void listDocuments(Context ctx) throws IOException {
    int offset = intParam(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    int limit = intParam(ctx, "limit", 50, 1, MAX_PAGE);
    Corpus.Page<Corpus.DocumentInfo> page = corpus.list(principal(ctx), offset, limit);
    ObjectNode root = JSON.createObjectNode();
    root.put("total", page.total());
    root.put("offset", page.offset());
    root.put("limit", page.limit());
    ArrayNode arr = root.putArray("documents");
    for (Corpus.DocumentInfo d : page.items()) {
      ObjectNode n = arr.addObject();
      n.put("source", d.source());
      n.put("title", d.title());
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

  /** An optional boolean query parameter: absent = false; {@code true}/{@code false} only. */
  private static boolean boolParam(Context ctx, String name) {
    String v = ctx.queryParam(name);
    if (v == null || v.isBlank() || v.trim().equals("false")) {
      return false;
    }
    if (v.trim().equals("true")) {
      return true;
    }
    throw ApiException.badRequest(name, "'" + name + "' must be true or false");
  }

  private static int intParam(Context ctx, String name, int dflt, int min, int max) {
    String v = ctx.queryParam(name);
    if (v == null || v.isBlank()) {
      return dflt;
    }
    try {
      int i = Integer.parseInt(v.trim());
      if (i >= min && i <= max) {
        return i;
      }
    } catch (NumberFormatException e) {
      // fall through to the error
    }
    throw ApiException.badRequest(name, "'" + name + "' must be an integer in [" + min + ", "
        + max + "]");
  }

  private void upload(Context ctx) throws IOException {
    Principal who = principal(ctx);
    Authenticator.requireWriter(identity(ctx));
    jobs.requireRoom(who.name());
    if (ctx.contentLength() > maxUploadBytes) {
      throw new ApiException(413, "body", "upload of " + ctx.contentLength()
          + " bytes exceeds the limit of " + maxUploadBytes + " bytes (server.maxUploadBytes)");
    }
    if (!ctx.isMultipartFormData()) {
      throw new ApiException(415, "Content-Type",
          "expected multipart/form-data with one or more parts named 'files'");
    }
    List<UploadedFile> parts;
    Map<String, List<String>> form;
    try {
      parts = ctx.uploadedFiles("files");
      form = ctx.formParamMap();
    } catch (RuntimeException e) {
      limits.slowBody(ctx, e).ifPresent(slow -> {
        throw slow; // Jetty cut a body slower than its rate or idle timeout
      });
      // Jetty refuses a body over the size limit, or a malformed part (e.g. a NUL in a name)
      LOG.info("request {}: unreadable multipart body: {}", ctx.<String>attribute(REQUEST_ID),
          LogSafe.of(e.toString()));
      boolean tooLarge = String.valueOf(e.getMessage()).toLowerCase().contains("size")
          || e.getCause() instanceof IllegalStateException;
      throw tooLarge
          ? new ApiException(413, "body", "upload exceeds the limit of " + maxUploadBytes
              + " bytes (server.maxUploadBytes)")
          : ApiException.badRequest("files", "malformed multipart body or file name");
    }
    String folder = ApiRequests.uploadFolder(form);
    List<Corpus.Upload> files = new ArrayList<>();
    for (UploadedFile f : parts) {
      try (var in = f.content()) {
        files.add(new Corpus.Upload(f.filename(), in.readAllBytes()));
      }
    }
    Corpus.Staged staged = corpus.stage(folder, files);
    Map<String, String> depts;
    try {
      depts = corpus.check(who, staged);
    } catch (IOException | RuntimeException e) {
      corpus.discard(staged);
      throw e;
    } catch (OutOfMemoryError | StackOverflowError e) {
      // the check reads metadata only, but never leave a staged file or an HTML 500 behind
      corpus.discard(staged);
      throw internal(ctx, e);
    }
    // a folder without an access.folders rule gives no department: say so before it is public
    List<String> warnings = new ArrayList<>();
    if (folder != null && !folder.isBlank() && depts.entrySet().stream().anyMatch(
        d -> d.getValue().equals(Document.PUBLIC) && !corpus.folderRuleCovers(d.getKey()))) {
      String f = Corpus.folderOf(folder);
      warnings.add("folder '" + f + "' has no access.folders rule: its files without a dept of"
          + " their own are indexed as public (readable by everyone); add access.folders: {"
          + f + "/: [<department>]} to the configuration to restrict them");
    }
    UploadJobs.Job job;
    try {
      job = submit(who, staged, depts);
    } catch (RuntimeException e) {
      corpus.discard(staged); // over the job quota since the check above
      throw e;
    }
    ObjectNode reply = JSON.createObjectNode().put("jobId", job.id)
        .put("status", job.status.name());
    ArrayNode replyFiles = reply.putArray("files");
    depts.forEach((source, dept) -> replyFiles.addObject().put("source", source).put("dept", dept));
    ArrayNode replyWarnings = reply.putArray("warnings");
    warnings.forEach(replyWarnings::add);
    ctx.status(202).header("Location", "/v1/jobs/" + job.id).contentType("application/json")
        .result(reply.toString());
  }

  /** Queues the commit of {@code staged} as a job of {@code who}. */
  private UploadJobs.Job submit(Principal who, Corpus.Staged staged, Map<String, String> depts) {
    return jobs.submit(who.name(), staged.files().size(), j -> {
      try {
        IngestReport report = corpus.commit(who, staged, j);
        // the chunks this writer reads, not the index's total (another department's size)
        long total = corpus.counts(who).chunks();
        return new UploadResult(report, staged.sources(), total, depts);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }, (e, j) -> {
      if (e instanceof CorpusException ce) {
        return map(ce);
      }
      LOG.error("upload job {} of {} failed", j.id, LogSafe.of(who.name()), LogSafe.of(e));
      return new ApiException(500, null, "internal error; quote job id " + j.id);
    });
  }

  /** What a finished upload job keeps to answer {@code GET /v1/jobs/{id}}. */
  private record UploadResult(IngestReport report, List<String> sources, long totalChunks,
      Map<String, String> depts) {}

  private void job(Context ctx) {
    UploadJobs.Job j = jobs.require(ctx.pathParam("id"), principal(ctx).name());
    boolean listUnchanged = boolParam(ctx, "listUnchanged");
    ObjectNode n = JSON.createObjectNode();
    n.put("id", j.id);
    n.put("status", j.status.name());
    n.putObject("progress").put("done", j.done.get()).put("total", j.total);
    Object result = j.result;
    if (result instanceof UploadResult r) {
      n.set("result", JsonOutput.uploadResult(r.report(), r.sources(), r.totalChunks(), r.depts(),
          listUnchanged));
    } else {
      n.putNull("result");
    }
    ApiException err = j.error;
    if (err == null) {
      n.putNull("error");
    } else {
      ObjectNode e = n.putObject("error");
      e.put("status", err.status());
      if (err.field() == null) {
        e.putNull("field");
      } else {
        e.put("field", err.field());
      }
      e.put("message", err.getMessage());
    }
    n.put("createdAt", j.createdAt);
    if (j.finishedAt == null) {
      n.putNull("finishedAt");
    } else {
      n.put("finishedAt", j.finishedAt);
    }
    ctx.contentType("application/json").result(n.toString());
  }

  private void delete(Context ctx) throws IOException {
    Principal who = principal(ctx);
    Authenticator.requireWriter(identity(ctx));
    // the normal form: what was deleted, whatever spelling the request used
    String deleted = corpus.delete(who, ctx.pathParam("source"));
    ObjectNode body = JSON.createObjectNode();
    body.put("deleted", deleted);
    body.put("totalChunks", corpus.counts(who).chunks());
    ctx.contentType("application/json").result(body.toString());
  }

  private void section(Context ctx) throws IOException {
    Corpus.Section s = corpus.section(principal(ctx), ctx.pathParam("chunkId"));
    ObjectNode n = JSON.createObjectNode();
    n.put("chunkId", s.chunkId());
    n.put("source", s.source());
    n.put("title", s.title());
    n.put("dept", s.dept());
    n.put("headingPath", s.headingPath());
    if (s.page() > 0) {
      n.put("page", s.page());
    } else {
      n.putNull("page");
    }
    n.put("text", s.text());
    ArrayNode ids = n.putArray("chunkIds");
    s.chunkIds().forEach(ids::add);
    ctx.contentType("application/json").result(n.toString());
  }

  /**
   * Liveness without authentication: {@code status} (and 503 when a SolrCloud collection cannot
   * be reached), {@code indexOpened}; no counts, shards or model (those are per caller in
   * {@code /v1/me}), so an anonymous client learns nothing about the corpus's size.
   */
  private void health(Context ctx) throws IOException {
    ObjectNode body = JSON.createObjectNode();
    if (engine.store() instanceof SolrChunkStore solr) {
      // Serving on SolrCloud: the collection's state decides (503 when it cannot be reached).
      SolrCollectionStatus st = solr.status();
      body.put("status", st.health() == SolrCollectionStatus.Health.HEALTHY ? "ok"
          : st.health().name().toLowerCase(java.util.Locale.ROOT));
      if (st.health() == SolrCollectionStatus.Health.UNREACHABLE) {
        ctx.status(503).contentType("application/json").result(body.toString());
        return;
      }
    }
    if (!body.has("status")) {
      body.put("status", "ok");
    }
    body.put("indexOpened", true);
    ctx.contentType("application/json").result(body.toString());
  }
}
