package org.openbook.engine.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    try {
      JsonNode tree = yaml.readTree(file.toFile());
      if (tree == null || tree.isMissingNode() || tree.isNull()) {
        return OpenBookConfig.defaults(); // an empty or comments-only file: all defaults
      }
      return yaml.treeToValue(tree, OpenBookConfig.class)
          .withPathsRelativeTo(file.toAbsolutePath().getParent());
    } catch (UnrecognizedPropertyException e) {
      throw new ConfigException("bad config " + file + ": unknown key '" + dotted(e)
          + "' (known here: " + e.getKnownPropertyIds() + ")", e);
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
