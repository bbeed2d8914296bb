package org.openbook.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmConfigTest {

  @Test
  void should_be_absent_without_a_base_url() {
    assertThat(LlmConfig.fromEnvironment(Map.of())).isEmpty();
    assertThat(LlmConfig.fromEnvironment(Map.of("OPENBOOK_LLM_BASE_URL", " "))).isEmpty();
  }

  @Test
  void should_read_all_variables() {
    LlmConfig c = LlmConfig.fromEnvironment(Map.of(
        "OPENBOOK_LLM_BASE_URL", "https://api.deepseek.com/v1 ",
        "OPENBOOK_LLM_API_KEY", "sk-secret",
        "OPENBOOK_LLM_MODEL", "deepseek-chat",
        "OPENBOOK_LLM_TIMEOUT_SECONDS", "30")).orElseThrow();

    assertThat(c).isEqualTo(
        new LlmConfig("https://api.deepseek.com/v1", "sk-secret", "deepseek-chat", 30));
    assertThat(c.toString()).doesNotContain("sk-secret").contains("apiKey=***");
  }

  @Test
  void should_default_key_to_empty_and_timeout_to_sixty_seconds() {
    LlmConfig c = LlmConfig.fromEnvironment(Map.of(
        "OPENBOOK_LLM_BASE_URL", "http://localhost:11434/v1",
        "OPENBOOK_LLM_MODEL", "qwen2.5")).orElseThrow();

    assertThat(c.apiKey()).isEmpty();
    assertThat(c.timeoutSeconds()).isEqualTo(60);
  }

  @Test
  void should_name_the_missing_model_variable() {
    assertThatThrownBy(() -> LlmConfig.fromEnvironment(
            Map.of("OPENBOOK_LLM_BASE_URL", "http://localhost:11434/v1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("OPENBOOK_LLM_MODEL");
  }

  @Test
  void should_name_the_bad_timeout_variable() {
    assertThatThrownBy(() -> LlmConfig.fromEnvironment(Map.of(
            "OPENBOOK_LLM_BASE_URL", "http://localhost:11434/v1",
            "OPENBOOK_LLM_MODEL", "qwen2.5",
            "OPENBOOK_LLM_TIMEOUT_SECONDS", "soon")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("OPENBOOK_LLM_TIMEOUT_SECONDS")
        .hasMessageContaining("soon");
  }
}
