package org.openbook.embed;

/**
 * A remote embedding endpoint could not give vectors (down, overloaded past its retries, timing
 * out, or answering with the wrong shape). Unlike {@link InputTooLongException} this says nothing
 * about the input: the same texts may embed fine on a later run, so ingest reports the files and
 * keeps whatever the index held for them. The message names the endpoint by its URL without
 * credentials and never contains an API key.
 */
public class EmbeddingUnavailableException extends RuntimeException {

  private final String endpoint;

  /**
   * @param endpoint the endpoint's URL without user info or query, e.g. {@code
   *                 http://gpu:8000/v1/embeddings}
   * @param message  what went wrong; must not contain a key
   */
  public EmbeddingUnavailableException(String endpoint, String message, Throwable cause) {
    super(message, cause);
    this.endpoint = endpoint;
  }

  /** The endpoint's URL without credentials. */
  public String endpoint() {
    return endpoint;
  }
}
