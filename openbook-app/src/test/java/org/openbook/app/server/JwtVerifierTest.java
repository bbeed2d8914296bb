package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Principal;

/**
 * OIDC/JWT bearer tokens against a JWKS endpoint on 127.0.0.1 with keys generated here: the
 * accepted token and each way a token must be refused.
 */
class JwtVerifierTest {
  private static final String ISS = "https://idp.example.test/realms/acme";
  private static final String AUD = "openbook";

  private HttpServer jwks;
  private final AtomicInteger fetches = new AtomicInteger();
  private final AtomicReference<JWKSet> published = new AtomicReference<>();
  private RSAKey key;
  private Authenticator auth;

  @BeforeEach
  void start() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    published.set(new JWKSet(key.toPublicJWK()));
    jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jwks.createContext("/jwks", ex -> {
      fetches.incrementAndGet();
      byte[] body = published.get().toString().getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    jwks.start();
    OpenBookConfig.Oidc oidc = new OpenBookConfig.Oidc(ISS, AUD,
        "http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks", "groups", null, 30);
    auth = new Authenticator(new OpenBookConfig(
        Map.of("finance-team", List.of("finance"), "hr-team", List.of("HR")), null, null, null,
        null, null, new OpenBookConfig.Server(Map.of("static-token", "visitor"), List.of("alice"),
            null, null, null, null, null, null, oidc), null).resolve(Map.of()));
  }

  @AfterEach
  void stop() {
    jwks.stop(0);
  }

  private JWTClaimsSet.Builder claims() {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder().issuer(ISS).audience(AUD).subject("u-1")
        .claim("preferred_username", "alice").claim("groups", List.of("/finance-team", "sales"))
        .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
  }

  private static String sign(RSAKey k, JWTClaimsSet c) throws Exception {
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(k.getKeyID())
        .type(JOSEObjectType.JWT).build(), c);
    jwt.sign(new RSASSASigner(k));
    return jwt.serialize();
  }

  private void assertRefused(String token) {
    assertThatThrownBy(() -> auth.authenticate("Bearer " + token))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.status()).isEqualTo(401);
          assertThat(e.field()).isEqualTo("Authorization");
        });
  }

  @Test
  void should_accept_a_valid_token_and_map_its_groups_to_departments() throws Exception {
    Principal p = auth.authenticate("Bearer " + sign(key, claims().build()));

    assertThat(p.name()).isEqualTo("alice");
    // "/finance-team" (a Keycloak group path) maps; the unknown "sales" adds nothing
    assertThat(p.departments()).containsExactlyInAnyOrder("finance", "public");
    assertThat(auth.authenticate("Bearer static-token").name()).isEqualTo("visitor");
  }

  @Test
  void should_give_an_unknown_group_public_only() throws Exception {
    Principal p = auth.authenticate("Bearer "
        + sign(key, claims().claim("groups", "contractors").build()));

    assertThat(p.departments()).containsExactly("public");
  }

  @Test
  void should_refuse_an_expired_token_beyond_the_skew_but_accept_one_within_it()
      throws Exception {
    Instant now = Instant.now();
    assertRefused(sign(key, claims().expirationTime(Date.from(now.minusSeconds(120))).build()));
    assertThat(auth.authenticate("Bearer " + sign(key,
        claims().expirationTime(Date.from(now.minusSeconds(10))).build())).name())
        .isEqualTo("alice");
    assertRefused(sign(key, claims().notBeforeTime(Date.from(now.plusSeconds(120))).build()));
  }

  @Test
  void should_refuse_a_wrong_audience_or_issuer_or_a_missing_expiry() throws Exception {
    assertRefused(sign(key, claims().audience("other-app").build()));
    assertRefused(sign(key, claims().issuer("https://evil.example.test").build()));
    assertRefused(sign(key, claims().expirationTime(null).build()));
  }

  @Test
  void should_refuse_a_bad_signature() throws Exception {
    String token = sign(key, claims().build());
    String[] parts = token.split("\\.");
    String forged = parts[0] + "." + Base64URL.encode(claims().claim("groups", "hr-team").build()
        .toString()) + "." + parts[2];

    assertRefused(forged);
    RSAKey other = new RSAKeyGenerator(2048).keyID("k1").generate();
    assertRefused(sign(other, claims().build()));
  }

  @Test
  void should_refuse_alg_none_and_hs256_signed_with_the_public_key() throws Exception {
    assertRefused(new PlainJWT(claims().build()).serialize());
    SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(),
        claims().build());
    // algorithm confusion: the public key's bytes used as an HMAC secret
    byte[] secret = key.toPublicJWK().toRSAPublicKey().getEncoded();
    hs.sign(new MACSigner(secret));

    assertRefused(hs.serialize());
  }

  @Test
  void should_refetch_the_jwks_once_for_an_unknown_kid_then_refuse() throws Exception {
    auth.authenticate("Bearer " + sign(key, claims().build()));
    int before = fetches.get();
    RSAKey unknown = new RSAKeyGenerator(2048).keyID("k-unknown").generate();

    assertRefused(sign(unknown, claims().build()));

    assertThat(fetches.get() - before).isEqualTo(1);
  }

  @Test
  void should_accept_a_token_signed_with_a_rotated_key_after_refetching() throws Exception {
    auth.authenticate("Bearer " + sign(key, claims().build()));
    RSAKey rotated = new RSAKeyGenerator(2048).keyID("k2").generate();
    published.set(new JWKSet(List.of(rotated.toPublicJWK(), key.toPublicJWK())));
    // the rate limit allows one refetch per second
    Thread.sleep((JwtVerifier.REFETCH_SECONDS * 1000) + 100);

    Principal p = auth.authenticate("Bearer " + sign(rotated, claims().build()));

    assertThat(p.name()).isEqualTo("alice");
  }
}
