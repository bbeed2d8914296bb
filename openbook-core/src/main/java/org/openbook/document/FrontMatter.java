package org.openbook.document;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * YAML front matter at the very start of a Markdown or text file: a {@code ---} line, YAML, and
 * a closing {@code ---} (or {@code ...}) line, as used by Jekyll, Hugo, VuePress and VitePress.
 *
 * <p>Front matter decides who may read a document ({@code dept}), so it fails closed: once a
 * file opens with a {@code ---} line (after an optional BOM), anything that keeps its metadata
 * from being read for sure is a {@link LoadException.Reason#BAD_METADATA} error, never a document
 * silently loaded as {@value Document#PUBLIC}.
 *
 * <p>Keys are lower-cased ({@code Dept} and {@code DEPT} are {@code dept}); keys equal up to case
 * are an error. The {@code dept} value is trimmed and lower-cased, since departments are
 * lower-case ids (e.g. {@code hr}, {@code finance} in the principals config).
 *
 * @param end  offset just after the closing delimiter line (0 when there is no front matter)
 * @param meta flattened values keyed by lower-case key: scalars as strings, lists joined with
 *             {@code ","}, nested maps as JSON text; empty when there is no front matter
 */
record FrontMatter(int end, Map<String, String> meta) {

  /**
   * Lines searched for the closing delimiter. Real front matter is a few dozen lines; a file
   * opening with {@code ---} and no close within this many lines is treated as broken, not as
   * body text (which would index a {@code dept:} line as public text).
   */
  static final int MAX_LINES = 200;

  /** Rejects {@code dept: hr} followed by {@code dept: public}: which one wins is a guess. */
  private static final YAMLMapper YAML =
      YAMLMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private static final FrontMatter NONE = new FrontMatter(0, Map.of());

  /**
   * Finds and parses front matter at the start of {@code text}; a leading U+FEFF is skipped.
   *
   * @param source file name used in error messages
   * @return {@link #end()} 0 and empty meta when the text does not open with a {@code ---} line
   * @throws LoadException BAD_METADATA when the text opens with {@code ---} but has no closing
   *     line within {@link #MAX_LINES} lines, the YAML is malformed or not a mapping, keys clash
   *     up to case, or {@code dept} is not a non-blank string
   */
  static FrontMatter parse(String text, String source) throws LoadException {
    int start = text.startsWith("\uFEFF") ? 1 : 0;
    int lineEnd = nextLine(text, start);
    if (!isDelimiter(text, start, lineEnd, false)) {
      return NONE;
    }
    int yamlStart = lineEnd;
    int pos = lineEnd;
    for (int line = 0; line < MAX_LINES && pos < text.length(); line++) {
      int next = nextLine(text, pos);
      if (isDelimiter(text, pos, next, true)) {
        return new FrontMatter(next, meta(text.substring(yamlStart, pos), source));
      }
      pos = next;
    }
    throw bad(source, "opening --- has no closing --- within " + MAX_LINES + " lines");
  }

  /** Offset just after the line starting at {@code from} (its {@code \n} included). */
  private static int nextLine(String text, int from) {
    int nl = text.indexOf('\n', from);
    return nl < 0 ? text.length() : nl + 1;
  }

  /** Whether {@code [from, to)} is a {@code ---} (or, when closing, {@code ...}) line. */
  private static boolean isDelimiter(String text, int from, int to, boolean closing) {
    String line = text.substring(from, to).stripTrailing();
    return line.equals("---") || closing && line.equals("...");
  }

  private static Map<String, String> meta(String yaml, String source) throws LoadException {
    JsonNode root;
    try {
      root = yaml.isBlank() ? null : YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw bad(source, "malformed YAML (" + e.getOriginalMessage() + ")");
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      return Map.of();
    }
    if (!root.isObject()) {
      throw bad(source, "expected key: value pairs, found " + root.getNodeType());
    }
    Map<String, String> meta = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      String key = e.getKey().strip().toLowerCase(Locale.ROOT);
      if (meta.containsKey(key)) {
        throw bad(source, "key '" + key + "' given more than once (keys ignore case)");
      }
      String value = key.equals(Document.DEPT) ? dept(e.getValue(), source) : flatten(e.getValue());
      if (value != null) {
        meta.put(key, value);
      }
    }
    return meta;
  }

  private static String dept(JsonNode v, String source) throws LoadException {
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      String found = v == null || v.isNull() ? "nothing" : v.getNodeType() + " " + v;
      throw bad(source, "dept must be a department id such as 'hr', found " + found);
    }
    return v.asText().strip().toLowerCase(Locale.ROOT);
  }

  private static LoadException bad(String source, String problem) {
    return new LoadException(LoadException.Reason.BAD_METADATA,
        source + ": front matter: " + problem);
  }

  private static String flatten(JsonNode v) {
    if (v == null || v.isNull() || v.isMissingNode()) {
      return null;
    }
    if (v.isArray()) {
      List<String> parts = new ArrayList<>();
      v.forEach(item -> {
        String s = flatten(item);
        if (s != null && !s.isBlank()) {
          parts.add(s.trim());
        }
      });
      return String.join(",", parts);
    }
    return v.isValueNode() ? v.asText() : v.toString();
  }
}
