package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.eval.EvalCase;
import org.openbook.eval.EvalCases;
import org.openbook.testing.SharedData;
import picocli.CommandLine;

/**
 * issue 22, done-when 5: the documented SolrCloud path as a user types it, through the CLI
 * ({@link OpenBookCommand}, in process): {@code openbook solr local} (a separate JVM, one
 * cluster of 2 nodes for the class) → {@code solr init} (2 shards) → {@code ingest} kb-demo →
 * {@code search}, with the product's models (bge-small-zh plus the English route into {@code
 * vector_en}). Before the fix every file of the ingest failed with {@code unknown field
 * 'vector_en'}: the collection {@code solr init} created lacked the English vector field.
 *
 * <p>Every kb-demo question, as its case's principal, gets the same top-5 from the collection as
 * from the embedded Lucene index ingested by the same CLI: chunk ids per rank, except that hits
 * whose fused scores tie within {@value #SCORE_TOLERANCE} may swap (the tolerance of {@code
 * KbDemoBackendEqualityTest}: Solr returns the dense score as {@code (1 + cos) / 2} in float).
 */
@org.junit.jupiter.api.Tag("solr-cluster")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SolrCliPathTest {

  static final double SCORE_TOLERANCE = 5e-4;
  private static final Pattern SOLR_NODES = Pattern.compile("Solr nodes: (\\S+)\\n");

  @TempDir static Path tmp;
  private static Thread local;
  private static ProcessHandle solr;
  private static final StringWriter LOCAL_OUT = new StringWriter();
  private static final StringWriter LOCAL_ERR = new StringWriter();
  private static List<EvalCase> cases;
  private static Path luceneConfig;
  private static Path solrConfig;
  private static Run init;
  private static JsonNode solrIngest;
  private static JsonNode luceneIngest;
  private static final ObjectMapper JSON = new ObjectMapper();

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return new Run(cl.execute(args), out.toString(), err.toString());
  }

  @BeforeAll
  static void startInitAndIngest() throws Exception {
    Path kb = SharedData.require("fixtures/kb-demo");
    cases = EvalCases.read(kb.resolve("cases.jsonl"));
    Path docs = kb.resolve("docs");
    Path solrDir = tmp.resolve("solr-local");

    // 1. openbook solr local: runs in the foreground until its JVM ends, so on a thread.
    Set<Long> before = childPids();
    local = new Thread(() -> {
      CommandLine cl = OpenBookCommand.commandLine();
      cl.setOut(new PrintWriter(LOCAL_OUT, true));
      cl.setErr(new PrintWriter(LOCAL_ERR, true));
      cl.execute("solr", "local", "--nodes", "2", "--port", "0", "--dir", solrDir.toString());
    }, "openbook-solr-local");
    local.setDaemon(true);
    local.start();
    String urls = awaitNodes(Path.of(solrDir.toString(), "console.log"));
    // the JVM solr local started: this JVM's one new child
    List<ProcessHandle> started = ProcessHandle.current().children()
        .filter(p -> !before.contains(p.pid())).toList();
    solr = started.size() == 1 ? started.get(0) : null;

    // Configuration alone switches the backend: the shipped principals plus a store section.
    String principals = Files.readString(Path.of("../examples/openbook.yaml"),
        StandardCharsets.UTF_8);
    luceneConfig = Files.writeString(tmp.resolve("lucene.yaml"), principals);
    solrConfig = Files.writeString(tmp.resolve("solr.yaml"), principals + "\nstore:\n"
        + "  type: solr\n  solrUrls: [" + urls + "]\n  collection: kbdemo\n");

    // 2. openbook solr init, as the README says (its shards and replicas on the command line).
    init = run("solr", "init", "--config", solrConfig.toString(), "--collection", "kbdemo",
        "--shards", "2", "--replicas", "1");
    // 3. openbook ingest into the collection init made, and into an embedded index.
    solrIngest = ingest(docs, "solr-state", solrConfig);
    luceneIngest = ingest(docs, "lucene", luceneConfig);
  }

  private static Set<Long> childPids() {
    Set<Long> pids = new java.util.HashSet<>();
    ProcessHandle.current().children().forEach(p -> pids.add(p.pid()));
    return pids;
  }

  /** The node URLs {@code solr local} prints, within 5 minutes (Solr starts slowly on 2 cores). */
  private static String awaitNodes(Path console) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline) {
      Matcher m = SOLR_NODES.matcher(LOCAL_OUT.toString());
      if (m.find()) {
        return String.join(", ", m.group(1).split(","));
      }
      if (!local.isAlive()) {
        break;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("openbook solr local printed no node URLs; out:\n" + LOCAL_OUT
        + "\nerr:\n" + LOCAL_ERR + "\nconsole.log:\n"
        + (Files.exists(console) ? Files.readString(console) : "(none)"));
  }

  private static JsonNode ingest(Path docs, String index, Path config, String... more)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("ingest", docs.toString(), "--index",
        tmp.resolve(index).toString(), "--config", config.toString(), "--json", "--no-progress"));
    args.addAll(List.of(more));
    Run r = run(args.toArray(String[]::new));
    assertThat(r.exit()).as("ingest into %s: %s%s", index, r.out(), r.err()).isZero();
    return JSON.readTree(r.out());
  }

  @AfterAll
  static void stop() throws Exception {
    // Only the JVM this test started: SIGTERM runs its shutdown hook (cluster.shutdown).
    if (solr != null) {
      solr.destroy();
      try {
        solr.onExit().get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        solr.destroyForcibly();
      }
    }
    if (local != null) {
      local.join(TimeUnit.SECONDS.toMillis(30));
    }
  }

  @Test
  @Order(1)
  void i22_5_should_create_the_collection_with_every_dense_route_of_this_build() {
    assertThat(solr).as("the Solr JVM of solr local").isNotNull();
    assertThat(init.exit()).as(init.err()).isZero();
    assertThat(init.out()).startsWith("CREATED kbdemo (2 shards x 1 replicas, dimension 512,"
        + " vector_en 384)");
  }

  @Test
  @Order(2)
  void i22_5_should_ingest_every_file_into_the_collection_solr_init_made() {
    // before the fix the first write failed: unknown field 'vector_en' (the schema lacked it)
    assertThat(solrIngest.toString()).doesNotContain("vector_en");
    assertThat(solrIngest.get("errors")).as(solrIngest.toString()).isEmpty();
    assertThat(solrIngest.get("skipped")).isEqualTo(luceneIngest.get("skipped"));
    assertThat(solrIngest.get("indexed").size()).isPositive()
        .isEqualTo(luceneIngest.get("indexed").size());
    assertThat(solrIngest.get("totalChunks").asLong()).isPositive()
        .isEqualTo(luceneIngest.get("totalChunks").asLong());
  }

  @Test
  @Order(3)
  void i22_5_should_report_the_collection_healthy_and_matching_this_build() throws Exception {
    // solr status compared with a manifest without the English field: "does NOT match"
    Run r = run("solr", "status", "--config", solrConfig.toString(), "--json");
    JsonNode status = JSON.readTree(r.out());
    assertThat(status.get("problems")).as(r.out()).isEmpty();
    assertThat(status.get("manifestMatches").asBoolean()).isTrue();
    assertThat(r.exit()).isZero();
  }

  @Test
  @Order(4)
  void i22_5_should_search_the_same_top_5_as_the_embedded_store_for_every_kb_demo_question()
      throws Exception {
    int compared = 0;
    for (EvalCase c : cases) {
      compared += assertSameTop5(c) ? 1 : 0;
    }
    System.out.printf("SolrCliPathTest: %d kb-demo questions, %d with hits, same top-5%n",
        cases.size(), compared);
    assertThat(compared).as("questions with hits").isGreaterThan(cases.size() / 2);
  }

  @Test
  @Order(5)
  void i22_5_should_rebuild_the_collection_with_reset_keeping_the_english_field()
      throws Exception {
    // ingest --reset clears the collection and re-uploads its configset: from the same manifest,
    // so vector_en stays (it re-uploaded a schema with the primary vector only).
    JsonNode again = ingest(SharedData.require("fixtures/kb-demo").resolve("docs"),
        "solr-state", solrConfig, "--reset");
    assertThat(again.get("errors")).as(again.toString()).isEmpty();
    assertThat(again.get("totalChunks").asLong())
        .isEqualTo(luceneIngest.get("totalChunks").asLong());
    for (EvalCase c : cases.subList(0, 5)) {
      assertSameTop5(c);
    }
  }

  /** Asserts the two stores' top-5 for {@code c} agree; whether there were hits. */
  private static boolean assertSameTop5(EvalCase c) throws Exception {
    List<Hit> s = search(c, solrConfig, "solr-state");
    List<Hit> l = search(c, luceneConfig, "lucene");
    assertThat(s).as(c.id()).hasSameSizeAs(l);
    for (int i = 0; i < l.size(); i++) {
      assertThat(s.get(i).fused()).as(c.id() + " rank " + (i + 1))
          .isCloseTo(l.get(i).fused(), within(SCORE_TOLERANCE));
    }
    assertThat(tieGroups(s)).as(c.id()).isEqualTo(tieGroups(l));
    return !l.isEmpty();
  }

  private record Hit(String chunkId, double fused) {}

  private static List<Hit> search(EvalCase c, Path config, String index) throws Exception {
    List<String> args = new ArrayList<>(List.of("search", c.question(), "--index",
        tmp.resolve(index).toString(), "--config", config.toString(), "-k", "5", "--json"));
    Optional.ofNullable(c.principal()).ifPresent(p -> args.addAll(List.of("--principal", p)));
    Run r = run(args.toArray(String[]::new));
    assertThat(r.exit()).as("search %s in %s: %s", c.id(), index, r.err()).isZero();
    List<Hit> hits = new ArrayList<>();
    for (JsonNode h : JSON.readTree(r.out()).get("hits")) {
      hits.add(new Hit(h.get("chunkId").asText(), h.get("fusedScore").asDouble()));
    }
    return hits;
  }

  /**
   * The hit ids split into groups of tied fused scores (as {@code KbDemoBackendEqualityTest}):
   * equal groups mean equal rankings up to the order of tied hits; of the last group, cut by
   * top-k, only its size counts.
   */
  private static List<Object> tieGroups(List<Hit> hits) {
    List<Set<String>> groups = new ArrayList<>();
    double previous = Double.NaN;
    for (Hit h : hits) {
      if (groups.isEmpty() || Math.abs(previous - h.fused()) > SCORE_TOLERANCE) {
        groups.add(new TreeSet<>());
      }
      groups.get(groups.size() - 1).add(h.chunkId());
      previous = h.fused();
    }
    List<Object> out = new ArrayList<>(groups);
    if (!out.isEmpty()) {
      out.set(out.size() - 1, groups.get(groups.size() - 1).size());
    }
    return out;
  }
}
