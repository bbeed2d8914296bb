package org.openbook.solr.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.apache.solr.embedded.JettyConfig;
import org.apache.solr.embedded.JettySolrRunner;

/**
 * A throw-away SolrCloud on this machine for trying the Solr store — NOT FOR PRODUCTION: one
 * embedded ZooKeeper and {@code nodes} Solr nodes in this JVM, built by Solr's own test harness
 * ({@link MiniSolrCloudCluster}, solr-test-framework), no authentication, data under a local
 * folder. Runs until killed (Ctrl-C or SIGTERM shuts it down cleanly).
 *
 * <p>Usage: {@code LocalSolrCloud NODES PORT DIR}. Node {@code i} listens on {@code PORT + i}
 * ({@code PORT} 0 picks free ports). Once every node is up, prints one line {@code SOLR_URLS
 * url[,url…]} and one {@code ZK_HOST host:port} on standard output, then blocks.
 */
public final class LocalSolrCloud {

  private LocalSolrCloud() {}

  /**
   * @param args {@code NODES PORT DIR}: nodes 1..9, port 0 or 1024..65535-nodes, data folder
   */
  public static void main(String[] args) {
    try {
      run(args);
    } catch (Exception e) {
      // Solr's threads are not daemons: without exit the JVM would outlive the failure.
      System.err.println("local SolrCloud failed to start: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(String[] args) throws Exception {
    if (args.length != 3) {
      System.err.println("usage: LocalSolrCloud NODES PORT DIR");
      System.exit(2);
    }
    int nodes = Integer.parseInt(args[0]);
    int port = Integer.parseInt(args[1]);
    Path dir = Path.of(args[2]).toAbsolutePath();
    if (nodes < 1 || nodes > 9) {
      throw new IllegalArgumentException("nodes must be 1..9, was " + nodes);
    }
    if (port != 0 && (port < 1024 || port + nodes > 65535)) {
      throw new IllegalArgumentException("port must be 0 or 1024.." + (65535 - nodes));
    }
    Files.createDirectories(dir);
    System.setProperty("solr.log.dir", dir.resolve("logs").toString());
    // Node 1 comes from the builder (named node1 by the harness), the others are added with
    // their own ports: the builder would give every node the same port.
    MiniSolrCloudCluster cluster = new MiniSolrCloudCluster.Builder(1, dir.resolve("nodes"))
        .withJettyConfig(b -> b.setPort(port))
        .configure();
    for (int i = 1; i < nodes; i++) {
      cluster.startJettySolrRunner("node" + (i + 1), "/solr",
          JettyConfig.builder().setPort(port == 0 ? 0 : port + i).build());
    }
    cluster.waitForAllNodes(60);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.shutdown();
      } catch (Exception e) {
        System.err.println("local SolrCloud: shutdown failed: " + e);
      } finally {
        stopped.countDown();
      }
    }, "local-solr-shutdown"));
    List<String> urls = new ArrayList<>();
    for (JettySolrRunner jetty : cluster.getJettySolrRunners()) {
      urls.add(jetty.getBaseUrl().toString());
    }
    System.out.println("SOLR_URLS " + String.join(",", urls));
    System.out.println("ZK_HOST " + cluster.getZkServer().getZkAddress());
    System.out.flush();
    stopped.await();
  }
}
