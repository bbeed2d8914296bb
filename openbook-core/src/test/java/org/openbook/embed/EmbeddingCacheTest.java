package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.testing.HashEmbedder;

class EmbeddingCacheTest {

  @TempDir Path dir;

  @Test
  void should_return_a_committed_vector_after_reopening() throws IOException {
    float[] v = {0.6f, 0.8f};
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      cache.put("m1", "出差需提前申请。", v);
    }
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      assertThat(cache.get("m1", "出差需提前申请。", 2)).hasValueSatisfying(
          got -> assertThat(got).containsExactly(0.6f, 0.8f));
      assertThat(cache.size()).isEqualTo(1);
    }
  }

  @Test
  void should_key_by_model_id_and_text_and_check_the_dimension() throws IOException {
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      cache.put("m1", "text", new float[] {1f, 0f});

      assertThat(cache.get("m2", "text", 2)).isEmpty();
      assertThat(cache.get("m1", "text ", 2)).isEmpty();
      assertThat(cache.get("m1", "text", 3)).isEmpty();
      assertThat(cache.get("m1", "text", 2)).isPresent();
      assertThat(cache.hits()).isEqualTo(1);
      assertThat(cache.misses()).isEqualTo(3);
    }
  }

  @Test
  void should_lose_only_uncommitted_entries_when_not_closed() throws IOException {
    EmbeddingCache crashed = EmbeddingCache.open(dir);
    crashed.put("m", "a", new float[] {1f});
    crashed.commit();
    crashed.put("m", "b", new float[] {1f});
    // simulate a kill: drop the writer's lock without committing "b"
    Path copy = Files.createTempDirectory(dir.getParent(), "cache-copy");
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        if (!f.getFileName().toString().equals("write.lock")) {
          Files.copy(f, copy.resolve(f.getFileName()));
        }
      }
    }
    crashed.close();

    try (EmbeddingCache cache = EmbeddingCache.open(copy)) {
      assertThat(cache.get("m", "a", 1)).isPresent();
      assertThat(cache.get("m", "b", 1)).isEmpty();
    }
  }

  @Test
  void should_start_empty_when_the_cache_folder_is_corrupt() throws IOException {
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      cache.put("m", "a", new float[] {1f});
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith("segments"))
          .toList()) {
        Files.write(f, new byte[] {1, 2, 3});
      }
    }

    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      assertThat(cache.size()).isZero();
      assertThat(cache.get("m", "a", 1)).isEmpty();
      cache.put("m", "a", new float[] {1f});
      assertThat(cache.get("m", "a", 1)).isPresent();
    }
  }

  @Test
  void should_embed_only_texts_the_cache_does_not_hold() throws IOException {
    HashEmbedder model = new HashEmbedder();
    try (EmbeddingCache cache = EmbeddingCache.open(dir)) {
      CachingEmbedder cached = new CachingEmbedder(model, cache);
      List<float[]> first = cached.embedAll(List.of("报销需附发票。", "加班需主管审批。"));
      List<float[]> second = cached.embedAll(List.of("加班需主管审批。", "年假每年十天。", "报销需附发票。"));

      assertThat(model.calls()).isEqualTo(2);
      assertThat(model.textsEmbedded()).isEqualTo(3);
      assertThat(second.get(0)).containsExactly(first.get(1));
      assertThat(second.get(2)).containsExactly(first.get(0));
      assertThat(second.get(1)).containsExactly(model.embed("年假每年十天。"));
      assertThat(cached.modelId()).isEqualTo("test-hash-256");
    }
  }
}
