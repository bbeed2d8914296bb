package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.openbook.index.IndexManifest;

class SolrAdminTest {

  private static Map<String, String> unzip(byte[] zip) throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        files.put(e.getName(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    return files;
  }

  private static IndexManifest manifest(int dimension) {
    return new IndexManifest("m", dimension, IndexManifest.COSINE, "a", "c", 0, 0);
  }

  @Test
  void should_write_dimension_into_configset_schema() throws IOException {
    Map<String, String> files = unzip(SolrAdmin.configSetZip(manifest(384)));

    assertThat(files).containsOnlyKeys("managed-schema.xml", "solrconfig.xml");
    assertThat(files.get("managed-schema.xml"))
        .contains("vectorDimension=\"384\"")
        .contains("similarityFunction=\"cosine\"")
        .doesNotContain(SolrSchema.FIELDS_PLACEHOLDER);
  }

  @Test
  void should_ship_exact_stats_cache_and_bm25_defaults() throws IOException {
    Map<String, String> files = unzip(SolrAdmin.configSetZip(manifest(256)));

    assertThat(files.get("solrconfig.xml"))
        .contains("<statsCache class=\"org.apache.solr.search.stats.ExactStatsCache\"/>");
    assertThat(files.get("managed-schema.xml"))
        .contains("<float name=\"k1\">1.2</float>")
        .contains("<float name=\"b\">0.75</float>");
  }

  @Test
  void should_name_configset_after_collection() {
    assertThat(SolrAdmin.configSetName("kb")).isEqualTo("openbook-kb");
  }
}
