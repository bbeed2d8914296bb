package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;

class AuthenticatorTest {

  private static Settings config(Map<String, String> tokens) {
    return new OpenBookConfig(Map.of("hr", List.of("hr")), null, null, null, null, null,
        new OpenBookConfig.Server(tokens, List.of("hr"), null, null, null, null, null, null, null),
        null)
        .resolve(Map.of());
  }

  @Test
  void should_map_a_token_to_the_configured_departments_plus_public() {
    Authenticator auth = new Authenticator(config(Map.of("t1", "hr", "t2", "guest")));

    assertThat(auth.authenticate("Bearer t1").departments()).containsExactlyInAnyOrder("hr", "public");
    assertThat(auth.authenticate("bearer  t2 ").departments()).containsExactly("public");
    assertThat(auth.authenticate("Bearer t2").name()).isEqualTo("guest");
  }

  @Test
  void should_refuse_missing_malformed_and_unknown_tokens_with_401() {
    Authenticator auth = new Authenticator(config(Map.of("t1", "hr")));

    for (String header : new String[] {null, "", "Basic dDE6", "Bearer t", "Bearer t1x"}) {
      assertThatThrownBy(() -> auth.authenticate(header))
          .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
    }
  }

  @Test
  void should_allow_writes_only_to_listed_writers() {
    Authenticator auth = new Authenticator(config(Map.of("t1", "hr", "t2", "guest")));

    Authenticator.requireWriter(auth.identify("Bearer t1"));
    assertThatThrownBy(() -> Authenticator.requireWriter(auth.identify("Bearer t2")))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(403));
  }

  @Test
  void should_reject_a_blank_token_in_the_config() {
    assertThatThrownBy(() -> new Authenticator(config(Map.of(" ", "hr"))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server.tokens");
  }
}
