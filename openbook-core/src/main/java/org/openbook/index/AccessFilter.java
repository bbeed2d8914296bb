package org.openbook.index;

import java.util.Set;

/**
 * Which departments a search may read. Applied inside every retrieval route before top-k is cut,
 * never to the fused results afterwards.
 *
 * @param departments the readable departments; empty means nothing is readable
 */
public record AccessFilter(Set<String> departments) {
  public AccessFilter {
    departments = Set.copyOf(departments);
  }

  /** Whether a chunk of department {@code dept} may be read. */
  public boolean allows(String dept) {
    return departments.contains(dept);
  }
}
