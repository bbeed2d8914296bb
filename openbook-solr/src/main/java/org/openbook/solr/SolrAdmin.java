package org.openbook.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.ClusterStateProvider;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.params.ShardParams;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.common.util.ContentStreamBase;
import org.openbook.index.DenseField;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;

/**
 * Sets up OpenBook collections on a SolrCloud cluster over HTTP, so users never edit Solr files:
 * uploads OpenBook's configset (the module resources {@code org/openbook/solr/configset/}, the
 * schema's fields written by {@link SolrSchema} for the store's manifest) through the Configsets
 * API and creates or reloads the collection through the Collections API.
 *
 * <p>Each collection gets its own configset, {@link #configSetName(String)}, because the vector
 * dimensions and dense fields are part of the schema. Uploading through the API makes an
 * "untrusted" configset in Solr 9, which is enough: the configset uses no {@code <lib>}
 * directives or scripting.
 */
public final class SolrAdmin {

  /** The schema template, filled in by {@link SolrSchema#schemaXml}. */
  static final String SCHEMA_FILE = "managed-schema.xml";
  /** The configset files, as module resources under {@link #CONFIGSET_RESOURCES}. */
  static final List<String> CONFIGSET_FILES = List.of(SCHEMA_FILE, "solrconfig.xml");
  static final String CONFIGSET_RESOURCES = "/org/openbook/solr/configset/";
  /** Solr's limit for DenseVectorField (Lucene's default maximum). */
  static final int MAX_DIMENSION = 1024;

  /** What {@link #init} did. */
  public enum InitOutcome {
    /** The configset was uploaded and the collection created. */
    CREATED,
    /** The collection existed; the configset was replaced and the collection reloaded. */
    UPDATED
  }

  private final SolrClient client;

  /** @param client a cloud client of the cluster; not closed by this class */
  public SolrAdmin(SolrClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /** The configset name used for {@code collection}: {@code openbook-<collection>}. */
  public static String configSetName(String collection) {
    return "openbook-" + collection;
  }

  /**
   * Uploads the configset for {@code collection} and creates the collection with {@code shards}
   * shards of {@code replicas} NRT replicas, waiting until it is active; if the collection already
   * exists, replaces its configset and reloads it (shards and replicas are then left alone).
   *
   * <p>The schema declares exactly the fields {@link SolrChunkStore} writes for {@code layout}
   * ({@link SolrSchema}): the primary {@code vector} of {@link IndexManifest#dimension()} and a
   * DenseVectorField {@code vector_<name>} per {@link IndexManifest#denseFields() further dense
   * field} (its own dimension, cosine, HNSW). Pass the manifest the store will be opened with,
   * so no caller can create a collection that lacks a field the store writes.
   *
   * @param layout the settings of the store that will write the collection (only the dimension
   *     and the dense fields shape the schema; counts are ignored)
   * @throws IndexMismatchException if the collection exists and holds an OpenBook manifest with
   *     another dimension or other dense fields (changing the schema would break its index;
   *     reset it instead)
   * @throws IllegalArgumentException if a number or dimension is out of range
   * @throws IOException naming the collection if Solr refuses or cannot be reached
   */
  public InitOutcome init(String collection, int shards, int replicas, IndexManifest layout)
      throws IOException {
    Objects.requireNonNull(layout, "layout");
    int dimension = layout.dimension();
    List<DenseField> denseFields = layout.denseFields();
    SolrSchema.requireDimensions(layout);
    if (shards < 1 || replicas < 1) {
      throw new IllegalArgumentException(
          "shards and replicas must be >= 1, were " + shards + " and " + replicas);
    }
    boolean exists = exists(collection);
    if (exists) {
      Optional<IndexManifest> stored = storedManifest(collection);
      if (stored.isPresent() && stored.get().dimension() != dimension) {
        throw new IndexMismatchException("collection '" + collection + "' holds vectors of "
            + "dimension " + stored.get().dimension() + ", not " + dimension
            + "; delete it (or reset it) before initialising it for another embedding model");
      }
      if (stored.isPresent() && !stored.get().denseFields().equals(denseFields)) {
        throw new IndexMismatchException("collection '" + collection + "' has the dense fields "
            + stored.get().denseFields() + ", not " + denseFields
            + "; delete it (or reset it) before initialising it for other embedding models");
      }
    }
    String configSet = configSetName(collection);
    run("upload configset " + configSet, () -> {
      ConfigSetAdminRequest.Upload upload = new ConfigSetAdminRequest.Upload()
          .setConfigSetName(configSet)
          .setOverwrite(true)
          .setCleanup(true);
      upload.setUploadStream(new ContentStreamBase.ByteArrayStream(
          configSetZip(layout), configSet + ".zip", "application/zip"));
      return upload.process(client);
    });
    if (exists) {
      run("reload collection " + collection,
          () -> CollectionAdminRequest.reloadCollection(collection).process(client));
      return InitOutcome.UPDATED;
    }
    run("create collection " + collection, () -> {
      CollectionAdminRequest.Create create =
          CollectionAdminRequest.createCollection(collection, configSet, shards, replicas);
      create.setWaitForFinalState(true);
      return create.process(client);
    });
    return InitOutcome.CREATED;
  }

  /** Whether the cluster has a collection named {@code collection}. */
  public boolean exists(String collection) throws IOException {
    return run("list collections", () -> CollectionAdminRequest.listCollections(client))
        .contains(collection);
  }

  /**
   * Deletes every chunk and the manifest of {@code collection} and commits: the collection is
   * empty and the next {@link SolrChunkStore#open} writes a new manifest ({@code --reset}).
   */
  public void clear(String collection) throws IOException {
    run("clear collection " + collection, () -> {
      client.deleteByQuery(collection, "*:*");
      return client.commit(collection, true, true);
    });
  }

  /** Deletes {@code collection} and its configset. */
  public void delete(String collection) throws IOException {
    run("delete collection " + collection,
        () -> CollectionAdminRequest.deleteCollection(collection).process(client));
    run("delete configset " + configSetName(collection),
        () -> new ConfigSetAdminRequest.Delete()
            .setConfigSetName(configSetName(collection)).process(client));
  }

  /**
   * The operator's view of the collection of {@code config}, through a client of its own;
   * UNREACHABLE (never an exception) when the cluster cannot be reached at all.
   *
   * @param expected this build's settings (counts ignored)
   */
  public static SolrCollectionStatus status(SolrStoreConfig config, IndexManifest expected) {
    CloudHttp2SolrClient client;
    try {
      client = config.newClient();
    } catch (RuntimeException e) {
      return unreachable(config.collection(), e);
    }
    try (client) {
      return new SolrAdmin(client).status(config.collection(), expected);
    } catch (IOException e) {
      // closing failed; the status was computed
      return unreachable(config.collection(), e);
    }
  }

  private static SolrCollectionStatus unreachable(String collection, Exception e) {
    return new SolrCollectionStatus(collection, SolrCollectionStatus.Health.UNREACHABLE,
        List.of(), null, false, List.of("cannot read the cluster state of collection '"
            + collection + "': " + e.getMessage()));
  }

  /**
   * The operator's view of {@code collection}: cluster state, per-shard counts and the manifest,
   * compared with {@code expected} (this build's model, dimension, metric, analyzer, chunker).
   * Never throws for an unhealthy cluster: what is wrong is in {@link
   * SolrCollectionStatus#problems()}.
   *
   * @param expected this build's settings (counts ignored)
   */
  public SolrCollectionStatus status(String collection, IndexManifest expected) {
    List<String> problems = new ArrayList<>();
    if (!(client instanceof CloudSolrClient cloud)) {
      throw new IllegalStateException("status needs a cloud client, got " + client);
    }
    DocCollection state;
    Set<String> live;
    try {
      ClusterStateProvider provider = cloud.getClusterStateProvider();
      live = provider.getLiveNodes();
      if (!exists(collection)) {
        return new SolrCollectionStatus(collection, SolrCollectionStatus.Health.UNREACHABLE,
            List.of(), null, false, List.of("collection '" + collection + "' does not exist;"
                + " create it with: openbook solr init --collection " + collection));
      }
      state = provider.getCollection(collection);
    } catch (IOException | RuntimeException e) {
      return unreachable(collection, e);
    }
    List<SolrCollectionStatus.Shard> shards = new ArrayList<>();
    for (Slice slice : state.getSlices().stream()
        .sorted(java.util.Comparator.comparing(Slice::getName)).toList()) {
      List<SolrCollectionStatus.Replica> replicas = new ArrayList<>();
      Replica leader = slice.getLeader();
      boolean anyActive = false;
      for (Replica r : slice.getReplicas().stream()
          .sorted(java.util.Comparator.comparing(Replica::getName)).toList()) {
        boolean active = r.isActive(live);
        anyActive |= active;
        String replicaState = live.contains(r.getNodeName())
            ? r.getState().toString() : Replica.State.DOWN.toString();
        replicas.add(new SolrCollectionStatus.Replica(r.getName(), r.getNodeName(),
            replicaState, leader != null && leader.getName().equals(r.getName())));
        if (!active) {
          problems.add("replica " + r.getName() + " of " + slice.getName() + " on "
              + r.getNodeName() + " is " + replicaState);
        }
      }
      long chunks = -1;
      long documents = -1;
      if (!anyActive) {
        problems.add(slice.getName() + " has no active replica: searches fail (or are partial"
            + " with store.partialResults: true) and ingest waits for it");
      } else {
        if (leader == null) {
          problems.add(slice.getName() + " has no leader: ingest waits for an election");
        }
        try {
          chunks = shardCount(collection, slice.getName(), SolrFields.KIND_CHUNK);
          documents = shardCount(collection, slice.getName(), SolrFields.KIND_DOCUMENT);
        } catch (IOException e) {
          problems.add("cannot count " + slice.getName() + ": " + e.getMessage());
        }
      }
      shards.add(new SolrCollectionStatus.Shard(slice.getName(), slice.getState().toString(),
          replicas, chunks, documents));
    }
    SolrCollectionStatus.Manifest manifest = null;
    boolean matches = false;
    try {
      SolrDocument d = run("read manifest of " + collection,
          () -> client.getById(collection, SolrFields.MANIFEST_ID));
      if (d == null) {
        problems.add("no OpenBook manifest: nothing has been ingested into '" + collection
            + "' yet");
      } else {
        IndexManifest m = SolrFields.toManifest(d, 0, 0);
        manifest = new SolrCollectionStatus.Manifest(m.embeddingModel(), m.dimension(),
            m.metric(), m.analyzer(), m.chunker());
        try {
          m.requireCompatible(expected);
          matches = m.chunker().equals(expected.chunker());
          if (!matches) {
            problems.add("manifest chunker '" + m.chunker() + "' differs from this build's '"
                + expected.chunker() + "': an incremental ingest refuses it; rebuild with"
                + " --reset");
          }
        } catch (IndexMismatchException e) {
          problems.add("manifest does not match this build: " + e.getMessage());
        }
        if (SolrFields.layout(d) == null) {
          matches = false;
          problems.add("collection uses the old one-document-per-chunk layout; rebuild it with"
              + " openbook ingest <dir> --reset");
        }
      }
    } catch (IOException | RuntimeException e) {
      problems.add("cannot read the manifest: " + e.getMessage());
    }
    return new SolrCollectionStatus(collection, problems.isEmpty()
        ? SolrCollectionStatus.Health.HEALTHY : SolrCollectionStatus.Health.DEGRADED,
        shards, manifest, matches, problems);
  }

  /** Documents of {@code kind} in one shard ({@code shards=<name>} routes to that shard). */
  private long shardCount(String collection, String shard, String kind) throws IOException {
    SolrQuery q = new SolrQuery("*:*").addFilterQuery(SolrFields.KIND + ":" + kind).setRows(0);
    q.set(ShardParams.SHARDS, shard);
    return run("count " + kind + " in " + shard + " of " + collection,
        () -> client.query(collection, q)).getResults().getNumFound();
  }

  /** The manifest stored in {@code collection} (counts left at 0), if any. */
  Optional<IndexManifest> storedManifest(String collection) throws IOException {
    SolrDocument d = run("read manifest of " + collection,
        () -> client.getById(collection, SolrFields.MANIFEST_ID));
    return Optional.ofNullable(d).map(m -> SolrFields.toManifest(m, 0, 0));
  }

  /**
   * The configset as a zip: solrconfig.xml and the managed-schema.xml of {@link
   * SolrSchema#schemaXml(IndexManifest)} for {@code layout}.
   */
  static byte[] configSetZip(IndexManifest layout) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String name : CONFIGSET_FILES) {
        String text = name.equals(SCHEMA_FILE) ? SolrSchema.schemaXml(layout) : resource(name);
        zip.putNextEntry(new ZipEntry(name));
        zip.write(text.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static String resource(String name) throws IOException {
    try (InputStream in = SolrAdmin.class.getResourceAsStream(CONFIGSET_RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("configset file " + name + " missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /**
   * A clearer error for a cluster that could not be reached through {@code config}: SolrJ's cloud
   * client reports a refused login only as "failed fetching live_nodes", so the first Solr URL is
   * asked directly and an HTTP 401/403 is named. Returns {@code failure} unchanged otherwise.
   */
  static IOException explain(SolrStoreConfig config, IOException failure) {
    if (config.solrUrls().isEmpty()) {
      return failure;
    }
    String url = config.solrUrls().get(0);
    Http2SolrClient.Builder builder = new Http2SolrClient.Builder(url);
    if (config.user() != null) {
      builder.withBasicAuthCredentials(config.user(), config.password());
    }
    try (Http2SolrClient probe = builder.build()) {
      new GenericSolrRequest(SolrRequest.METHOD.GET, "/admin/info/system").process(probe);
    } catch (SolrException e) {
      if (e.code() == 401 || e.code() == 403) {
        return new IOException("Solr at " + url + " refused the request (HTTP " + e.code() + ")"
            + " for collection '" + config.collection() + "': " + (config.user() == null
                ? "it requires authentication; set the Solr user and password"
                : "check the password of Solr user '" + config.user() + "' and its permissions"),
            failure);
      }
    } catch (SolrServerException | IOException | RuntimeException e) {
      // The probe is only a diagnosis; the original failure stands.
    }
    return failure;
  }

  /**
   * The HTTP status of the innermost Solr error behind {@code failure} (SolrJ's cloud client
   * wraps a node's answer in a {@code RouteException} of status 500), or -1 if there is none.
   */
  static int httpStatus(Throwable failure) {
    int code = -1;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SolrException se) {
        code = se.code();
      }
    }
    return code;
  }

  /**
   * The error for a request Solr refused with HTTP 401 or 403: names the collection and the user
   * (never the password) and says what to check. SolrJ's own message is not kept, as it quotes
   * the server's answer verbatim; the cause chain still carries it for the log.
   */
  static IOException refused(String collection, String user, String what, int status,
      Throwable cause) {
    String who = user == null ? "anonymous requests" : "user '" + user + "'";
    String check = status == 401
        ? (user == null ? "the cluster requires authentication; set store.user and the"
            + " password ($OPENBOOK_SOLR_PASSWORD or store.password)"
            : "wrong or missing password for user '" + user + "'")
        : "the user's role lacks the permission for this request (RuleBasedAuthorizationPlugin"
            + " in security.json)";
    return new IOException("Solr refused " + who + " (HTTP " + status + ") to " + what
        + " in collection '" + collection + "': " + check, cause);
  }

  /**
   * Whether a failure may pass if the request is sent again: no answer at all (connection
   * refused or reset, timeout: SolrJ's {@link SolrServerException}, a plain {@link IOException})
   * or HTTP 502/503/504 (e.g. "no servers hosting shard", a shard without a leader during a
   * restart). Not: HTTP 4xx (bad request, authentication, authorisation) or other server errors.
   */
  static boolean isTransient(IOException failure) {
    int status = httpStatus(failure);
    if (status >= 400 && status < 500) {
      return false;
    }
    for (Throwable t = failure.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SolrServerException || t instanceof IOException) {
        return true;
      }
    }
    return status == 502 || status == 503 || status == 504
        || (status == -1 && failure.getCause() == null);
  }

  /**
   * The shards of {@code collection} that have no active replica on a live node, sorted; empty
   * if all have one or the client cannot tell (not a cloud client, or the cluster state could
   * not be read).
   */
  static List<String> unavailableShards(SolrClient client, String collection) {
    if (!(client instanceof CloudSolrClient cloud)) {
      return List.of();
    }
    try {
      ClusterStateProvider state = cloud.getClusterStateProvider();
      DocCollection c = state.getCollection(collection);
      Set<String> live = state.getLiveNodes();
      return c.getSlices().stream()
          .filter(slice -> slice.getReplicas().stream().noneMatch(r -> r.isActive(live)))
          .map(Slice::getName).sorted().toList();
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** A SolrJ call. */
  @FunctionalInterface
  interface SolrCall<T> {
    T call() throws SolrServerException, IOException;
  }

  /**
   * Runs a SolrJ call, turning SolrJ's checked and unchecked failures (SolrJ also throws plain
   * RuntimeExceptions, e.g. when no node answers) into an IOException naming {@code what} and
   * the root cause.
   */
  static <T> T run(String what, SolrCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (SolrServerException | RuntimeException e) {
      throw new IOException("Solr: " + what + " failed: " + describe(e), e);
    }
  }

  /** The exception's message, and its root cause's when that differs. */
  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = String.valueOf(e.getMessage());
    return root == e || message.contains(String.valueOf(root.getMessage()))
        ? message : message + " (cause: " + root + ")";
  }
}
