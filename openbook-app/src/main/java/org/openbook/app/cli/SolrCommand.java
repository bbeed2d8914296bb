package org.openbook.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.engine.ExpectedManifest;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
import org.openbook.index.IndexManifest;
import org.openbook.solr.SolrAdmin;
import org.openbook.solr.SolrChunkStore;
import org.openbook.solr.SolrCollectionStatus;
import org.openbook.solr.SolrStoreConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code openbook solr init|status|local}: set up a SolrCloud collection, check its health, or
 * start a local trial cluster.
 */
@Command(name = "solr", mixinStandardHelpOptions = true,
    description = "SolrCloud backend: create/update the collection (init), check its health"
        + " (status), or start a local trial cluster (local, NOT for production).",
    subcommands = {SolrCommand.Init.class, SolrCommand.Status.class, SolrCommand.Local.class})
public final class SolrCommand implements Runnable {

  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /**
   * What an ingest of {@code settings} into the collection of {@code solr} writes and checks the
   * collection's manifest against ({@link ExpectedManifest}): the analyzer is the one the
   * collection records unless the configuration names one, as the engine chooses it.
   */
  static IndexManifest expectedManifest(Settings settings, SolrStoreConfig solr) {
    Optional<String> recorded = Optional.empty();
    if (!settings.analyzerNamed()) {
      try {
        recorded = SolrChunkStore.readManifest(solr).map(IndexManifest::analyzer);
      } catch (IOException e) {
        // unreachable: status says so, init fails on its own request
      }
    }
    return ExpectedManifest.of(ExpectedManifest.routes(settings),
        OpenBookAnalysis.of(settings.analyzerFor(recorded)), settings);
  }

  /** {@code dimension 512, vector_en 384}: the vector fields of {@code m}. */
  static String vectors(IndexManifest m) {
    StringBuilder b = new StringBuilder("dimension " + m.dimension());
    m.denseFields().forEach(f -> b.append(", vector_").append(f.name()).append(' ')
        .append(f.dimension()));
    return b.toString();
  }

  /**
   * {@code openbook solr init --url URL[,URL] | --zk HOST:PORT[,…] --collection NAME --shards N
   * --replicas R}: uploads OpenBook's configset and creates the collection (CREATED), or replaces
   * the configset and reloads an existing one (UPDATED). Options left out come from the {@code
   * store} section of the configuration.
   */
  @Command(name = "init", mixinStandardHelpOptions = true,
      description = "Upload OpenBook's configset and create the collection, or update it if it"
          + " exists. Prints CREATED or UPDATED.")
  public static final class Init implements Callable<Integer> {

    @Option(names = "--url", split = ",", paramLabel = "URL",
        description = "Solr base URL(s) of live nodes, e.g. http://localhost:8983/solr.")
    List<String> urls;

    @Option(names = "--zk", split = ",", paramLabel = "HOST:PORT",
        description = "ZooKeeper hosts (instead of --url).")
    List<String> zkHosts;

    @Option(names = "--zk-chroot", paramLabel = "PATH", description = "ZooKeeper chroot, e.g. /solr.")
    String zkChroot;

    @Option(names = "--collection", paramLabel = "NAME",
        description = "Collection name (default: store.collection, else openbook).")
    String collection;

    @Option(names = "--shards", paramLabel = "N",
        description = "Shards when created (default: store.shards, else 2).")
    Integer shards;

    @Option(names = "--replicas", paramLabel = "R",
        description = "Replicas per shard when created (default: store.replicas, else 1).")
    Integer replicas;

    @Option(names = "--dimension", paramLabel = "D",
        description = "Check that the primary embedding dimension is D (it is taken from the"
            + " models this build embeds with: 512, bge-small-zh-v1.5).")
    Integer dimension;

    @Option(names = "--user", paramLabel = "USER",
        description = "Basic-auth user (password from $" + OpenBookConfig.Store.PASSWORD_ENV + ").")
    String user;

    @Option(names = "--config", paramLabel = "FILE",
        description = "Configuration file (default: $OPENBOOK_CONFIG, else ./openbook.yaml).")
    Path config;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      OpenBookConfig c = ConfigLoader.load(config, System.getenv());
      OpenBookConfig.Store s = c.store();
      boolean fromCli = urls != null || zkHosts != null;
      if (!fromCli && s.solrUrls().isEmpty() && s.zkHosts().isEmpty()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "give --url or --zk (or store.solrUrls / store.zkHosts in the configuration)");
      }
      OpenBookConfig.Store merged = new OpenBookConfig.Store("solr",
          fromCli ? urls : s.solrUrls(), fromCli ? zkHosts : s.zkHosts(),
          zkChroot != null ? zkChroot : s.zkChroot(),
          collection != null ? collection : s.collection(),
          shards != null ? shards : s.shards(), replicas != null ? replicas : s.replicas(),
          user != null ? user : s.user(), s.password(), s.partialResults(), s.retries(),
          s.retryBackoffMillis(), s.tls());
      SolrStoreConfig solr = merged.resolve(System.getenv()).solr().orElseThrow();
      // The schema holds every field an ingest of this configuration writes: the primary vector
      // and one per further dense route (vector_en), with the models' dimensions.
      IndexManifest expected = expectedManifest(c.resolve(System.getenv()), solr);
      if (dimension != null && dimension != expected.dimension()) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--dimension " + dimension
            + " differs from the dimension of " + expected.embeddingModel() + ", "
            + expected.dimension() + ", which this build embeds with; leave --dimension out");
      }
      try (var client = solr.newClient()) {
        SolrAdmin.InitOutcome outcome = new SolrAdmin(client).init(
            solr.collection(), solr.shards(), solr.replicas(), expected);
        spec.commandLine().getOut().println(outcome + " " + solr.collection()
            + (outcome == SolrAdmin.InitOutcome.CREATED
                ? " (" + solr.shards() + " shards x " + solr.replicas() + " replicas, "
                    + vectors(expected) + ")" : " (configset replaced, collection reloaded)"));
      }
      return 0;
    }
  }

  /**
   * {@code openbook solr status [--config FILE] [--json]}: the collection of the configuration's
   * {@code store} section as an operator needs it: shards and replicas with their states, chunk
   * and document counts per shard, the stored manifest and whether it matches this build. Exit
   * code 0 healthy, 1 degraded, 2 unreachable (see {@link SolrCollectionStatus.Health}).
   */
  @Command(name = "status", mixinStandardHelpOptions = true,
      description = "Show the Solr collection's shards, replicas, counts and manifest. Exit code"
          + " 0 healthy, 1 degraded (a replica down, a shard without live replica, manifest"
          + " missing or not matching this build), 2 unreachable (cluster or collection).")
  public static final class Status implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE",
        description = "Configuration file (default: $OPENBOOK_CONFIG, else ./openbook.yaml).")
    Path config;

    @Option(names = "--json", description = "Print the status as one JSON object.")
    boolean json;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
      OpenBookConfig c = ConfigLoader.load(config, System.getenv());
      OpenBookConfig.Store s = c.store();
      if (!s.isSolr()) {
        throw new CommandLine.ParameterException(spec.commandLine(),
            "the configuration has no Solr store (store.type: solr with store.solrUrls or"
                + " store.zkHosts)");
      }
      SolrStoreConfig solr = s.resolve(System.getenv()).solr().orElseThrow();
      IndexManifest expected = expectedManifest(c.resolve(System.getenv()), solr);
      SolrCollectionStatus status = SolrAdmin.status(solr, expected);
      PrintWriter out = spec.commandLine().getOut();
      if (json) {
        out.println(toJson(status));
      } else {
        printText(out, status);
      }
      out.flush();
      return status.health().exitCode();
    }

    /** The JSON form of {@code st}: its record components and {@code exitCode}. */
    static String toJson(SolrCollectionStatus st) throws IOException {
      ObjectMapper mapper = new ObjectMapper();
      ObjectNode root = mapper.valueToTree(st);
      root.put("exitCode", st.health().exitCode());
      return mapper.writeValueAsString(root);
    }

    /** The text form of {@code st}: verdict, shards with counts, replicas, manifest, problems. */
    static void printText(PrintWriter out, SolrCollectionStatus st) {
      out.println("collection " + st.collection() + ": " + st.health());
      for (SolrCollectionStatus.Shard sh : st.shards()) {
        out.println("  " + sh.name() + " (" + sh.state() + "): "
            + (sh.chunks() < 0 ? "counts unknown" : sh.chunks() + " chunks, " + sh.documents()
                + " documents"));
        for (SolrCollectionStatus.Replica r : sh.replicas()) {
          out.println("    " + r.name() + " on " + r.node() + ": " + r.state()
              + (r.leader() ? " (leader)" : ""));
        }
      }
      var m = st.manifest();
      if (m != null) {
        out.println("manifest: model " + m.embeddingModel() + ", dimension " + m.dimension()
            + ", analyzer " + m.analyzer() + ", chunker " + m.chunker() + " — "
            + (st.manifestMatches() ? "matches this build" : "does NOT match this build"));
      }
      for (String p : st.problems()) {
        out.println("problem: " + p);
      }
    }
  }

  /**
   * {@code openbook solr local --nodes 2 [--port 8983] [--dir DIR]}: starts a throw-away SolrCloud
   * (embedded ZooKeeper, Solr's test harness) in a separate JVM whose class path is the one the
   * build wrote to {@code openbook-solr-local/target/solr-local.classpath} (with the module's jar
   * beside it, or its {@code classes} folder before packaging), so Solr's Jetty 10
   * and Log4j never meet the app's. Runs in the foreground until Ctrl-C.
   */
  @Command(name = "local", mixinStandardHelpOptions = true,
      description = "Start a local SolrCloud for trying the Solr store on one machine."
          + " NOT FOR PRODUCTION: embedded ZooKeeper, no authentication, test harness."
          + " Runs until Ctrl-C.")
  public static final class Local implements Callable<Integer> {

    /** Environment variable naming the class-path file instead of the build's default. */
    public static final String CLASSPATH_ENV = "OPENBOOK_SOLR_LOCAL_CLASSPATH";
    static final String CLASSPATH_FILE = "solr-local.classpath";
    static final String JAR = "openbook-solr-local.jar";
    static final String MAIN = "org.openbook.solr.local.LocalSolrCloud";

    @Option(names = "--nodes", defaultValue = "2", paramLabel = "N",
        description = "Solr nodes (default ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--port", defaultValue = "8983", paramLabel = "PORT",
        description = "Port of the first node; node i uses PORT+i; 0 = free ports"
            + " (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--dir", defaultValue = "solr-local", paramLabel = "DIR",
        description = "Data and log folder (default ./${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--classpath-file", paramLabel = "FILE",
        description = "Class-path file of openbook-solr-local (default: $" + CLASSPATH_ENV
            + ", else the one beside this build).")
    Path classpathFile;

    @Option(names = "--heap", defaultValue = "1g", paramLabel = "SIZE",
        description = "Heap of the Solr JVM (default ${DEFAULT-VALUE}).")
    String heap;

    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      Path cpFile = classpathFile != null ? classpathFile
          : System.getenv(CLASSPATH_ENV) != null ? Path.of(System.getenv(CLASSPATH_ENV))
          : defaultClasspathFile();
      if (!Files.isRegularFile(cpFile)) {
        throw new IOException("class-path file " + cpFile + " not found; build the local Solr"
            + " module first: mvn -q -DskipTests package -pl openbook-solr-local -am");
      }
      Path jar = cpFile.toAbsolutePath().getParent().resolve(JAR);
      if (!Files.isRegularFile(jar)) {
        // a build that stopped before packaging (mvn test) has the module's classes only
        jar = jar.getParent().resolve("classes");
      }
      String classpath = jar + java.io.File.pathSeparator
          + Files.readString(cpFile, StandardCharsets.UTF_8).trim();
      Files.createDirectories(dir);
      Path console = dir.resolve("console.log");
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      ProcessBuilder pb = new ProcessBuilder(java, "-Xmx" + heap,
          "-Djava.security.egd=file:/dev/./urandom", "-cp", classpath, MAIN,
          Integer.toString(nodes), Integer.toString(port), dir.toAbsolutePath().toString())
          .redirectError(console.toFile());
      out.println("Starting a local SolrCloud (" + nodes + " nodes) — NOT FOR PRODUCTION."
          + " Solr output: " + console);
      out.flush();
      Process solr = pb.start();
      Thread stopper = new Thread(solr::destroy, "stop-local-solr");
      Runtime.getRuntime().addShutdownHook(stopper);
      try (BufferedReader r = new BufferedReader(
          new InputStreamReader(solr.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          if (line.startsWith("SOLR_URLS ")) {
            String urls = line.substring("SOLR_URLS ".length());
            out.println("Solr nodes: " + urls);
            out.println("Create the collection:  openbook solr init --url " + urls
                + " --collection openbook --shards 2 --replicas 1");
            out.println("Then in openbook.yaml:  store: {type: solr, solrUrls: ["
                + String.join(", ", urls.split(",")) + "], collection: openbook}");
            out.println("Ctrl-C stops the cluster.");
          } else if (line.startsWith("ZK_HOST ")) {
            out.println("ZooKeeper: " + line.substring("ZK_HOST ".length()));
          }
          out.flush();
        }
      }
      int code = solr.waitFor();
      if (code != 0) {
        spec.commandLine().getErr().println("error: local Solr exited with code " + code
            + "; see " + console);
        return OpenBookCommand.EXIT_ERROR;
      }
      return 0;
    }

    /**
     * {@code <repo>/openbook-solr-local/<target>/solr-local.classpath}, where {@code <target>} is
     * the build folder this app runs from ({@code target} unless built with {@code -Dob.target}).
     */
    static Path defaultClasspathFile() throws URISyntaxException {
      Path code = Path.of(SolrCommand.class.getProtectionDomain().getCodeSource().getLocation()
          .toURI());
      Path target = code.getParent(); // openbook-app/<target>/(openbook-app.jar | classes)
      Path repo = target.getParent().getParent();
      return repo.resolve("openbook-solr-local").resolve(target.getFileName())
          .resolve(CLASSPATH_FILE);
    }
  }
}
