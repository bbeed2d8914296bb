package org.openbook.app.server;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;

/**
 * An OIDC issuer for server tests: a JWKS endpoint on 127.0.0.1 with one RSA key generated here,
 * and tokens signed with it for {@link #ISSUER} and audience {@link #AUDIENCE}.
 */
final class TestIssuer implements AutoCloseable {
  static final String ISSUER = "https://idp.example.test/realms/acme";
  static final String AUDIENCE = "openbook";

  private final RSAKey key;
  private final HttpServer jwks;

  TestIssuer() throws Exception {
    key = new RSAKeyGenerator(2048).keyID("k1").generate();
    byte[] body = new JWKSet(key.toPublicJWK()).toString().getBytes(StandardCharsets.UTF_8);
    jwks = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    jwks.createContext("/jwks", ex -> {
      ex.getResponseHeaders().add("Content-Type", "application/json");
      ex.sendResponseHeaders(200, body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    jwks.start();
  }

  /**
   * The {@code server.oidc} YAML (indented for {@code server:}) with {@code extra} lines
   * (already indented by four spaces) appended.
   */
  String config(String extra) {
    return "  oidc:\n"
        + "    issuer: " + ISSUER + "\n"
        + "    audience: " + AUDIENCE + "\n"
        + "    jwksUri: http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks\n"
        + extra;
  }

  /** Claims of {@code sub} valid for five minutes. */
  static JWTClaimsSet.Builder claims(String sub) {
    Instant now = Instant.now();
    return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject(sub)
        .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
  }

  /** {@code claims} signed (RS256) with the published key. */
  String sign(JWTClaimsSet claims) throws Exception {
    SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256)
        .keyID(key.getKeyID()).type(JOSEObjectType.JWT).build(), claims);
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }

  @Override
  public void close() {
    jwks.stop(0);
  }
}
