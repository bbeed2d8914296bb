package org.openbook.solr;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * TLS settings for reaching a Solr cluster over {@code https}: the trust store holding the CA (or
 * the nodes' certificates) the client trusts, and, for clusters that require client
 * certificates ({@code SOLR_SSL_NEED_CLIENT_AUTH}), the client's key store. Passed to SolrJ's
 * {@code Http2SolrClient} as an {@code SSLConfig}; store types follow the file (JKS or PKCS12,
 * the JDK's default key store type decides for ambiguous files).
 *
 * @param trustStore         trust store file, or null to use the JVM's default trust
 *                           ({@code javax.net.ssl.trustStore}, else the JDK's CA certificates)
 * @param trustStorePassword its password, or null
 * @param keyStore           client key store for mutual TLS, or null for none
 * @param keyStorePassword   its password, or null
 */
public record SolrTls(
    String trustStore, String trustStorePassword, String keyStore, String keyStorePassword) {

  /** No TLS settings of OpenBook's own: plain {@code http}, or the JVM's defaults. */
  public static final SolrTls NONE = new SolrTls(null, null, null, null);

  /**
   * @throws IllegalArgumentException naming the file that does not exist
   */
  public SolrTls {
    requireFile(trustStore, "store.tls.trustStore");
    requireFile(keyStore, "store.tls.keyStore");
  }

  private static void requireFile(String path, String key) {
    if (path != null && !Files.isRegularFile(Path.of(path))) {
      throw new IllegalArgumentException(key + ": file " + path + " does not exist");
    }
  }

  /** Whether any setting is given. */
  public boolean configured() {
    return trustStore != null || keyStore != null;
  }

  /** Hides the passwords. */
  @Override
  public String toString() {
    return "SolrTls[trustStore=" + trustStore + (keyStore == null ? "" : ", keyStore=" + keyStore)
        + "]";
  }
}
