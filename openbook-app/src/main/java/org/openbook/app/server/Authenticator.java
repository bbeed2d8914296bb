package org.openbook.app.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.openbook.engine.config.Settings;
import org.openbook.retrieve.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns an {@code Authorization: Bearer <token>} header into the {@link Identity} the server's
 * configuration gives that token: a static token of {@code server.tokens} (departments from
 * {@code principals}, writing from {@code server.writers}, both by the principal's name), or,
 * when {@code server.oidc} is configured, a JWT access token verified by {@link JwtVerifier}
 * (its own namespace {@code oidc:<issuer>#<sub>}, departments from {@code server.oidc.groups},
 * writing from {@code server.oidc.writers}). {@code public} is always included; nothing a client
 * sends can widen the departments, and no token claim can name a static principal.
 * Thread-safe (immutable).
 */
public final class Authenticator {
  private static final Logger LOG = LoggerFactory.getLogger(Authenticator.class);
  private static final String BEARER = "Bearer ";

  /** token bytes → principal name, compared in constant time. */
  private final Map<byte[], String> tokens = new LinkedHashMap<>();
  private final Map<String, Principal> principals = new LinkedHashMap<>();
  private final Set<String> writers;
  private final JwtVerifier jwt;

  /**
   * @throws IllegalArgumentException naming the token's principal when a token is blank, or
   *     when a token's principal name starts with {@code oidc:} (the namespace of token issuers)
   */
  public Authenticator(Settings config) {
    for (Map.Entry<String, String> e : config.server().tokens().entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        throw new IllegalArgumentException("server.tokens: blank token for principal '"
            + e.getValue() + "'");
      }
      String name = e.getValue();
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("server.tokens: token maps to no principal name");
      }
      if (name.regionMatches(true, 0, JwtVerifier.ID_PREFIX, 0, JwtVerifier.ID_PREFIX.length())) {
        throw new IllegalArgumentException("server.tokens: principal name '" + name
            + "' starts with '" + JwtVerifier.ID_PREFIX + "', the namespace of token identities;"
            + " choose another name");
      }
      tokens.put(e.getKey().getBytes(StandardCharsets.UTF_8), name);
      // the same lookup as the CLI (departments lower-cased); an unlisted name reads public only
      principals.put(name, config.principals().containsKey(name)
          ? config.principal(name) : new Principal(name, Set.of()));
    }
    this.writers = Set.copyOf(config.server().writers());
    this.jwt = config.server().oidc().map(JwtVerifier::new).orElse(null);
    if (jwt != null) {
      // before issue 30, token users were matched to these by name; say where grants live now
      for (String w : writers) {
        if (!principals.containsKey(w)) {
          LOG.warn("server.writers names '{}', which no server.tokens entry maps to; token "
              + "(OIDC) users are granted writing only by server.oidc.writers", LogSafe.of(w));
        }
      }
      if (config.server().oidc().get().groups().isEmpty()) {
        LOG.warn("server.oidc.groups is empty: token users read public documents only "
            + "(the principals table is not consulted for token groups)");
      }
    }
  }

  /**
   * The principal for an {@code Authorization} header value; see {@link #identify}.
   *
   * @throws ApiException as {@link #identify}
   */
  public Principal authenticate(String header) {
    return identify(header).principal();
  }

  /**
   * The identity for an {@code Authorization} header value.
   *
   * @param header the header value, or {@code null}
   * @throws ApiException 401 when the header is missing, not a bearer token, unknown, or a JWT
   *     that does not verify
   */
  public Identity identify(String header) {
    if (header == null || header.isBlank()) {
      throw new ApiException(401, "Authorization", "missing bearer token: send 'Authorization: Bearer <token>'");
    }
    if (!header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      throw new ApiException(401, "Authorization", "expected 'Authorization: Bearer <token>'");
    }
    byte[] given = header.substring(BEARER.length()).trim().getBytes(StandardCharsets.UTF_8);
    String found = null;
    // Compare against every token without stopping early, so timing does not reveal a prefix.
    for (Map.Entry<byte[], String> e : tokens.entrySet()) {
      if (MessageDigest.isEqual(e.getKey(), given)) {
        found = e.getValue();
      }
    }
    if (found == null) {
      String token = header.substring(BEARER.length()).trim();
      if (jwt != null && JwtVerifier.looksLikeJwt(token)) {
        return jwt.verify(token);
      }
      throw new ApiException(401, "Authorization", "unknown bearer token");
    }
    return new Identity(principals.get(found), found, writers.contains(found));
  }

  /**
   * Checks that {@code identity} may upload and delete documents.
   *
   * @throws ApiException 403 when it may not (a static principal not in {@code server.writers},
   *     a token identity not granted by {@code server.oidc.writers})
   */
  public static void requireWriter(Identity identity) {
    if (!identity.writer()) {
      throw new ApiException(403, "Authorization", "principal '" + identity.displayName()
          + "' may not change documents (not granted by server.writers or"
          + " server.oidc.writers)");
    }
  }
}
