package org.openbook.solr;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.solr.client.solrj.embedded.SSLConfig;
import org.apache.solr.client.solrj.impl.CloudHttp2SolrClient;
import org.apache.solr.client.solrj.impl.Http2SolrClient;

/**
 * Where the SolrCloud collection of a {@link SolrChunkStore} lives and how to create it.
 *
 * <p>Exactly one of {@code solrUrls} and {@code zkHosts} is non-empty. Solr URLs are base URLs
 * of any live nodes ({@code http://solr1:8983/solr}); the client discovers the rest of the
 * cluster from them. ZooKeeper hosts are {@code host:port} entries, with an optional chroot
 * ({@code /solr}).
 *
 * @param solrUrls   Solr base URLs, or empty when {@code zkHosts} is used
 * @param zkHosts    ZooKeeper {@code host:port} entries, or empty when {@code solrUrls} is used
 * @param zkChroot   ZooKeeper chroot such as {@code /solr}, or null for none
 * @param collection collection name (letters, digits, {@code _ - .}; Solr's rule)
 * @param shards     number of shards when the collection is created, ≥ 1
 * @param replicas   NRT replicas per shard when the collection is created, ≥ 1
 * @param user       basic-auth user, or null for no authentication
 * @param password   basic-auth password; required when {@code user} is set
 * @param tls        trust store (and client key store) for {@code https} nodes
 * @param failures   retries and partial results when nodes fail
 */
public record SolrStoreConfig(
    List<String> solrUrls,
    List<String> zkHosts,
    String zkChroot,
    String collection,
    int shards,
    int replicas,
    String user,
    String password,
    SolrTls tls,
    SolrFailurePolicy failures) {

  /**
   * @throws IllegalArgumentException naming the field that is missing or out of range
   */
  public SolrStoreConfig {
    tls = tls == null ? SolrTls.NONE : tls;
    failures = failures == null ? SolrFailurePolicy.DEFAULT : failures;
    solrUrls = List.copyOf(Objects.requireNonNull(solrUrls, "solrUrls"));
    zkHosts = List.copyOf(Objects.requireNonNull(zkHosts, "zkHosts"));
    if (solrUrls.isEmpty() == zkHosts.isEmpty()) {
      throw new IllegalArgumentException(
          "solr store: give either Solr URLs (solrUrls) or ZooKeeper hosts (zkHosts), not "
              + (solrUrls.isEmpty() ? "neither" : "both"));
    }
    if (collection == null || !collection.matches("[A-Za-z0-9_.][A-Za-z0-9_.-]*")) {
      throw new IllegalArgumentException("solr store: collection name '" + collection
          + "' is not valid (letters, digits, '_', '-', '.'; not starting with '-')");
    }
    if (shards < 1) {
      throw new IllegalArgumentException("solr store: shards must be >= 1, was " + shards);
    }
    if (replicas < 1) {
      throw new IllegalArgumentException("solr store: replicas must be >= 1, was " + replicas);
    }
    if (user != null && password == null) {
      throw new IllegalArgumentException(
          "solr store: basic-auth user '" + user + "' is set but password is missing");
    }
  }

  /** As the canonical constructor with no TLS settings and the default failure policy. */
  public SolrStoreConfig(List<String> solrUrls, List<String> zkHosts, String zkChroot,
      String collection, int shards, int replicas, String user, String password) {
    this(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user, password, null, null);
  }

  /** A collection reached through Solr URLs, 1 shard and 1 replica when created, no auth. */
  public static SolrStoreConfig ofUrls(String collection, String... solrUrls) {
    return new SolrStoreConfig(List.of(solrUrls), List.of(), null, collection, 1, 1, null, null);
  }

  /** This configuration with {@code shards} and {@code replicas} for collection creation. */
  public SolrStoreConfig withLayout(int shards, int replicas) {
    return new SolrStoreConfig(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user,
        password, tls, failures);
  }

  /** This configuration with HTTP basic authentication. */
  public SolrStoreConfig withBasicAuth(String user, String password) {
    return new SolrStoreConfig(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user,
        password, tls, failures);
  }

  /** This configuration with another collection name. */
  public SolrStoreConfig withCollection(String collection) {
    return new SolrStoreConfig(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user,
        password, tls, failures);
  }

  /** This configuration with TLS settings. */
  public SolrStoreConfig withTls(SolrTls tls) {
    return new SolrStoreConfig(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user,
        password, tls, failures);
  }

  /** This configuration with a failure policy. */
  public SolrStoreConfig withFailures(SolrFailurePolicy failures) {
    return new SolrStoreConfig(solrUrls, zkHosts, zkChroot, collection, shards, replicas, user,
        password, tls, failures);
  }

  /**
   * A new cloud client for this cluster (HTTP/2, Jetty). The caller closes it. Routing is
   * shard-leader aware; with ZooKeeper hosts the cluster state is watched in ZooKeeper.
   */
  public CloudHttp2SolrClient newClient() {
    Http2SolrClient.Builder http = new Http2SolrClient.Builder();
    if (user != null) {
      http.withBasicAuthCredentials(user, password);
    }
    if (tls.configured()) {
      // useSsl = true; client authentication when a key store is given
      http.withSSLConfig(new SSLConfig(true, tls.keyStore() != null, tls.keyStore(),
          tls.keyStorePassword(), tls.trustStore(), tls.trustStorePassword()));
    }
    CloudHttp2SolrClient.Builder cloud = solrUrls.isEmpty()
        ? new CloudHttp2SolrClient.Builder(zkHosts, Optional.ofNullable(zkChroot))
        : new CloudHttp2SolrClient.Builder(solrUrls);
    return cloud.withInternalClientBuilder(http).build();
  }

  /** Hides the password. */
  @Override
  public String toString() {
    return "SolrStoreConfig[" + (solrUrls.isEmpty() ? "zkHosts=" + zkHosts
        + (zkChroot == null ? "" : zkChroot) : "solrUrls=" + solrUrls)
        + ", collection=" + collection + ", shards=" + shards + ", replicas=" + replicas
        + (user == null ? "" : ", user=" + user + ", password=***")
        + (tls.configured() ? ", " + tls : "") + "]";
  }
}
