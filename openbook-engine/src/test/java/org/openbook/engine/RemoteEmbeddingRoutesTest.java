package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.engine.ScriptedEmbeddingServer.Api;
import org.openbook.engine.ScriptedEmbeddingServer.Reply;
import org.openbook.engine.config.ConfigYaml;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.DocumentEntry;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;
import org.openbook.ingest.IngestListener;
import org.openbook.ingest.IngestReport;
import org.openbook.ingest.Indexer;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.SearchResult;

/**
 * Issue 22, done-when 3: ingest and search through scripted OpenAI-compatible, Ollama and TEI
 * servers on 127.0.0.1 configured in {@code embedding.routes}; retries, an endpoint going down
 * mid-ingest, the key kept out of every message, and the manifest check.
 */
class RemoteEmbeddingRoutesTest {

  private static final String KEY = "sk-test-Zq81-never-print-me";
  private static final String KEY_ENV = "TEST_EMBEDDING_KEY";
  private static final int DIM = 64;

  @TempDir Path dir;

  /** Five files of three paragraphs each: several chunks per file at maxChars 160. */
  private static final Map<String, List<String>> DOCS = Map.of(
      "vpn.md", List.of(
          "The VPN account is opened by the IT department after the manager approves the form.",
          "VPN clients must be updated every quarter; old clients are refused by the gateway.",
          "A lost VPN token is reported to the service desk, which blocks it the same day."),
      "leave.md", List.of(
          "Annual leave is requested three working days ahead through the staff portal.",
          "Unused annual leave carries over to the first quarter of the following year only.",
          "Sick leave longer than two days needs a note from a doctor, sent to human resources."),
      "expense.md", List.of(
          "Expense claims need the original invoice and are filed within thirty days of travel.",
          "Taxi fares are refunded only for trips after nine in the evening or to the airport.",
          "Meals with customers are refunded up to two hundred yuan per person and evening."),
      "badge.md", List.of(
          "A new office badge is printed at reception on the first morning of employment.",
          "Visitors wear a paper badge and are accompanied by their host at all times on site.",
          "A broken badge is swapped at reception; a lost one costs fifty yuan to replace."),
      "printer.md", List.of(
          "Printers on every floor print double-sided by default to save paper and toner.",
          "Colour printing needs a project code entered on the printer's touch panel first.",
          "Paper jams are cleared by opening the front door; never pull paper from the back."));

  private Path docs() throws Exception {
    Path docs = Files.createDirectories(dir.resolve("docs"));
    for (var e : DOCS.entrySet()) {
      String title = e.getKey().replace(".md", "");
      Files.writeString(docs.resolve(e.getKey()),
          "# " + title + "\n\n" + String.join("\n\n", e.getValue()) + "\n");
    }
    return docs;
  }

  private OpenBookConfig config(String provider, String url, String model, String extra)
      throws Exception {
    return ConfigYaml.read(dir, "chunking:\n  maxChars: 160\n  overlapChars: 0\n"
        + "embedding:\n  routes:\n    zh:\n      provider: " + provider + "\n      url: " + url
        + "\n      model: " + model + "\n      apiKeyEnv: " + KEY_ENV + "\n" + extra
        + "    en:\n      provider: none\n");
  }

  private OpenBook open(OpenBookConfig config, OpenBook.Mode mode) throws Exception {
    return OpenBook.builder().index(dir.resolve("index")).config(config)
        .environment(Map.of(KEY_ENV, KEY)).mode(mode).build();
  }

  private void ingestAndSearch(Api api, String provider) throws Exception {
    Path docs = docs();
    try (var server = ScriptedEmbeddingServer.start(api, DIM)) {
      OpenBookConfig config = config(provider, server.baseUrl(), "bge-m3",
          "      batchSize: 4\n      concurrency: 2\n");
      IngestReport report;
      try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
        report = engine.ingest(docs, IngestListener.NONE);
        assertThat(report.skipped()).isEmpty();
        assertThat(report.indexed()).hasSize(5);
        assertThat(report.chunks()).isGreaterThanOrEqualTo(10);
        IndexManifest m = engine.store().manifest();
        assertThat(m.embeddingProvider()).isEqualTo(provider);
        assertThat(m.embeddingModel()).isEqualTo("bge-m3");
        assertThat(m.dimension()).isEqualTo(DIM);
        assertThat(m.denseFields()).isEmpty();
      }
      // bounded concurrency: never more than 2 requests at the server at once
      assertThat(server.maxInFlight()).isBetween(1, 2);
      // batching: no request carried more than batchSize texts
      assertThat(server.inputs()).allSatisfy(in -> assertThat(in.size()).isBetween(1, 4));
      assertThat(server.authorizations()).allSatisfy(a -> assertThat(a).isEqualTo("Bearer " + KEY));
      // a fresh engine in read mode: the question goes to the server and finds its chunk first
      try (OpenBook engine = open(config, OpenBook.Mode.READ)) {
        for (var e : DOCS.entrySet()) {
          String question = e.getValue().get(1);
          int before = server.requests();
          SearchResult r = engine.search(question, Principal.ANONYMOUS, 3);
          assertThat(server.requests()).isGreaterThan(before);
          assertThat(server.inputs().get(server.inputs().size() - 1)).contains(question);
          assertThat(r.hits().get(0).chunk().source()).isEqualTo(e.getKey());
          assertThat(r.hits().get(0).denseRank()).isEqualTo(1);
        }
      }
    }
  }

  @Test
  void i22_3_should_ingest_and_search_through_an_openai_compatible_server() throws Exception {
    ingestAndSearch(Api.OPENAI, "openai");
  }

  @Test
  void i22_3_should_ingest_and_search_through_an_ollama_server() throws Exception {
    ingestAndSearch(Api.OLLAMA, "ollama");
  }

  @Test
  void i22_3_should_ingest_and_search_through_a_tei_server() throws Exception {
    ingestAndSearch(Api.TEI, "tei");
  }

  @Test
  void i22_3_should_record_the_english_route_provider_and_probe_the_dimension() throws Exception {
    Path docs = docs();
    try (var zh = ScriptedEmbeddingServer.start(Api.OPENAI, DIM);
        var en = ScriptedEmbeddingServer.start(Api.TEI, 32)) {
      OpenBookConfig config = ConfigYaml.read(dir, "embedding:\n  routes:\n    zh:\n"
          + "      provider: openai\n      url: " + zh.baseUrl() + "\n      model: qwen3-embedding\n"
          + "    en:\n      provider: tei\n      url: " + en.baseUrl() + "\n      model: bge-base-en\n");
      try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
        assertThat(engine.ingest(docs, IngestListener.NONE).skipped()).isEmpty();
        IndexManifest m = engine.store().manifest();
        assertThat(m.dimension()).isEqualTo(DIM); // probed: no dimension configured
        assertThat(m.denseField("en").orElseThrow().provider()).isEqualTo("tei");
        assertThat(m.denseField("en").orElseThrow().dimension()).isEqualTo(32);
        SearchResult r = engine.search(DOCS.get("badge.md").get(2), Principal.ANONYMOUS, 3);
        assertThat(r.hits().get(0).chunk().source()).isEqualTo("badge.md");
      }
    }
  }

  @Test
  void i22_3_should_retry_a_429_then_succeed() throws Exception {
    Path docs = docs();
    for (Api api : Api.values()) {
      try (var server = ScriptedEmbeddingServer.start(api, DIM)) {
        // the first request is refused with 429 and Retry-After: 0, the second with a bare 503
        server.script((n, texts) -> n == 1
            ? Reply.status(429, "{\"error\":\"slow down\"}", Map.of("Retry-After", "0"))
            : n == 2 ? Reply.status(503, null, Map.of()) : Reply.NORMAL);
        String provider = api.name().toLowerCase(java.util.Locale.ROOT);
        OpenBookConfig config = config(provider, server.baseUrl(), "bge-m3",
            "      dimension: " + DIM + "\n      batchSize: 64\n      concurrency: 1\n"
                + "      maxRetries: 3\n      backoffMs: 10\n");
        try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
          IngestReport report = engine.ingest(docs, IngestListener.NONE);
          assertThat(report.skipped()).as(api.name()).isEmpty();
          assertThat(report.indexed()).hasSize(5);
          long stored = engine.store().documents().stream().mapToInt(DocumentEntry::chunks).sum();
          assertThat(stored).isEqualTo(report.chunks());
          // every batch the pipeline sent succeeded once; the two refusals were sent again
          List<List<String>> in = server.inputs();
          assertThat(in.get(0)).isEqualTo(in.get(1)).isEqualTo(in.get(2));
          int texts = in.subList(2, in.size()).stream().mapToInt(List::size).sum();
          assertThat(texts).isEqualTo(report.chunks());
        }
      }
    }
  }

  /** What the script does once the endpoint is down. */
  private enum Outage { STATUS_503, CLOSED }

  @Test
  void i22_3_should_keep_the_index_consistent_when_the_endpoint_answers_503_mid_ingest()
      throws Exception {
    downMidIngest(Outage.STATUS_503);
  }

  @Test
  void i22_3_should_keep_the_index_consistent_when_the_endpoint_closes_mid_ingest()
      throws Exception {
    downMidIngest(Outage.CLOSED);
  }

  private void downMidIngest(Outage outage) throws Exception {
    Path docs = docs();
    PrintStream err = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (var server = ScriptedEmbeddingServer.start(Api.OLLAMA, DIM)) {
      // up for 3 requests of 2 texts, then down for good
      var down = new java.util.concurrent.atomic.AtomicBoolean(true);
      server.script((n, texts) -> n <= 3 || !down.get() ? Reply.NORMAL
          : outage == Outage.CLOSED ? Reply.closeConnection()
          : Reply.status(503, "{\"error\":\"model unloaded\"}", Map.of()));
      OpenBookConfig config = config("ollama", server.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n      batchSize: 2\n      concurrency: 1\n"
              + "      maxRetries: 2\n      backoffMs: 5\n");
      IngestReport first;
      System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
      try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
        first = engine.ingest(docs, IngestListener.NONE);
        assertConsistent(engine, first);
      } finally {
        System.setErr(err);
      }
      // batches of 2 texts in file order: the files embedded before the outage are whole
      assertThat(first.indexed()).isNotEmpty();
      assertThat(first.skipped()).isNotEmpty();
      assertThat(first.skipped()).allSatisfy(s -> {
        assertThat(s.reason()).isEqualTo(Indexer.EMBEDDING_FAILED);
        assertThat(s.detail()).contains(server.baseUrl() + "/api/embed");
      });
      assertThat(first.indexed().size() + first.skipped().size()).isEqualTo(5);
      assertThat(first.failed()).as("sets the CLI's exit code 3").isEqualTo(first.skipped());
      String logged = log.toString(StandardCharsets.UTF_8);
      assertThat(logged).contains("/api/embed").doesNotContain(KEY);
      assertThat(first.skipped().stream().map(s -> s.detail() + s.reason()))
          .allSatisfy(d -> assertThat(d).doesNotContain(KEY));

      // the endpoint is back: a re-run embeds exactly the files that were missing
      down.set(false);
      Map<String, Integer> before;
      try (OpenBook engine = open(config, OpenBook.Mode.WRITE)) {
        before = chunksBySource(engine);
        IngestReport second = engine.ingest(docs, IngestListener.NONE);
        assertThat(second.skipped()).isEmpty();
        assertThat(second.indexed().stream().map(IngestReport.IndexedFile::source))
            .containsExactlyInAnyOrderElementsOf(
                first.skipped().stream().map(IngestReport.SkippedFile::source).toList());
        assertThat(second.unchanged()).containsExactlyInAnyOrderElementsOf(
            first.indexed().stream().map(IngestReport.IndexedFile::source).toList());
        assertConsistent(engine, second);
        assertThat(chunksBySource(engine)).hasSize(5).containsAllEntriesOf(before);
        SearchResult r = engine.search(DOCS.get("printer.md").get(0), Principal.ANONYMOUS, 3);
        assertThat(r.hits().get(0).chunk().source()).isEqualTo("printer.md");
      }
    }
  }

  @Test
  void i22_3_should_keep_the_previous_version_of_a_changed_file_the_endpoint_failed_on()
      throws Exception {
    Path docs = docs();
    try (var server = ScriptedEmbeddingServer.start(Api.TEI, DIM)) {
      OpenBookConfig config = config("tei", server.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n      maxRetries: 1\n      backoffMs: 1\n");
      try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
        assertThat(engine.ingest(docs, IngestListener.NONE).skipped()).isEmpty();
      }
      Map<String, Integer> before;
      String changed = "A new printer queue opens on the fourth floor for large-format posters.";
      Files.writeString(docs.resolve("printer.md"), "# printer\n\n" + changed + "\n");
      server.script((n, texts) -> Reply.status(503, null, Map.of()));
      try (OpenBook engine = open(config, OpenBook.Mode.WRITE)) {
        before = chunksBySource(engine);
        IngestReport down = engine.ingest(docs, IngestListener.NONE);
        assertThat(down.skipped()).singleElement().satisfies(s -> {
          assertThat(s.source()).isEqualTo("printer.md");
          assertThat(s.reason()).isEqualTo(Indexer.EMBEDDING_FAILED);
        });
        assertThat(down.removed()).isEmpty();
        // the old version is still whole
        assertThat(chunksBySource(engine)).isEqualTo(before);
      }
      server.script((n, texts) -> Reply.NORMAL);
      try (OpenBook engine = open(config, OpenBook.Mode.WRITE)) {
        IngestReport back = engine.ingest(docs, IngestListener.NONE);
        assertThat(back.indexed()).singleElement().satisfies(f -> {
          assertThat(f.source()).isEqualTo("printer.md");
          assertThat(f.updated()).isTrue();
        });
        assertThat(chunksBySource(engine).get("printer.md")).isEqualTo(1);
        SearchResult r = engine.search(changed, Principal.ANONYMOUS, 1);
        assertThat(r.hits().get(0).chunk().raw()).contains("large-format");
      }
    }
  }

  private static Map<String, Integer> chunksBySource(OpenBook engine) throws Exception {
    return engine.store().documents().stream()
        .collect(Collectors.toMap(DocumentEntry::source, DocumentEntry::chunks));
  }

  /** Every indexed file has all its chunks in the store; no skipped file has any. */
  private static void assertConsistent(OpenBook engine, IngestReport report) throws Exception {
    Map<String, Integer> stored = new HashMap<>(chunksBySource(engine));
    for (IngestReport.IndexedFile f : report.indexed()) {
      assertThat(stored.get(f.source())).as(f.source()).isEqualTo(f.chunks());
    }
    for (IngestReport.SkippedFile s : report.skipped()) {
      assertThat(stored).as(s.source()).doesNotContainKey(s.source());
    }
  }

  @Test
  void i22_3_should_never_put_the_key_in_a_message_or_log_line() throws Exception {
    Path docs = docs();
    PrintStream err = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    for (Api api : Api.values()) {
      try (var server = ScriptedEmbeddingServer.start(api, DIM)) {
        // a server that echoes the key it was sent, as some proxies do in their 401 page
        server.script((n, texts) -> n % 2 == 1
            ? Reply.status(500, "{\"error\":\"upstream rejected Bearer " + KEY + "\"}", Map.of())
            : Reply.status(401, "{\"error\":\"invalid api key " + KEY + "\"}", Map.of()));
        String provider = api.name().toLowerCase(java.util.Locale.ROOT);
        OpenBookConfig config = config(provider, server.baseUrl(), "bge-m3",
            "      dimension: " + DIM + "\n      maxRetries: 2\n      backoffMs: 1\n");
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
          IngestReport report = engine.ingest(docs, IngestListener.NONE);
          assertThat(report.skipped()).hasSize(5);
          for (IngestReport.SkippedFile s : report.skipped()) {
            assertThat(s.detail()).as(api.name()).doesNotContain(KEY).contains("HTTP 401")
                .contains(server.baseUrl());
          }
          // a failed question names the endpoint, not the key
          assertThatThrownBy(() -> engine.search("vpn", Principal.ANONYMOUS, 3))
              .satisfies(e -> {
                for (Throwable t = e; t != null; t = t.getCause()) {
                  assertThat(String.valueOf(t.getMessage())).doesNotContain(KEY);
                  assertThat(t.toString()).doesNotContain(KEY);
                }
              })
              .hasMessageContaining(server.baseUrl());
          assertThat(engine.settings().embedding().zh().toString()).doesNotContain(KEY);
        } finally {
          System.setErr(err);
        }
        assertThat(server.authorizations()).contains("Bearer " + KEY); // the key was sent
      }
    }
    assertThat(log.toString(StandardCharsets.UTF_8)).contains("HTTP 500")
        .doesNotContain(KEY);
  }

  @Test
  void i22_3_should_refuse_an_index_built_with_another_model_or_provider() throws Exception {
    Path docs = docs();
    try (var ollama = ScriptedEmbeddingServer.start(Api.OLLAMA, DIM);
        var tei = ScriptedEmbeddingServer.start(Api.TEI, DIM)) {
      try (OpenBook engine = open(config("ollama", ollama.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n"), OpenBook.Mode.RESET)) {
        engine.ingest(docs, IngestListener.NONE);
      }
      // another model behind the same provider
      assertThatThrownBy(() -> open(config("ollama", ollama.baseUrl(), "qwen3-embedding",
          "      dimension: " + DIM + "\n"), OpenBook.Mode.WRITE))
          .isInstanceOf(IndexMismatchException.class)
          .hasMessageContaining("bge-m3").hasMessageContaining("qwen3-embedding")
          .hasMessageContaining("--reset");
      // the same model name behind another provider
      assertThatThrownBy(() -> open(config("tei", tei.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n"), OpenBook.Mode.READ))
          .isInstanceOf(IndexMismatchException.class)
          .hasMessageContaining("embedding provider").hasMessageContaining("ollama")
          .hasMessageContaining("tei").hasMessageContaining("--reset");
      // back to the in-process default model: refused too
      assertThatThrownBy(() -> OpenBook.builder().index(dir.resolve("index"))
          .config(ConfigYaml.read(dir, "chunking:\n  maxChars: 160\n  overlapChars: 0\n"))
          .mode(OpenBook.Mode.READ).build())
          .isInstanceOf(IndexMismatchException.class).hasMessageContaining("--reset");
      // --reset rebuilds with the new model
      try (OpenBook engine = open(config("tei", tei.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n"), OpenBook.Mode.RESET)) {
        engine.ingest(docs, IngestListener.NONE);
        assertThat(engine.store().manifest().embeddingProvider()).isEqualTo("tei");
      }
    }
  }

  @Test
  void i22_3_should_skip_files_when_the_endpoint_returns_vectors_of_another_length()
      throws Exception {
    Path docs = docs();
    try (var server = ScriptedEmbeddingServer.start(Api.TEI, DIM)) {
      server.vectorLength(DIM + 1);
      OpenBookConfig config = config("tei", server.baseUrl(), "bge-m3",
          "      dimension: " + DIM + "\n      maxRetries: 0\n");
      try (OpenBook engine = open(config, OpenBook.Mode.RESET)) {
        IngestReport report = engine.ingest(docs, IngestListener.NONE);
        assertThat(report.indexed()).isEmpty();
        assertThat(report.skipped()).hasSize(5).allSatisfy(s -> assertThat(s.detail())
            .contains(server.baseUrl() + "/embed").contains("length " + (DIM + 1))
            .contains("expected " + DIM));
        assertThat(engine.store().count()).isZero();
      }
    }
  }
}
