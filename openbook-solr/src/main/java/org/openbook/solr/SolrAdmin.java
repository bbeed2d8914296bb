package org.openbook.solr;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.Http2SolrClient;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.ContentStreamBase;
import org.openbook.index.DenseField;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;

/**
 * Sets up OpenBook collections on a SolrCloud cluster over HTTP, so users never edit Solr files:
 * uploads OpenBook's configset (the module resources {@code org/openbook/solr/configset/}, with
 * the vector dimension filled in) through the Configsets API and creates or reloads the
 * collection through the Collections API.
 *
 * <p>Each collection gets its own configset, {@link #configSetName(String)}, because the vector
 * dimension is part of the schema. Uploading through the API makes an "untrusted" configset in
 * Solr 9, which is enough: the configset uses no {@code <lib>} directives or scripting.
 */
public final class SolrAdmin {

  /** The configset files, as module resources under {@link #CONFIGSET_RESOURCES}. */
  static final List<String> CONFIGSET_FILES = List.of("managed-schema.xml", "solrconfig.xml");
  static final String CONFIGSET_RESOURCES = "/org/openbook/solr/configset/";
  /** Placeholder in managed-schema.xml replaced with the vector dimension at upload. */
  static final String DIMENSION_PLACEHOLDER = "${openbook.vector.dimension}";
  /** Placeholder (inside an XML comment) for the further dense fields' types and fields. */
  static final String DENSE_FIELDS_PLACEHOLDER = "${openbook.dense.fields}";
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
   * @param dimension vector length of the embedding model, 1..{@value #MAX_DIMENSION}
   * @throws IndexMismatchException if the collection exists and holds an OpenBook manifest with
   *     another dimension (changing the schema would break its index; reset it instead)
   * @throws IllegalArgumentException if a number is out of range
   * @throws IOException naming the collection if Solr refuses or cannot be reached
   */
  public InitOutcome init(String collection, int shards, int replicas, int dimension)
      throws IOException {
    return init(collection, shards, replicas, dimension, List.of());
  }

  /**
   * As {@link #init(String, int, int, int)}, with a DenseVectorField {@code vector_<name>} for
   * each further dense field of the manifest (its own dimension, cosine, HNSW).
   *
   * @throws IndexMismatchException also if the collection exists with other dense fields
   */
  public InitOutcome init(String collection, int shards, int replicas, int dimension,
      List<DenseField> denseFields) throws IOException {
    for (DenseField f : denseFields) {
      if (f.dimension() > MAX_DIMENSION) {
        throw new IllegalArgumentException("dense field '" + f.name() + "': dimension "
            + f.dimension() + " is outside 1.." + MAX_DIMENSION);
      }
    }
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw new IllegalArgumentException(
          "dimension " + dimension + " is outside 1.." + MAX_DIMENSION);
    }
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
          configSetZip(dimension, denseFields), configSet + ".zip", "application/zip"));
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

  /** The manifest stored in {@code collection} (counts left at 0), if any. */
  Optional<IndexManifest> storedManifest(String collection) throws IOException {
    SolrDocument d = run("read manifest of " + collection,
        () -> client.getById(collection, SolrFields.MANIFEST_ID));
    return Optional.ofNullable(d).map(m -> SolrFields.toManifest(m, 0, 0));
  }

  /** The configset as a zip, with {@code dimension} written into the schema. */
  static byte[] configSetZip(int dimension) {
    return configSetZip(dimension, List.of());
  }

  /**
   * The configset as a zip, with {@code dimension} and a field type and field per further dense
   * field written into the schema.
   */
  static byte[] configSetZip(int dimension, List<DenseField> denseFields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String name : CONFIGSET_FILES) {
        String text = resource(name);
        if (name.equals("managed-schema.xml")) {
          text = text.replace(DIMENSION_PLACEHOLDER, Integer.toString(dimension))
              .replace(DENSE_FIELDS_PLACEHOLDER, denseFieldsXml(denseFields));
        }
        zip.putNextEntry(new ZipEntry(name));
        zip.write(text.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static String denseFieldsXml(List<DenseField> fields) {
    StringBuilder xml = new StringBuilder("-->");
    for (DenseField f : fields) {
      String name = SolrFields.vectorField(f.name());
      xml.append("\n  <fieldType name=\"openbook_").append(name)
          .append("\" class=\"solr.DenseVectorField\" vectorDimension=\"").append(f.dimension())
          .append("\" similarityFunction=\"cosine\" knnAlgorithm=\"hnsw\"")
          .append(" hnswMaxConnections=\"16\" hnswBeamWidth=\"100\"/>")
          .append("\n  <field name=\"").append(name).append("\" type=\"openbook_").append(name)
          .append("\" indexed=\"true\" stored=\"false\"/>");
    }
    return xml.append("\n  <!--").toString();
  }

  private static String resource(String name) throws IOException {
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
        return new IOException("Solr at " + url + " refused the request (HTTP " + e.code() + "): "
            + (config.user() == null
                ? "it requires authentication; set the Solr user and password"
                : "check the password of Solr user '" + config.user() + "' and its permissions"),
            failure);
      }
    } catch (SolrServerException | IOException | RuntimeException e) {
      // The probe is only a diagnosis; the original failure stands.
    }
    return failure;
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
