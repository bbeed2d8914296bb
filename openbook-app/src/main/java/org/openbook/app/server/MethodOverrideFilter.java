package org.openbook.app.server;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.IOException;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;

/**
 * Hides method-override headers from everything behind it, so a request's method is the one on
 * its request line. Javalin's {@code Context.method()} (which routes) honours
 * {@code X-HTTP-Method-Override}: a {@code POST} carrying {@code X-HTTP-Method-Override: DELETE}
 * would otherwise reach the {@code DELETE} route, past any proxy or CSRF rule that only allows
 * {@code POST}. The other common spellings are hidden too, and nothing reads a {@code _method}
 * parameter.
 */
final class MethodOverrideFilter implements Filter {
  /** Override headers, lower-case. */
  static final Set<String> HEADERS =
      Set.of("x-http-method-override", "x-http-method", "x-method-override");

  /** Adds the filter in front of every servlet of {@code context}. */
  static void install(ServletContextHandler context) {
    context.addFilter(new FilterHolder(new MethodOverrideFilter()), "/*",
        EnumSet.of(DispatcherType.REQUEST));
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    chain.doFilter(request instanceof HttpServletRequest http ? new Stripped(http) : request,
        response);
  }

  private static boolean hidden(String name) {
    return name != null && HEADERS.contains(name.toLowerCase(Locale.ROOT));
  }

  private static final class Stripped extends HttpServletRequestWrapper {
    Stripped(HttpServletRequest request) {
      super(request);
    }

    @Override
    public String getHeader(String name) {
      return hidden(name) ? null : super.getHeader(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
      return hidden(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
      return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
          .filter(n -> !hidden(n)).toList());
    }

    @Override
    public long getDateHeader(String name) {
      return hidden(name) ? -1 : super.getDateHeader(name);
    }

    @Override
    public int getIntHeader(String name) {
      return hidden(name) ? -1 : super.getIntHeader(name);
    }
  }
}
