package org.openbook.retrieve;

import java.io.IOException;

/** Finds the passages for a question. */
public interface Retriever {

  /**
   * Retrieves once for a question.
   *
   * @return at most {@code query.topK()} hits, best first, all readable by the query's principal,
   *     with the dense route's best cosine for the refusal gate
   */
  SearchResult retrieve(Query query) throws IOException;
}
