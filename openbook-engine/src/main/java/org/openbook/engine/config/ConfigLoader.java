package org.openbook.engine.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;

/**
 * Finds and reads the configuration: {@code --config FILE}, else {@code $OPENBOOK_CONFIG}, else
 * {@code openbook.yaml} in the working directory, else built-in defaults.
 */
public final class ConfigLoader {
  /** Environment variable naming the config file. */
  public static final String ENV = "OPENBOOK_CONFIG";
  /** Config file looked for in the working directory. */
  public static final String DEFAULT_FILE = "openbook.yaml";

  private ConfigLoader() {}

  /**
   * Loads the configuration.
   *
   * @param explicit the {@code --config} option, or {@code null}
   * @param env      the environment
   * @throws ConfigException naming the file and the bad field when it cannot be read or parsed
   */
  public static OpenBookConfig load(Path explicit, Map<String, String> env) {
    Path file = explicit;
    if (file == null && env.get(ENV) != null && !env.get(ENV).isBlank()) {
      file = Path.of(env.get(ENV));
    }
    if (file == null) {
      Path local = Path.of(DEFAULT_FILE);
      if (!Files.isRegularFile(local)) {
        return OpenBookConfig.defaults();
      }
      file = local;
    }
    return read(file);
  }

  /** Reads one YAML file. */
  public static OpenBookConfig read(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new ConfigException("config file not found: " + file);
    }
    ObjectMapper yaml = new ObjectMapper(new YAMLFactory())
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    JsonNode tree = null;
    try {
      tree = yaml.readTree(file.toFile());
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        return OpenBookConfig.defaults(); // an empty or comments-only file: all defaults
      }
      return yaml.treeToValue(tree, OpenBookConfig.class)
          .withPathsRelativeTo(file.toAbsolutePath().getParent());
    } catch (UnrecognizedPropertyException e) {
      throw new ConfigException("bad config " + file + ": unknown key '" + dotted(e)
          + "' (known here: " + e.getKnownPropertyIds() + ")", e);
    } catch (MismatchedInputException e) {
      // Jackson's own text names Java types (LinkedHashMap, Integer); say it in YAML's terms.
      throw new ConfigException("bad config " + file + " at '" + dotted(e) + "': expected "
          + expected(e.getTargetType()) + ", got " + found(tree, e), e);
    } catch (JsonMappingException e) {
      throw new ConfigException("bad config " + file + " at '" + dotted(e) + "': "
          + firstLine(e.getOriginalMessage()), e);
    } catch (JsonProcessingException e) {
      throw new ConfigException("bad config " + file + " at line "
          + (e.getLocation() == null ? "?" : e.getLocation().getLineNr()) + ": "
          + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ConfigException("cannot read config " + file + ": " + e.getMessage(), e);
    }
  }

  /** The YAML path of a mapping error as {@code retrieval.topK} or {@code principals.hr[0]}. */
  private static String dotted(JsonMappingException e) {
    StringBuilder sb = new StringBuilder();
    for (JsonMappingException.Reference r : e.getPath()) {
      if (r.getFieldName() != null) {
        sb.append(sb.length() == 0 ? "" : ".").append(r.getFieldName());
      } else if (r.getIndex() >= 0) {
        sb.append('[').append(r.getIndex()).append(']');
      }
    }
    return sb.toString();
  }

  /** What a YAML author should have written for a value of {@code type}. */
  private static String expected(Class<?> type) {
    if (type == null) {
      return "another kind of value";
    }
    if (Map.class.isAssignableFrom(type) || type.isRecord()) {
      return "a mapping (key: value lines)";
    }
    if (Collection.class.isAssignableFrom(type) || type.isArray()) {
      return "a list";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != char.class)) {
      return "a number";
    }
    return type.isEnum() ? "one of " + Arrays.toString(type.getEnumConstants()).toLowerCase(
        Locale.ROOT) : "text";
  }

  /** The offending YAML value at the error's path, quoted, or its kind for a mapping or list. */
  private static String found(JsonNode tree, JsonMappingException e) {
    JsonNode node = tree;
    for (JsonMappingException.Reference r : e.getPath()) {
      if (node == null) {
        break;
      }
      node = r.getFieldName() != null ? node.get(r.getFieldName()) : node.get(r.getIndex());
    }
    if (node == null) {
      return "something else";
    }
    return node.isObject() ? "a mapping" : node.isArray() ? "a list"
        : node.isNull() ? "nothing" : "'" + node.asText() + "'";
  }

  private static String firstLine(String message) {
    int nl = message == null ? -1 : message.indexOf('\n');
    return nl < 0 ? String.valueOf(message) : message.substring(0, nl);
  }

  /** A configuration that cannot be used. */
  public static final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
      super(message);
    }

    public ConfigException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
