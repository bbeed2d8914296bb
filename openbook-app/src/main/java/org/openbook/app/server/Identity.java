package org.openbook.app.server;

import org.openbook.retrieve.Principal;

/**
 * Who a request is, as the {@link Authenticator} decided from its bearer token: the
 * {@link Principal} that reads (its {@code name} is the owner key of conversations, feedback and
 * jobs), the name to show, and whether it may change documents.
 *
 * <p>A static token's principal is named as in {@code server.tokens}; a token issuer's identity
 * is {@code oidc:<issuer>#<sub>} ({@link JwtVerifier#principalId}), so the two namespaces never
 * meet: no claim can make a token user equal to a configured principal.
 *
 * @param principal   the reader, with its departments ({@code public} included)
 * @param displayName what to show the user (a static principal's name, or the token's
 *                    {@code preferred_username}); never used to decide access
 * @param writer      may upload and delete documents
 */
public record Identity(Principal principal, String displayName, boolean writer) {

  /** The principal id: the owner key of everything the identity stores. */
  public String id() {
    return principal.name();
  }
}
