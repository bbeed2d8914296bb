package org.openbook.document;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * YAML front matter at the very start of a Markdown file: a {@code ---} line, YAML, and a
 * closing {@code ---} (or {@code ...}) line, as used by Jekyll, Hugo, VuePress and VitePress.
 *
 * @param end      offset just after the closing delimiter line (0 when there is no front matter)
 * @param meta     flattened values: scalars as strings, lists joined with {@code ","}, nested
 *                 maps as JSON text; empty when absent or malformed
 * @param warnings problems found (e.g. malformed YAML); the document still loads without meta
 */
record FrontMatter(int end, Map<String, String> meta, List<String> warnings) {

  /** Opening line, body, closing line; the closing line may end the file without a newline. */
  private static final Pattern BLOCK =
      Pattern.compile("\\A---[ \\t]*\\r?\\n(.*?)(?:^|\\n)(?:---|\\.\\.\\.)[ \\t]*(?:\\r?\\n|\\z)",
          Pattern.DOTALL | Pattern.MULTILINE);

  private static final YAMLMapper YAML = new YAMLMapper();

  private static final FrontMatter NONE = new FrontMatter(0, Map.of(), List.of());

  /** Finds and parses front matter at the start of {@code text} (BOM already removed). */
  static FrontMatter parse(String text) {
    Matcher m = BLOCK.matcher(text);
    if (!m.find()) {
      return NONE;
    }
    String yaml = m.group(1);
    List<String> warnings = new ArrayList<>();
    Map<String, String> meta = new LinkedHashMap<>();
    try {
      JsonNode root = yaml.isBlank() ? null : YAML.readTree(yaml);
      if (root != null && !root.isMissingNode() && !root.isNull()) {
        if (!root.isObject()) {
          warnings.add("front matter: expected key: value pairs, found " + root.getNodeType());
        } else {
          for (Map.Entry<String, JsonNode> e : root.properties()) {
            String value = flatten(e.getValue());
            if (value != null) {
              meta.put(e.getKey(), value);
            }
          }
        }
      }
    } catch (JacksonException e) {
      warnings.add("front matter: malformed YAML (" + e.getOriginalMessage() + ")");
      meta.clear();
    }
    return new FrontMatter(m.end(), meta, warnings);
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
