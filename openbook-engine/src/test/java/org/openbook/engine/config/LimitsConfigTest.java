package org.openbook.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.document.LoadLimits;

/** Issue 30 items 4, 5, 12: the limit and quota keys, their defaults and their validation. */
class LimitsConfigTest {
  @TempDir Path dir;

  @Test
  void should_fill_in_every_limit_default_when_nothing_is_configured() throws Exception {
    Settings s = ConfigYaml.read(dir, "server: {}\n").resolve(Map.of());

    assertThat(s.server().limits()).isEqualTo(ServerLimits.DEFAULTS);
    assertThat(s.ingest().loaders().limits()).isEqualTo(LoadLimits.DEFAULTS);
  }

  @Test
  void should_read_the_server_limits_quotas_and_ingest_caps() throws Exception {
    Settings s = ConfigYaml.read(dir, """
        server:
          bodyTimeoutSeconds: 5
          minBodyBytesPerSecond: 0
          maxConcurrentPerPrincipal: 3
          quotas: {maxConversationsPerPrincipal: 10, maxTurnsPerConversation: 4,
                   maxFeedbackPerPrincipal: 7, maxJobsPerPrincipal: 2}
        ingest:
          maxInflatedBytes: 1000
          maxXmlNodes: 2000
          maxOcrPagePixels: 3000
          maxOcrPixels: 4000
          ocrTimeoutSeconds: 9
        """).resolve(Map.of());

    assertThat(s.server().limits()).isEqualTo(
        new ServerLimits(Duration.ofSeconds(5), 0, 3, 10, 4, 7, 2));
    assertThat(s.ingest().loaders().limits()).isEqualTo(
        new LoadLimits(1000, 2000, 3000, 4000, Duration.ofSeconds(9)));
  }

  @Test
  void should_refuse_a_limit_below_one_naming_its_key() throws Exception {
    OpenBookConfig zero = ConfigYaml.read(dir, "server: {maxConcurrentPerPrincipal: 0}\n");
    OpenBookConfig quota = ConfigYaml.read(dir,
        "server: {quotas: {maxTurnsPerConversation: -1}}\n");
    OpenBookConfig nodes = ConfigYaml.read(dir, "ingest: {maxXmlNodes: 0}\n");

    assertThatThrownBy(() -> zero.resolve(Map.of()))
        .hasMessageContaining("server.maxConcurrentPerPrincipal");
    assertThatThrownBy(() -> quota.resolve(Map.of()))
        .hasMessageContaining("server.quotas.maxTurnsPerConversation");
    assertThatThrownBy(() -> nodes.resolve(Map.of())).hasMessageContaining("ingest.maxXmlNodes");
  }
}
