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
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
    auth = auth(Map.of("finance-team", List.of("finance"), "hr-team", List.of("HR")),
        OpenBookConfig.Oidc.Grant.NONE);
  }

  /**
   * An authenticator with static tokens for visitor, admin (hr, finance; writer) and hrwriter
   * (hr; writer), a {@code principals} table that also lists {@code admin} and {@code
   * finance-team}, and OIDC with {@code groups} and {@code writers} as given.
   */
  private Authenticator auth(Map<String, List<String>> groups, OpenBookConfig.Oidc.Grant writers) {
    return auth(ISS, groups, writers);
  }

  private Authenticator auth(String issuer, Map<String, List<String>> groups,
      OpenBookConfig.Oidc.Grant writers) {
    OpenBookConfig.Oidc oidc = new OpenBookConfig.Oidc(issuer, AUD,
        "http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks", "groups", null, 30,
        groups, writers);
    return new Authenticator(new OpenBookConfig(
        Map.of("admin", List.of("hr", "finance"), "hrwriter", List.of("hr"),
            "finance-team", List.of("finance"), "visitor", List.of()), null, null, null,
        null, null, new OpenBookConfig.Server(Map.of("static-token", "visitor",
            "tok-admin", "admin", "tok-hrwriter", "hrwriter"), List.of("admin", "hrwriter",
            "alice"), null, null, null, null, null, null, oidc), null).resolve(Map.of()));
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
    Identity id = auth.identify("Bearer " + sign(key, claims().build()));

    assertThat(id.id()).isEqualTo("oidc:" + ISS + "#u-1");
    assertThat(id.displayName()).isEqualTo("alice");
    // "/finance-team" (a Keycloak group path) maps; the unknown "sales" adds nothing
    assertThat(id.principal().departments()).containsExactlyInAnyOrder("finance", "public");
    // "alice" is in server.writers, but writers of a token are granted by server.oidc.writers
    assertThat(id.writer()).isFalse();
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
    assertThat(auth.identify("Bearer " + sign(key,
        claims().expirationTime(Date.from(now.minusSeconds(10))).build())).displayName())
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

    Identity id = auth.identify("Bearer " + sign(rotated, claims().build()));

    assertThat(id.displayName()).isEqualTo("alice");
  }

  // issue 30, item 2: token identities live in their own namespace ---------------------------

  private Identity identify(Authenticator a, JWTClaimsSet c) throws Exception {
    return a.identify("Bearer " + sign(key, c));
  }

  /** Claims with only iss, aud, exp and {@code sub}. */
  private static JWTClaimsSet.Builder bare(String sub) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder().issuer(ISS).audience(AUD).subject(sub)
        .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
  }

  @Test
  void i30_2_should_not_make_a_token_naming_admin_the_static_admin() throws Exception {
    Identity admin = auth.identify("Bearer tok-admin");
    Identity jwt = identify(auth, bare("u-9").claim("preferred_username", "admin").build());

    assertThat(admin.id()).isEqualTo("admin");
    assertThat(admin.writer()).isTrue();
    assertThat(jwt.id()).isEqualTo("oidc:" + ISS + "#u-9").isNotEqualTo(admin.id());
    assertThat(jwt.displayName()).isEqualTo("admin");
    assertThat(jwt.writer()).isFalse();
    assertThat(jwt.principal().departments()).containsExactly("public");
    assertThatThrownBy(() -> Authenticator.requireWriter(jwt))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(403));
  }

  @Test
  void i30_2_should_not_make_a_token_whose_sub_names_a_writer_a_writer() throws Exception {
    Identity jwt = identify(auth, bare("hrwriter").build());

    assertThat(jwt.id()).isEqualTo("oidc:" + ISS + "#hrwriter");
    assertThat(jwt.displayName()).isEqualTo("hrwriter");
    assertThat(jwt.writer()).isFalse();
    assertThat(jwt.principal().departments()).containsExactly("public");
  }

  @Test
  void i30_2_should_not_look_token_groups_up_in_the_principals_table() throws Exception {
    // "admin" and "finance-team" are principals (hr+finance, finance), not token groups here
    Identity unmapped = identify(auth(Map.of(), OpenBookConfig.Oidc.Grant.NONE),
        bare("u-2").claim("groups", List.of("admin", "/finance-team")).build());
    Identity mapped = identify(auth(Map.of("admin", List.of("Finance")),
        OpenBookConfig.Oidc.Grant.NONE), bare("u-2").claim("groups", List.of("admin")).build());

    assertThat(unmapped.principal().departments()).containsExactly("public");
    assertThat(unmapped.writer()).isFalse();
    assertThat(mapped.principal().departments()).containsExactlyInAnyOrder("finance", "public");
    assertThat(mapped.writer()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"admin", "Admin", "ADMIN", "ａｄｍｉｎ", "admin\u200b", " admin ",
      "hrwriter", "oidc:admin", "visitor"})
  void i30_2_should_never_equal_a_static_principal_whatever_the_name_claims(String name)
      throws Exception {
    Authenticator a = auth(Map.of(), new OpenBookConfig.Oidc.Grant(List.of("editors"),
        List.of("u-writer")));
    Set<String> statics = Set.of("admin", "hrwriter", "visitor");

    for (JWTClaimsSet c : List.of(bare(name).build(), bare("u-3")
        .claim("preferred_username", name).build(), bare(name).claim("preferred_username", name)
        .claim("groups", List.of(name)).build())) {
      Identity id = identify(a, c);

      assertThat(id.id()).startsWith("oidc:" + ISS + "#");
      assertThat(statics).doesNotContain(id.id());
      assertThat(id.writer()).isFalse();
      assertThat(id.principal().departments()).containsExactly("public");
    }
  }

  @Test
  void i30_2_should_keep_the_same_sub_of_two_issuers_apart() throws Exception {
    String other = "https://idp2.example.test/realms/acme";
    Identity first = identify(auth, bare("u-1").build());
    Identity second = auth(other, Map.of(), OpenBookConfig.Oidc.Grant.NONE).identify("Bearer "
        + sign(key, bare("u-1").issuer(other).build()));

    assertThat(first.id()).isNotEqualTo(second.id());
    assertThat(second.id()).isEqualTo("oidc:" + other + "#u-1");
    // a '#' in an issuer is encoded, so issuer/sub cannot be re-cut into another pair
    assertThat(JwtVerifier.principalId("https://a#b", "c"))
        .isNotEqualTo(JwtVerifier.principalId("https://a", "b#c"));
    // and the issuer's token is refused by the first configuration
    assertRefused(sign(key, bare("u-1").issuer(other).build()));
  }

  @Test
  void i30_2_should_grant_writing_to_a_listed_group_or_subject_only() throws Exception {
    Authenticator a = auth(Map.of("editors", List.of("hr")),
        new OpenBookConfig.Oidc.Grant(List.of("editors"), List.of("u-writer")));

    Identity byGroup = identify(a, bare("u-5").claim("groups", List.of("/editors")).build());
    Identity bySub = identify(a, bare("u-writer").build());
    Identity neither = identify(a, bare("u-6").claim("groups", List.of("Editors", "editor"))
        .claim("preferred_username", "u-writer").build());

    assertThat(byGroup.writer()).isTrue();
    assertThat(byGroup.principal().departments()).containsExactlyInAnyOrder("hr", "public");
    assertThat(bySub.writer()).isTrue();
    assertThat(bySub.principal().departments()).containsExactly("public");
    assertThat(neither.writer()).isFalse();
    Authenticator.requireWriter(byGroup);
  }

  @Test
  void i30_2_should_refuse_a_token_without_sub() throws Exception {
    Instant now = Instant.now();
    assertRefused(sign(key, new JWTClaimsSet.Builder().issuer(ISS).audience(AUD)
        .claim("preferred_username", "admin").expirationTime(Date.from(now.plusSeconds(300)))
        .build()));
  }

  @Test
  void i30_2_should_refuse_a_static_principal_in_the_token_namespace() {
    assertThatThrownBy(() -> new Authenticator(new OpenBookConfig(Map.of(), null, null, null,
        null, null, new OpenBookConfig.Server(Map.of("t", "OIDC:" + ISS + "#u-1"), List.of(),
            null, null, null, null, null, null, null), null).resolve(Map.of())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("server.tokens");
  }
}
