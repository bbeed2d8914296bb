package org.openbook.app.server;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.DefaultResourceRetriever;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.ConfigurableJWTProcessor;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import java.net.MalformedURLException;
import java.net.URI;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies OIDC / JWT access tokens with nimbus-jose-jwt and maps them to a {@link Principal}.
 *
 * <ul>
 *   <li>Signature: RS256 or ES256 only, with a key of the issuer's JWKS chosen by {@code kid}.
 *       Unsigned ({@code alg: none}) tokens and HMAC algorithms are refused, so a token
 *       "signed" with the public key as an HMAC secret (algorithm confusion) never verifies.</li>
 *   <li>JWKS: fetched on first use and cached ({@value #CACHE_MINUTES} min); a token with an
 *       unknown {@code kid} triggers one refetch (key rotation), rate-limited to one per
 *       {@value #REFETCH_SECONDS} s so unknown kids cannot hammer the issuer.</li>
 *   <li>Claims: {@code iss} must equal the configured issuer, {@code aud} must contain the
 *       audience, {@code exp} is required; {@code exp}/{@code nbf} allow the configured skew.</li>
 *   <li>Departments: the values of the configured claim (string or list) are looked up in the
 *       {@code principals} table; the principal reads the union of their departments plus
 *       {@code public}. An unknown value adds nothing.</li>
 * </ul>
 * Thread-safe.
 */
final class JwtVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);
  static final long CACHE_MINUTES = 15;
  static final long REFETCH_SECONDS = 1;
  /** Connect and read timeout of a JWKS fetch (nimbus' default of 500 ms is tight under load). */
  static final int HTTP_TIMEOUT_MILLIS = 5000;

  private final OpenBookConfig.Oidc oidc;
  private final Map<String, ? extends java.util.Collection<String>> groups;
  private final ConfigurableJWTProcessor<SecurityContext> processor;

  /**
   * @param oidc   the {@code server.oidc} section
   * @param groups claim value → departments (the {@code principals} table)
   * @throws IllegalArgumentException naming the key when issuer, audience or jwksUri is missing
   *     or the URI is malformed
   */
  JwtVerifier(OpenBookConfig.Oidc oidc, Map<String, ? extends java.util.Collection<String>> groups) {
    require(oidc.issuer(), "issuer");
    require(oidc.audience(), "audience");
    require(oidc.jwksUri(), "jwksUri");
    this.oidc = oidc;
    this.groups = Map.copyOf(groups);
    JWKSource<SecurityContext> keys;
    try {
      keys = JWKSourceBuilder.<SecurityContext>create(URI.create(oidc.jwksUri()).toURL(),
              new DefaultResourceRetriever(HTTP_TIMEOUT_MILLIS, HTTP_TIMEOUT_MILLIS,
                  JWKSourceBuilder.DEFAULT_HTTP_SIZE_LIMIT))
          .cache(TimeUnit.MINUTES.toMillis(CACHE_MINUTES), TimeUnit.SECONDS.toMillis(15))
          .rateLimited(TimeUnit.SECONDS.toMillis(REFETCH_SECONDS))
          .refreshAheadCache(false)
          .retrying(false)
          .outageTolerant(false)
          .build();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalArgumentException("server.oidc.jwksUri: not a URL: " + oidc.jwksUri(), e);
    }
    DefaultJWTProcessor<SecurityContext> p = new DefaultJWTProcessor<>();
    p.setJWSKeySelector(new JWSVerificationKeySelector<>(
        Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256), keys));
    DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(
        oidc.audience(), new JWTClaimsSet.Builder().issuer(oidc.issuer()).build(),
        Set.of("exp"));
    claims.setMaxClockSkew(oidc.clockSkewSeconds());
    p.setJWTClaimsSetVerifier(claims);
    this.processor = p;
  }

  private static void require(String value, String key) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("server.oidc." + key + " is required");
    }
  }

  /** True when {@code token} has the shape of a JWS (three dot-separated parts). */
  static boolean looksLikeJwt(String token) {
    int first = token.indexOf('.');
    return first > 0 && token.indexOf('.', first + 1) > first + 1;
  }

  /**
   * The principal of a valid token.
   *
   * @throws ApiException 401 naming {@code Authorization} when the token does not verify; the
   *     message says only that (the reason goes to the server log)
   */
  Principal verify(String token) {
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (ParseException | BadJOSEException | JOSEException e) {
      LOG.info("bearer JWT refused: {}", e.getMessage());
      throw new ApiException(401, "Authorization", "invalid or expired bearer token");
    }
    String name = stringClaim(claims, oidc.principalClaim());
    if (name == null) {
      name = claims.getSubject();
    }
    if (name == null || name.isBlank()) {
      throw new ApiException(401, "Authorization", "the token names no principal ("
          + oidc.principalClaim() + " or sub)");
    }
    Set<String> depts = new LinkedHashSet<>();
    for (String g : values(claims.getClaim(oidc.claim()))) {
      java.util.Collection<String> d = groups.get(g);
      if (d != null) {
        d.forEach(x -> depts.add(x.trim().toLowerCase(java.util.Locale.ROOT)));
      }
    }
    return new Principal(name, depts);
  }

  private static String stringClaim(JWTClaimsSet claims, String name) {
    Object v = claims.getClaim(name);
    return v instanceof String s && !s.isBlank() ? s : null;
  }

  private static List<String> values(Object claim) {
    List<String> out = new ArrayList<>();
    if (claim instanceof String s) {
      out.add(s);
    } else if (claim instanceof Collection<?> c) {
      for (Object o : c) {
        if (o instanceof String s) {
          out.add(s);
        }
      }
    }
    // Keycloak group paths look like "/finance"; match them without the leading slash too
    List<String> all = new ArrayList<>(out);
    for (String s : out) {
      if (s.startsWith("/")) {
        all.add(s.substring(1));
      }
    }
    return all;
  }
}
