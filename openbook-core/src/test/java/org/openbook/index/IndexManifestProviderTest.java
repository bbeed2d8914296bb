package org.openbook.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedding provider per route in {@link IndexManifest} (issue 22, remote embeddings). */
class IndexManifestProviderTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static IndexManifest manifest(String provider, String enProvider) {
    return new IndexManifest("bge-m3", 1024, IndexManifest.COSINE, "a", "c", 0, 0,
        List.of(new DenseField("en", "bge-small-en-v1.5-q", 384, enProvider)), null, null,
        provider);
  }

  @Test
  void i22_3_should_read_a_manifest_written_before_providers_as_onnx() throws Exception {
    String old = "{\"embeddingModel\":\"bge-small-zh-v1.5\",\"dimension\":512,"
        + "\"metric\":\"cosine\",\"analyzer\":\"a\",\"chunker\":\"c\",\"documents\":3,"
        + "\"chunks\":9,\"denseFields\":[{\"name\":\"en\",\"model\":\"bge-small-en-v1.5-q\","
        + "\"dimension\":384}],\"vectorEncoding\":\"float32\"}";
    IndexManifest m = JSON.readValue(old, IndexManifest.class);
    assertThat(m.embeddingProvider()).isEqualTo("onnx");
    assertThat(m.denseField("en").orElseThrow().provider()).isEqualTo("onnx");
    // and it is compatible with today's default routes
    m.requireCompatible(new IndexManifest("bge-small-zh-v1.5", 512, IndexManifest.COSINE, "a",
        "c", 0, 0, List.of(new DenseField("en", "bge-small-en-v1.5-q", 384))));
    // a written manifest reads back with its providers
    IndexManifest remote = manifest("ollama", "tei");
    assertThat(JSON.readValue(JSON.writeValueAsString(remote), IndexManifest.class))
        .isEqualTo(remote);
  }

  @Test
  void i22_3_should_refuse_another_provider_on_either_route_with_the_reset_hint() {
    assertThatThrownBy(() -> manifest("ollama", "onnx").requireCompatible(
        manifest("tei", "onnx")))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("embedding provider: index has 'ollama', this run uses 'tei'")
        .hasMessageContaining("--reset");
    assertThatThrownBy(() -> manifest("ollama", "onnx").requireCompatible(
        manifest("ollama", "openai")))
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("en=openai:bge-small-en-v1.5-q/384")
        .hasMessageContaining("--reset");
    manifest("ollama", null).requireCompatible(manifest("ollama", "onnx"));
    assertThat(manifest("x", null).withCounts(1, 2).embeddingProvider()).isEqualTo("x");
  }
}
