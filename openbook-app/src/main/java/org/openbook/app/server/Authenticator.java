package org.openbook.app.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.retrieve.Principal;

/**
 * Turns an {@code Authorization: Bearer <token>} header into the {@link Principal} the server's
 * configuration gives that token. The principal's departments come only from
 * {@code principals} in the config ({@code public} always included); nothing a client sends can
 * widen them. Thread-safe (immutable).
 */
public final class Authenticator {
  private static final String BEARER = "Bearer ";

  /** token bytes → principal name, compared in constant time. */
  private final Map<byte[], String> tokens = new LinkedHashMap<>();
  private final Map<String, Principal> principals = new LinkedHashMap<>();
  private final Set<String> writers;

  /**
   * @throws IllegalArgumentException naming the token's principal when a token is blank
   */
  public Authenticator(OpenBookConfig config) {
    for (Map.Entry<String, String> e : config.server().tokens().entrySet()) {
      if (e.getKey() == null || e.getKey().isBlank()) {
        throw new IllegalArgumentException("server.tokens: blank token for principal '"
            + e.getValue() + "'");
      }
      String name = e.getValue();
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("server.tokens: token maps to no principal name");
      }
      tokens.put(e.getKey().getBytes(StandardCharsets.UTF_8), name);
      // the same lookup as the CLI (departments lower-cased); an unlisted name reads public only
      principals.put(name, config.principals().containsKey(name)
          ? config.principal(name) : new Principal(name, Set.of()));
    }
    this.writers = Set.copyOf(config.server().writers());
  }

  /**
   * The principal for an {@code Authorization} header value.
   *
   * @param header the header value, or {@code null}
   * @throws ApiException 401 when the header is missing, not a bearer token, or unknown
   */
  public Principal authenticate(String header) {
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
      throw new ApiException(401, "Authorization", "unknown bearer token");
    }
    return principals.get(found);
  }

  /**
   * Checks that {@code principal} may upload and delete documents.
   *
   * @throws ApiException 403 when it is not listed in {@code server.writers}
   */
  public void requireWriter(Principal principal) {
    if (!writers.contains(principal.name())) {
      throw new ApiException(403, "Authorization", "principal '" + principal.name()
          + "' may not change documents (not in server.writers)");
    }
  }
}
