package org.openbook.retrieve;

import java.util.LinkedHashSet;
import java.util.Set;
import org.openbook.document.Document;
import org.openbook.index.AccessFilter;

/**
 * Who is asking, with the departments they may read. Built from server-side configuration,
 * never from a request body. {@code public} is always included.
 *
 * @param name        principal name, e.g. {@code visitor}
 * @param departments readable departments, {@code public} included
 */
public record Principal(String name, Set<String> departments) {

  /** The anonymous principal: {@code public} only. */
  public static final Principal ANONYMOUS = new Principal("anonymous", Set.of());

  public Principal {
    Set<String> all = new LinkedHashSet<>();
    all.add(Document.PUBLIC);
    all.addAll(departments);
    departments = Set.copyOf(all);
  }

  /** The filter applied inside every retrieval route. */
  public AccessFilter filter() {
    return new AccessFilter(departments);
  }
}
