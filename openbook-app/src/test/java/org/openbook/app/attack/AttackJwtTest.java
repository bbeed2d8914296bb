package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 30, attack suite: forged bearer tokens and cross-origin requests against a real
 * {@code openbook serve} whose OIDC issuer publishes its JWKS on 127.0.0.1. {@code alg: none} in
 * any spelling, HS256 "signed" with the RSA public key (algorithm confusion), a foreign key with
 * the published {@code kid}, an embedded {@code jwk} or a {@code jku} pointing elsewhere, wrong
 * claims, and oversized tokens are all refused (401, or 431 for a header over Jetty's limit), and
 * the server stays healthy. A preflight or request from {@code http://evil.example} gets no
 * {@code Access-Control-Allow-Origin} for it.
 */
@ExtendWith(RealServer.Extension.class)
@org.junit.jupiter.api.Tag("attack")
class AttackJwtTest {
  private static RealServer s;
  private static String asFinance;

  @BeforeAll
  static void setUp() throws Exception {
    s = RealServer.shared();
    asFinance = s.jwt(s.claims("mallory", List.of("finance-team")).build());
  }

  private static JWTClaimsSet claims() {
    return RealServer.shared().claims("mallory", List.of("finance-team")).build();
  }

  private static String b64(String json) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        json.getBytes(StandardCharsets.UTF_8));
  }

  private static String hs256(byte[] secret, String kid) throws Exception {
    SignedJWT hs = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(),
        claims());
    hs.sign(new MACSigner(secret.length >= 32 ? secret
        : java.util.Arrays.copyOf(secret, 32)));
    return hs.serialize();
  }

  static Stream<Arguments> forged() throws Exception {
    RealServer srv = RealServer.shared();
    RSAKey pub = srv.key.toPublicJWK();
    String payload = b64(claims().toString());
    RSAKey foreign = new RSAKeyGenerator(2048).keyID(RealServer.KID).generate();
    ECKey foreignEc = new ECKeyGenerator(Curve.P_256).keyID(RealServer.KID).generate();
    SignedJWT es = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256)
        .keyID(RealServer.KID).build(), claims());
    es.sign(new ECDSASigner(foreignEc));
    RSAKey attacker = new RSAKeyGenerator(2048).keyID("attacker").generate();
    SignedJWT embedded = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256)
        .keyID("attacker").jwk(attacker.toPublicJWK()).build(), claims());
    embedded.sign(new RSASSASigner(attacker));
    SignedJWT jku = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("attacker")
        .jwkURL(URI.create(srv.oobUrl("jwks"))).build(), claims());
    jku.sign(new RSASSASigner(attacker));
    String valid = srv.jwt(claims());
    String[] parts = valid.split("\\.");
    String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes())
        .encodeToString(pub.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    Instant now = Instant.now();
    return Stream.of(
        Arguments.of("alg none (nimbus PlainJWT)", new PlainJWT(claims()).serialize()),
        Arguments.of("alg none with a signature", b64("{\"alg\":\"none\",\"kid\":\"k1\"}") + "."
            + payload + "." + parts[2]),
        Arguments.of("alg None", b64("{\"alg\":\"None\"}") + "." + payload + "."),
        Arguments.of("alg NONE", b64("{\"alg\":\"NONE\",\"typ\":\"JWT\"}") + "." + payload + "."),
        Arguments.of("alg nOnE", b64("{\"alg\":\"nOnE\"}") + "." + payload + "."),
        Arguments.of("no alg", b64("{\"typ\":\"JWT\"}") + "." + payload + "."),
        Arguments.of("valid header, payload swapped", parts[0] + "." + b64(srv.claims("admin",
            List.of("finance-team", "hr-team")).build().toString()) + "." + parts[2]),
        Arguments.of("HS256 with the DER public key",
            hs256(pub.toRSAPublicKey().getEncoded(), RealServer.KID)),
        Arguments.of("HS256 with the PEM public key",
            hs256(pem.getBytes(StandardCharsets.UTF_8), RealServer.KID)),
        Arguments.of("HS256 with the JWK JSON", hs256(pub.toJSONString()
            .getBytes(StandardCharsets.UTF_8), RealServer.KID)),
        Arguments.of("HS256 with the modulus", hs256(pub.getModulus().decode(), RealServer.KID)),
        Arguments.of("HS256 with kid path injection", hs256(new byte[32], "../../../../dev/null")),
        Arguments.of("foreign RSA key, same kid", RealServer.sign(foreign, claims())),
        Arguments.of("foreign EC key, same kid", es.serialize()),
        Arguments.of("embedded jwk header", embedded.serialize()),
        Arguments.of("jku header", jku.serialize()),
        Arguments.of("expired", srv.jwt(srv.claims("mallory", List.of("finance-team"))
            .expirationTime(Date.from(now.minusSeconds(600))).build())),
        Arguments.of("not yet valid", srv.jwt(srv.claims("mallory", List.of("finance-team"))
            .notBeforeTime(Date.from(now.plusSeconds(600))).build())),
        Arguments.of("no exp", srv.jwt(srv.claims("mallory", List.of("finance-team"))
            .expirationTime(null).build())),
        Arguments.of("wrong issuer", srv.jwt(srv.claims("mallory", List.of("finance-team"))
            .issuer("https://evil.example/realms/acme").build())),
        Arguments.of("wrong audience", srv.jwt(srv.claims("mallory", List.of("finance-team"))
            .audience("other-app").build())),
        Arguments.of("bad signature bytes", parts[0] + "." + parts[1] + "."
            + Base64URL.encode(new byte[256])),
        Arguments.of("4 KB header", b64("{\"alg\":\"RS256\",\"kid\":\"k1\",\"x\":\""
            + "x".repeat(3000) + "\"}") + "." + payload + "." + parts[2]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forged")
  void should_refuse_a_forged_token_with_401(String what, String token) throws Exception {
    int fetches = s.oobHits.get();
    for (String path : new String[] {"/v1/me", "/v1/documents", "/v1/conversations"}) {
      HttpResponse<String> r = s.get(path, token);

      assertThat(r.statusCode()).as("%s on %s: %s", what, path, r.body()).isEqualTo(401);
      assertThat(r.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
      assertThat(json(r).at("/error/field").asText()).isEqualTo("Authorization");
      assertThat(r.body()).doesNotContain(token).doesNotContain("finance");
    }
    HttpResponse<String> search = s.post("/v1/search", token,
        "{\"question\":\"研发投入是多少？\",\"k\":20}");
    assertThat(search.statusCode()).isEqualTo(401);
    assertThat(search.body()).doesNotContain(AttackCorpus.FINANCE_ID, "4,800");
    assertThat(s.oobHits.get()).as("URLs named in token headers fetched").isEqualTo(fetches);
    s.assertHealthy();
  }

  @Test
  void should_accept_the_genuine_token_so_the_refusals_can_fail() throws Exception {
    HttpResponse<String> r = s.get("/v1/me", asFinance);

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(json(r).get("departments").toString()).contains("finance");
    assertThat(s.post("/v1/search", asFinance, "{\"question\":\"研发投入是多少？\",\"k\":20}")
        .body()).contains("4,800");
  }

  @Test
  void should_refuse_a_64_kb_token_and_stay_healthy() throws Exception {
    String[] parts = asFinance.split("\\.");
    String huge = b64("{\"alg\":\"RS256\",\"kid\":\"k1\",\"x\":\"" + "x".repeat(64 * 1024)
        + "\"}") + "." + parts[1] + "." + parts[2];

    RealServer.Raw r = s.raw("GET /v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
        + huge + "\r\nConnection: close\r\n\r\n", 30);
    HttpResponse<String> big = s.get("/v1/me", "x".repeat(7000) + "." + "y".repeat(10) + "."
        + "z".repeat(10));

    assertThat(r.status()).as(r.head()).isIn(401, 431);
    assertThat(r.body()).doesNotContain("finance");
    assertThat(big.statusCode()).isIn(401, 431);
    s.assertHealthy();
    assertThat(s.get("/v1/me", asFinance).statusCode()).isEqualTo(200);
  }

  static Stream<Arguments> crossOrigin() {
    return Stream.of("/v1/search", "/v1/ask", "/v1/documents", "/v1/me",
        "/v1/conversations").flatMap(p -> Stream.of("http://evil.example", "null",
        "http://127.0.0.1.evil.example").map(o -> Arguments.of(p, o)));
  }

  @ParameterizedTest(name = "{1} -> {0}")
  @MethodSource("crossOrigin")
  void should_give_no_cross_origin_grant_to_another_origin(String path, String origin)
      throws Exception {
    HttpResponse<String> preflight = s.send(HttpRequest.newBuilder(s.uri(path))
        .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", origin)
        .header("Access-Control-Request-Method", "POST")
        .header("Access-Control-Request-Headers", "authorization,content-type"), null);
    HttpResponse<String> real = s.send(HttpRequest.newBuilder(s.uri(path)).GET()
        .header("Origin", origin), "tok-admin");

    for (HttpResponse<String> r : List.of(preflight, real)) {
      assertThat(r.headers().allValues("Access-Control-Allow-Origin")).as("%s %s", path,
          r.statusCode()).noneMatch(v -> v.equals(origin) || v.equals("*"));
      assertThat(r.headers().firstValue("Access-Control-Allow-Credentials")).isEmpty();
    }
    assertThat(preflight.headers().firstValue("Access-Control-Allow-Headers")).isEmpty();
  }

  // ---- item 2: JWT identities live in their own namespace -----------------------------------

  /**
   * Issue 30 item 2: a token naming a configured principal or writer by name, or a group that
   * is a principal's name, gets none of that principal's rights or data.
   */
  @Test
  void i30_2_should_never_make_a_token_identity_a_configured_principal_or_writer()
      throws Exception {
    String adminConversation = json(s.ask("tok-admin", "2024 年度奖金 FINBONUS-8812 何时发放？"))
        .get("conversationId").asText();
    Instant now = Instant.now();
    JWTClaimsSet.Builder base = new JWTClaimsSet.Builder().issuer(RealServer.ISSUER)
        .audience(RealServer.AUDIENCE).issueTime(Date.from(now))
        .expirationTime(Date.from(now.plusSeconds(300)));
    List<String> tokens = List.of(
        s.jwt(s.claims("admin", null).build()),
        s.jwt(base.subject("hrwriter").build()),
        s.jwt(s.claims("hrwriter", List.of()).build()),
        s.jwt(s.claims("someone", List.of("admin")).build()),
        s.jwt(s.claims("someone-else", List.of("hrwriter", "/admin")).build()),
        s.jwt(base.subject("admin").claim("groups", List.of("admin")).build()));
    for (String token : tokens) {
      JsonNode me = json(s.get("/v1/me", token));
      assertThat(me.get("writer").asBoolean()).as(me.toString()).isFalse();
      assertThat(me.get("departments").toString()).as(me.toString())
          .doesNotContain("finance", "\"hr\"");
      HttpResponse<String> upload = s.upload(token, null,
          RealServer.file("jwt-writer.md", "# JWT\n\nwritten by a token identity\n"));
      assertThat(upload.statusCode()).as(upload.body()).isEqualTo(403);
      assertThat(s.delete("/v1/documents/public%2Freturns.md", token).statusCode())
          .isIn(403, 404);
      assertThat(s.get("/v1/conversations?limit=500", token).body())
          .doesNotContain(adminConversation);
      assertThat(s.get("/v1/conversations/" + adminConversation, token).statusCode())
          .isEqualTo(404);
      assertThat(s.post("/v1/search", token, "{\"question\":\"annual bonus code\",\"k\":20}")
          .body()).doesNotContain("FINBONUS-8812");
    }
    assertThat(Files.exists(s.docs.resolve("public/returns.md"))).isTrue();
  }

  // ---- item 9: log injection --------------------------------------------------------------------

  /** Issue 30 item 9: values from a request (token claims, questions, paths) cannot forge log lines. */
  @Test
  void i30_9_should_escape_request_values_in_the_server_log() throws Exception {
    String forged = "[main] ERROR forged line";
    long mark = s.logMark();
    String eve = s.jwt(s.claims("eve\r\n" + forged + " by name", List.of()).build());
    String badIssuer = s.jwt(s.claims("eve", List.of()).issuer("https://x\r\n" + forged
        + " by issuer").build());
    String badAudience = s.jwt(s.claims("eve", List.of()).audience("x\n" + forged
        + " by audience").build());

    s.get("/v1/me", eve);
    s.post("/v1/search", eve, "{\"question\":\"hotline\\r\\n" + forged + " by question\"}");
    s.post("/v1/ask", eve, "{\"question\":\"\\ud800\"}");
    s.post("/v1/ask", eve, "{\"question\":\"\\u0000\"}");
    s.upload(eve, null, RealServer.file("x.md", "# x\n"));
    s.get("/v1/me", badIssuer);
    s.get("/v1/me", badAudience);
    String encoded = java.net.URLEncoder.encode("\r\n" + forged, StandardCharsets.UTF_8)
        .replace("+", "%20");
    s.get("/v1/jobs/j-" + encoded + "%20by%20path", eve);
    s.delete("/v1/documents/a" + encoded + "%20by%20source.md", "tok-admin");
    Thread.sleep(500);

    for (String line : s.logSince(mark).split("\r\n|\r|\n")) {
      assertThat(line).as("a log line that begins with a forged prefix").doesNotStartWith(forged);
    }
  }
}
