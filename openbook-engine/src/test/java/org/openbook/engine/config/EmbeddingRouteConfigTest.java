package org.openbook.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code embedding.routes}: defaults, the README example, and errors naming the key. */
class EmbeddingRouteConfigTest {

  @TempDir Path dir;

  private Settings resolve(String yaml, Map<String, String> env) throws Exception {
    return ConfigYaml.read(dir, yaml).resolve(env);
  }

  @Test
  void i22_3_should_keep_the_in_process_models_when_nothing_is_configured() throws Exception {
    Settings s = resolve("embedding:\n  queryInstruction:\n    zh: \"\"\n", Map.of());
    assertThat(s.embedding().inProcess()).isTrue();
    assertThat(OpenBookConfig.defaults().resolve(Map.of()).embedding().inProcess()).isTrue();
    assertThat(s.embedding().zh().provider()).isEqualTo("onnx");
  }

  @Test
  void i22_3_should_read_the_readme_example() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("### Remote embedding models.*?```yaml\\n(.*?)```",
        Pattern.DOTALL).matcher(readme);
    assertThat(m.find()).isTrue();
    Settings s = resolve(m.group(1), Map.of("OPENBOOK_EMBEDDING_API_KEY", "sk-readme"));
    EmbeddingRoute zh = s.embedding().zh();
    assertThat(zh.provider()).isEqualTo("openai");
    assertThat(zh.url()).contains("http://gpu-box:8000/v1");
    assertThat(zh.model()).isEqualTo("BAAI/bge-m3");
    assertThat(zh.apiKey()).contains("sk-readme");
    assertThat(zh.timeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(zh.options().dimension()).isEqualTo(1024);
    assertThat(zh.options().batchSize()).isEqualTo(32);
    assertThat(zh.options().concurrency()).isEqualTo(2);
    assertThat(zh.options().maxRetries()).isEqualTo(4);
    assertThat(zh.options().initialBackoff()).isEqualTo(Duration.ofMillis(500));
    assertThat(zh.options().maxInputTokens()).isEqualTo(512);
    assertThat(s.embedding().en().provider()).isEqualTo("none");
    assertThat(zh.toString()).doesNotContain("sk-readme");
  }

  @Test
  void i22_3_should_name_the_key_of_an_invalid_route() {
    String remote = "embedding:\n  routes:\n    zh:\n      provider: ollama\n"
        + "      url: http://127.0.0.1:11434\n      model: bge-m3\n";
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    zh:\n      provider: cohere\n",
        Map.of())).hasMessageContaining("embedding.routes.zh.provider");
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    zh:\n      provider: tei\n"
        + "      model: m\n", Map.of())).hasMessageContaining("embedding.routes.zh.url");
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    zh:\n      provider: tei\n"
        + "      url: http://h\n", Map.of())).hasMessageContaining("embedding.routes.zh.model");
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    zh:\n      provider: none\n",
        Map.of())).hasMessageContaining("embedding.routes.zh.provider none");
    assertThatThrownBy(() -> resolve(remote + "      apiKeyEnv: NOT_SET_ANYWHERE\n", Map.of()))
        .hasMessageContaining("embedding.routes.zh.apiKeyEnv").hasMessageContaining("NOT_SET");
    assertThatThrownBy(() -> resolve(remote + "      batchSize: 0\n", Map.of()))
        .hasMessageContaining("embedding.routes.zh.batchSize");
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    fr:\n      provider: onnx\n",
        Map.of())).hasMessageContaining("embedding.routes").hasMessageContaining("'fr'");
    assertThatThrownBy(() -> resolve("embedding:\n  routes:\n    en:\n      provider: onnx\n"
        + "      model: bge-m3\n", Map.of())).hasMessageContaining("embedding.routes.en.");
    assertThatThrownBy(() -> ConfigYaml.read(dir, remote + "      apikey: x\n"))
        .hasMessageContaining("apikey");
  }

  @Test
  void i22_3_should_take_the_key_from_the_named_variable_over_the_file() throws Exception {
    Settings s = resolve("embedding:\n  routes:\n    zh:\n      provider: tei\n"
        + "      url: http://127.0.0.1:8080\n      model: m\n      apiKey: in-file\n"
        + "      apiKeyEnv: MY_KEY\n", Map.of("MY_KEY", "from-env"));
    assertThat(s.embedding().zh().apiKey()).contains("from-env");
  }
}
