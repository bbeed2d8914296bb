package org.openbook.engine.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Tests' configurations: YAML text written to a file and read the way a user's file is. */
public final class ConfigYaml {

  private ConfigYaml() {}

  /**
   * Writes {@code yaml} to {@code dir/openbook.yaml} (UTF-8) and reads it with {@link
   * ConfigLoader#read}, so relative paths in it resolve against {@code dir}.
   */
  public static OpenBookConfig read(Path dir, String yaml) throws IOException {
    Path file = dir.resolve("openbook.yaml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    return ConfigLoader.read(file);
  }
}
