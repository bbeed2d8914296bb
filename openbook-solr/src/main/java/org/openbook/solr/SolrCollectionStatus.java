package org.openbook.solr;

import java.util.List;

/**
 * An operator's view of one OpenBook collection ({@code openbook solr status}): its shards and
 * replicas with their states, chunk and document counts per shard, the stored manifest and
 * whether it matches what this build embeds and analyses with.
 *
 * @param collection      the collection name
 * @param health          the verdict, see {@link Health}
 * @param shards          the shards in name order (empty when unreachable)
 * @param manifest        the stored settings (model, dimension, metric, analyzer, chunker), or
 *                        null when there is none or the collection could not be read
 * @param manifestMatches whether {@code manifest} is compatible with this build's settings
 * @param problems        what makes the collection degraded or unreachable, one sentence each,
 *                        naming the shard, replica or setting; empty when healthy
 */
public record SolrCollectionStatus(
    String collection,
    Health health,
    List<Shard> shards,
    Manifest manifest,
    boolean manifestMatches,
    List<String> problems) {

  public SolrCollectionStatus {
    shards = List.copyOf(shards);
    problems = List.copyOf(problems);
  }

  /** The verdict, with the exit code of {@code openbook solr status}. */
  public enum Health {
    /** Every replica active on a live node, every shard led, manifest present and matching. */
    HEALTHY(0),
    /**
     * Reachable, but some replica is not active, some shard has no live replica (searches fail
     * or are partial), or the manifest is missing or does not match this build.
     */
    DEGRADED(1),
    /** The cluster cannot be reached, refuses the credentials, or has no such collection. */
    UNREACHABLE(2);

    private final int exitCode;

    Health(int exitCode) {
      this.exitCode = exitCode;
    }

    /** 0, 1 or 2. */
    public int exitCode() {
      return exitCode;
    }
  }

  /**
   * One shard.
   *
   * @param name      Solr's shard name ({@code shard1}, …)
   * @param state     the slice state ({@code active}, {@code inactive}, …)
   * @param replicas  its replicas
   * @param chunks    chunks stored in the shard, or -1 if no replica could answer
   * @param documents documents (block roots) stored in the shard, or -1 if unknown
   */
  public record Shard(String name, String state, List<Replica> replicas, long chunks,
      long documents) {
    public Shard {
      replicas = List.copyOf(replicas);
    }
  }

  /**
   * One replica of a shard.
   *
   * @param name   the replica (core node) name
   * @param node   the Solr node hosting it
   * @param state  its state in the cluster state ({@code active}, {@code down}, {@code
   *               recovering}, …); {@code down} when its node is not live
   * @param leader whether it leads its shard
   */
  public record Replica(String name, String node, String state, boolean leader) {}

  /** The stored manifest's settings. */
  public record Manifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker) {}
}
