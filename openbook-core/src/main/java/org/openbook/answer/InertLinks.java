package org.openbook.answer;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes the links an answer copied from a document inert: a document's author decides where a
 * link goes, so inside an answer (which the page presents as the knowledge base's own words) a
 * link is shown as its text followed by its address as a code span, which no Markdown renderer
 * turns into a link. {@code [安全测试单点登录](http://127.0.0.1:9/phish?token=)} reads
 * {@code 安全测试单点登录 (`http://127.0.0.1:9/phish?token=`)}.
 *
 * <p>Handled, outside code spans and fenced code (left as they are): inline links and images
 * ({@code [text](url "title")}, {@code ![alt](url)}), reference definitions
 * ({@code [id]: url}, so {@code [text][id]} and even a citation marker {@code [1]} cannot resolve
 * to one), autolinks ({@code <https://…>}, {@code <a@b.example>}), bare URLs
 * ({@code http(s)://}, {@code ftp://}, {@code www.}) and e-mail addresses (GFM links both), and
 * HTML anchors ({@code <a href="…">text</a>}). Idempotent: its output passes through unchanged.
 * Stateless.
 */
public final class InertLinks {

  private static final String URL_CHARS = "(?:[^\\s()<>`]|\\([^\\s()<>`]*\\))+";

  private static final Pattern LINKISH = Pattern.compile(
      "(?<code>(`+)[\\s\\S]*?\\2)"
          + "|(?<anchor><a\\b[^>]*?\\bhref\\s*=\\s*(?:\"(?<ahref1>[^\"]*)\"|'(?<ahref2>[^']*)'"
          + "|(?<ahref3>[^\\s>]+))[^>]*>(?<atext>[\\s\\S]*?)</a\\s*>)"
          + "|(?<inline>(?<bang>!?)\\[(?<ltext>(?:[^\\[\\]\\\\]|\\\\.|\\[[^\\[\\]]*\\])*)\\]"
          + "\\(\\s*(?:<(?<lurl1>[^<>\\n]*)>|(?<lurl2>" + URL_CHARS + ")?)"
          + "(?:\\s+(?:\"[^\"]*\"|'[^']*'|\\([^)]*\\)))?\\s*\\))"
          + "|(?<def>(?m:^)[ ]{0,3}\\[(?<dlabel>[^\\]\\n]+)\\]:[ \\t]*<?(?<durl>[^\\s>]+)>?)"
          + "|(?<auto><(?<aurl>(?:[a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\\s<>]*)"
          + "|(?:[a-zA-Z0-9.!#$%&'*+/=?^_{|}~-]+@[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)+))>)"
          + "|(?<bare>(?i:\\b(?:https?|ftp)://|\\bwww\\.)" + URL_CHARS + ")"
          + "|(?<email>\\b[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+\\b)",
      Pattern.CASE_INSENSITIVE);

  /** Trailing characters GFM leaves outside a bare URL. */
  private static final Pattern TRAILING = Pattern.compile("[?!.,:;*_'\"~]+$");

  private InertLinks() {}

  /** {@code markdown} with every link made inert (see the class comment). */
  public static String of(String markdown) {
    if (markdown == null || markdown.isEmpty()) {
      return markdown;
    }
    Matcher m = LINKISH.matcher(markdown);
    StringBuilder out = new StringBuilder(markdown.length() + 16);
    int last = 0;
    while (m.find()) {
      out.append(markdown, last, m.start());
      last = m.end();
      if (m.group("code") != null) {
        out.append(m.group());
      } else if (m.group("anchor") != null) {
        String href = first(m.group("ahref1"), m.group("ahref2"), m.group("ahref3"));
        out.append(of(m.group("atext").strip())).append(" (").append(code(href)).append(')');
      } else if (m.group("inline") != null) {
        String url = first(m.group("lurl1"), m.group("lurl2"), "");
        String text = of(m.group("ltext").strip());
        out.append(text);
        if (!url.isEmpty()) {
          out.append(text.isEmpty() ? "" : " ").append('(').append(code(url)).append(')');
        }
      } else if (m.group("def") != null) {
        String lead = m.group("def").substring(0, m.group("def").indexOf('['));
        out.append(lead).append(m.group("dlabel")).append(": ").append(code(m.group("durl")));
      } else if (m.group("auto") != null) {
        out.append(code(m.group("aurl")));
      } else {
        String url = m.group("bare") != null ? m.group("bare") : m.group("email");
        Matcher t = TRAILING.matcher(url);
        String tail = t.find() ? t.group() : "";
        url = url.substring(0, url.length() - tail.length());
        out.append(code(url)).append(tail);
      }
    }
    return out.append(markdown, last, markdown.length()).toString();
  }

  /** {@code url} as a code span; a backtick inside is percent-encoded so the span stays whole. */
  private static String code(String url) {
    return "`" + url.replace("`", "%60") + "`";
  }

  private static String first(String... values) {
    for (String v : values) {
      if (v != null) {
        return v;
      }
    }
    return "";
  }
}
