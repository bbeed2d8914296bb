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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.engine.config.Settings;
import org.openbook.retrieve.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies OIDC / JWT access tokens with nimbus-jose-jwt and maps them to an {@link Identity}.
 *
 * <ul>
 *   <li>Signature: RS256 or ES256 only, with a key of the issuer's JWKS chosen by {@code kid}.
 *       Unsigned ({@code alg: none}) tokens and HMAC algorithms are refused, so a token
 *       "signed" with the public key as an HMAC secret (algorithm confusion) never verifies.</li>
 *   <li>JWKS: fetched on first use and cached ({@value #CACHE_MINUTES} min); a token with an
 *       unknown {@code kid} triggers one refetch (key rotation), rate-limited to one per
 *       {@value #REFETCH_SECONDS} s so unknown kids cannot hammer the issuer.</li>
 *   <li>Claims: {@code iss} must equal the configured issuer, {@code aud} must contain the
 *       audience, {@code exp} and {@code sub} are required; {@code exp}/{@code nbf} allow the
 *       configured skew.</li>
 *   <li>Identity: {@code oidc:<issuer>#<sub>} ({@link #principalId}), its own namespace: no
 *       claim value can make it equal to a static principal or writer. The display name
 *       ({@code principalClaim}, else {@code sub}) decides nothing.</li>
 *   <li>Departments: the values of the group claim (string or list) are looked up in
 *       {@code server.oidc.groups}, never in {@code principals}; the identity reads the union of
 *       their departments plus {@code public}. An unknown value adds nothing.</li>
 *   <li>Writing: only for a {@code sub} or group listed in {@code server.oidc.writers}.</li>
 * </ul>
 * Thread-safe.
 */
final class JwtVerifier {
  private static final Logger LOG = LoggerFactory.getLogger(JwtVerifier.class);
  static final long CACHE_MINUTES = 15;
  static final long REFETCH_SECONDS = 1;
  /** Connect and read timeout of a JWKS fetch (nimbus' default of 500 ms is tight under load). */
  static final int HTTP_TIMEOUT_MILLIS = 5000;
  /** Prefix of every token identity; static principal names may not start with it. */
  static final String ID_PREFIX = "oidc:";
  /** Identities whose first sign-in is logged; beyond this the log line is skipped. */
  static final int MAX_LOGGED_IDENTITIES = 10_000;

  private final OpenBookConfig.Oidc oidc;
  private final Map<String, Set<String>> groups;
  private final Set<String> writerGroups;
  private final Set<String> writerSubjects;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final ConfigurableJWTProcessor<SecurityContext> processor;

  /**
   * @param oidc the {@code server.oidc} section
   * @throws IllegalArgumentException naming the key when issuer, audience or jwksUri is missing,
   *     the URI is malformed, or a {@code groups} entry lists no departments
   */
  JwtVerifier(OpenBookConfig.Oidc oidc) {
    require(oidc.issuer(), "issuer");
    require(oidc.audience(), "audience");
    require(oidc.jwksUri(), "jwksUri");
    this.oidc = oidc;
    Map<String, Set<String>> g = new java.util.LinkedHashMap<>();
    oidc.groups().forEach((name, depts) -> {
      if (depts == null) {
        throw new IllegalArgumentException("server.oidc.groups." + name
            + ": list the departments the group reads, e.g. [finance]");
      }
      g.put(name, Settings.departments(depts));
    });
    this.groups = Map.copyOf(g);
    this.writerGroups = Set.copyOf(oidc.writers().groups());
    this.writerSubjects = Set.copyOf(oidc.writers().subjects());
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
        Set.of("exp", "sub"));
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
   * The principal id of subject {@code sub} of {@code issuer}: {@code oidc:<issuer>#<sub>}, with
   * {@code %} and {@code #} of the issuer percent-encoded so the id splits back unambiguously
   * (two issuers never share an id, whatever their subjects).
   */
  static String principalId(String issuer, String sub) {
    return ID_PREFIX + issuer.replace("%", "%25").replace("#", "%23") + "#" + sub;
  }

  /**
   * The identity of a valid token.
   *
   * @throws ApiException 401 naming {@code Authorization} when the token does not verify; the
   *     message says only that (the reason goes to the server log)
   */
  Identity verify(String token) {
    JWTClaimsSet claims;
    try {
      claims = processor.process(token, null);
    } catch (ParseException | BadJOSEException | JOSEException e) {
      LOG.info("bearer JWT refused: {}", LogSafe.of(e.getMessage()));
      throw new ApiException(401, "Authorization", "invalid or expired bearer token");
    }
    String sub = claims.getSubject();
    if (sub == null || sub.isBlank()) {
      throw new ApiException(401, "Authorization", "the token has no 'sub' claim");
    }
    String id = principalId(oidc.issuer(), sub);
    String display = stringClaim(claims, oidc.principalClaim());
    if (display == null) {
      display = sub;
    }
    List<String> memberOf = values(claims.getClaim(oidc.claim()));
    Set<String> depts = new LinkedHashSet<>();
    boolean writer = writerSubjects.contains(sub);
    for (String g : memberOf) {
      Set<String> d = groups.get(g);
      if (d != null) {
        depts.addAll(d);
      }
      writer |= writerGroups.contains(g);
    }
    Identity identity = new Identity(new Principal(id, depts), display, writer);
    if (seen.size() < MAX_LOGGED_IDENTITIES && seen.add(id)) {
      // once per identity and run: what an operator needs to grant it (sub, groups)
      LOG.info("token identity {} ({}) first seen: groups {}, departments {}, writer {}",
          LogSafe.of(id), LogSafe.of(display), LogSafe.of(memberOf.toString()),
          identity.principal().departments().stream().sorted().toList(), writer);
    }
    return identity;
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
