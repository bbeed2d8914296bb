package org.openbook.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SolrCommandTest {

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = OpenBookCommand.commandLine();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return new Run(cl.execute(args), out.toString(), err.toString());
  }

  @Test
  void should_ask_for_an_address_when_init_has_neither_url_nor_zookeeper() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"), "principals: {}\n");
    Run r = run("solr", "init", "--collection", "kb", "--config", config.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("give --url or --zk");
  }

  @Test
  void should_name_the_missing_classpath_file_and_how_to_build_it() {
    Path missing = tmp.resolve("nothing.classpath");
    Run r = run("solr", "local", "--classpath-file", missing.toString(), "--dir",
        tmp.resolve("solr").toString());
    assertThat(r.exit()).isEqualTo(OpenBookCommand.EXIT_ERROR);
    assertThat(r.err()).contains("class-path file " + missing + " not found")
        .contains("-pl openbook-solr-local -am");
  }

  @Test
  void should_look_for_the_classpath_file_beside_this_build() throws Exception {
    Path expected = SolrCommand.Local.defaultClasspathFile();
    assertThat(expected.getFileName()).hasToString("solr-local.classpath");
    assertThat(expected.getParent().getParent().getFileName()).hasToString("openbook-solr-local");
  }

  // ---------------------------------------------------------------- issue 22: schema of solr init

  @Test
  void i22_should_init_the_collection_for_the_dense_routes_an_ingest_writes() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"),
        "store: {type: solr, solrUrls: ['http://127.0.0.1:1/solr'], collection: kb}\n");
    var settings = org.openbook.engine.config.ConfigLoader.read(config).resolve(java.util.Map.of());

    // what solr init creates the schema from (and solr status compares with)
    var init = SolrCommand.expectedManifest(settings, settings.store().solr().orElseThrow());

    assertThat(init.denseFields()).extracting(f -> f.name() + "/" + f.dimension())
        .containsExactly("en/384");
    assertThat(SolrCommand.vectors(init)).isEqualTo("dimension 512, vector_en 384");
    // the manifest an ingest of the same configuration records (embedded store, real models)
    var lucene = org.openbook.engine.config.ConfigLoader.read(
        Files.writeString(tmp.resolve("lucene.yaml"), "principals: {}\n"));
    try (var engine = org.openbook.engine.OpenBook.builder().index(tmp.resolve("index"))
        .config(lucene).mode(org.openbook.engine.OpenBook.Mode.WRITE).build()) {
      var written = engine.store().manifest();
      written.requireCompatible(init);
      assertThat(written.denseFields()).isEqualTo(init.denseFields());
      assertThat(written.dimension()).isEqualTo(init.dimension());
    }
  }

  @Test
  void i22_should_refuse_a_dimension_other_than_the_models() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"), "principals: {}\n");
    Run r = run("solr", "init", "--url", "http://127.0.0.1:1/solr", "--collection", "kb",
        "--dimension", "384", "--config", config.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--dimension 384 differs from the dimension of"
        + " bge-small-zh-v1.5, 512");
  }

  // ---------------------------------------------------------------- solr status

  @Test
  void should_exit_2_and_say_why_when_the_cluster_is_unreachable() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"),
        "store: {type: solr, solrUrls: ['http://127.0.0.1:1/solr'], collection: kb}\n");

    Run text = run("solr", "status", "--config", config.toString());
    Run json = run("solr", "status", "--config", config.toString(), "--json");

    assertThat(text.exit()).isEqualTo(2);
    assertThat(text.out()).startsWith("collection kb: UNREACHABLE")
        .contains("problem: cannot read the cluster state of collection 'kb'");
    assertThat(json.exit()).isEqualTo(2);
    var node = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
    assertThat(node.get("health").asText()).isEqualTo("UNREACHABLE");
    assertThat(node.get("exitCode").asInt()).isEqualTo(2);
    assertThat(node.get("shards")).isEmpty();
  }

  @Test
  void should_refuse_status_without_a_solr_store() throws Exception {
    Path config = Files.writeString(tmp.resolve("openbook.yaml"), "principals: {}\n");
    Run r = run("solr", "status", "--config", config.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("the configuration has no Solr store");
  }

  /** A degraded collection: shard2's only replica is down, its counts unknown. */
  private static org.openbook.solr.SolrCollectionStatus degraded() {
    var shard1 = new org.openbook.solr.SolrCollectionStatus.Shard("shard1", "active",
        java.util.List.of(new org.openbook.solr.SolrCollectionStatus.Replica("core_node1",
            "127.0.0.1:8983_solr", "active", true)), 40, 12);
    var shard2 = new org.openbook.solr.SolrCollectionStatus.Shard("shard2", "active",
        java.util.List.of(new org.openbook.solr.SolrCollectionStatus.Replica("core_node2",
            "127.0.0.1:8984_solr", "down", false)), -1, -1);
    return new org.openbook.solr.SolrCollectionStatus("kb",
        org.openbook.solr.SolrCollectionStatus.Health.DEGRADED, java.util.List.of(shard1, shard2),
        new org.openbook.solr.SolrCollectionStatus.Manifest("bge-small-zh-v1.5", 512, "cosine",
            "openbook-zh-v3", "structured-400"), true,
        java.util.List.of("shard2 has no active replica: searches fail"));
  }

  @Test
  void should_print_shards_replicas_counts_manifest_and_problems() {
    StringWriter out = new StringWriter();
    SolrCommand.Status.printText(new PrintWriter(out, true), degraded());

    assertThat(out.toString().split("\n")).containsExactly(
        "collection kb: DEGRADED",
        "  shard1 (active): 40 chunks, 12 documents",
        "    core_node1 on 127.0.0.1:8983_solr: active (leader)",
        "  shard2 (active): counts unknown",
        "    core_node2 on 127.0.0.1:8984_solr: down",
        "manifest: model bge-small-zh-v1.5, dimension 512, analyzer openbook-zh-v3, chunker"
            + " structured-400 — matches this build",
        "problem: shard2 has no active replica: searches fail");
  }

  @Test
  void should_write_status_as_json_with_exit_code() throws Exception {
    var node = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(SolrCommand.Status.toJson(degraded()));

    assertThat(node.get("health").asText()).isEqualTo("DEGRADED");
    assertThat(node.get("exitCode").asInt()).isEqualTo(1);
    assertThat(node.at("/shards/1/chunks").asLong()).isEqualTo(-1);
    assertThat(node.at("/shards/0/replicas/0/leader").asBoolean()).isTrue();
    assertThat(node.at("/manifest/embeddingModel").asText()).isEqualTo("bge-small-zh-v1.5");
    assertThat(node.get("manifestMatches").asBoolean()).isTrue();
  }
}
