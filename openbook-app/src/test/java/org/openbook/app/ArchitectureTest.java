package org.openbook.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module layering of DESIGN.md, read from the main sources' imports: core ← stores (lucene,
 * solr) and llm ← engine ← app, bench, solr-local. A module imports only packages of the modules
 * below it, so there is no cycle; and the modules above the engine use the facade
 * ({@code org.openbook.engine.OpenBook}, its configuration types and services), never the
 * stores or the LLM integration directly.
 */
class ArchitectureTest {

  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?(org\\.openbook\\.[a-z.]+?)\\.[A-Z]", Pattern.MULTILINE);

  /** Module → the modules whose packages it may import (besides its own). */
  private static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

  static {
    ALLOWED.put("openbook-core", Set.of());
    ALLOWED.put("openbook-lucene", Set.of("openbook-core"));
    ALLOWED.put("openbook-solr", Set.of("openbook-core"));
    ALLOWED.put("openbook-llm", Set.of("openbook-core"));
    ALLOWED.put("openbook-engine",
        Set.of("openbook-core", "openbook-lucene", "openbook-solr", "openbook-llm"));
    // The SolrCloud admin verbs (`openbook solr init`) are the Solr store's own API.
    ALLOWED.put("openbook-app", Set.of("openbook-core", "openbook-engine", "openbook-solr"));
    // The analyzer comparison builds Lucene indexes with each analyzer, which the facade fixes.
    ALLOWED.put("openbook-bench", Set.of("openbook-core", "openbook-engine", "openbook-lucene"));
    // The scale and parity benchmarks measure the two stores themselves.
    ALLOWED.put("openbook-solr-local", Set.of("openbook-core", "openbook-engine",
        "openbook-lucene", "openbook-solr", "openbook-bench"));
  }

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @Test
  void should_import_only_modules_below_in_the_layering() throws IOException {
    Map<String, String> packageToModule = new LinkedHashMap<>();
    for (String module : ALLOWED.keySet()) {
      for (String pkg : packages(module)) {
        packageToModule.put(pkg, module);
      }
    }
    List<String> violations = new ArrayList<>();
    for (String module : ALLOWED.keySet()) {
      for (Path file : sources(module)) {
        Matcher m = IMPORT.matcher(Files.readString(file));
        while (m.find()) {
          String target = packageToModule.get(m.group(1));
          if (target != null && !target.equals(module)
              && !ALLOWED.get(module).contains(target)) {
            violations.add(ROOT.relativize(file) + " imports " + m.group(1) + " (" + target + ")");
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void should_keep_the_store_selection_inside_the_engine() throws IOException {
    List<String> outside = new ArrayList<>();
    for (String module : List.of("openbook-app", "openbook-bench", "openbook-solr-local")) {
      for (Path file : sources(module)) {
        if (Files.readString(file).contains("org.openbook.engine.StoreFactory")) {
          outside.add(ROOT.relativize(file).toString());
        }
      }
    }
    assertThat(outside).isEmpty();
  }

  @Test
  void should_find_every_module_of_the_build() throws IOException {
    // Guards the test itself: a new module must be placed in the layering above.
    String pom = Files.readString(ROOT.resolve("pom.xml"));
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
    Set<String> modules = new TreeSet<>();
    while (m.find()) {
      modules.add(m.group(1));
    }
    assertThat(modules).containsExactlyInAnyOrderElementsOf(ALLOWED.keySet());
    assertThat(packages("openbook-core")).contains("org.openbook.retrieve", "org.openbook.answer");
  }

  private static Set<String> packages(String module) {
    Set<String> pkgs = new TreeSet<>();
    Path src = ROOT.resolve(module).resolve("src/main/java");
    for (Path f : sources(module)) {
      pkgs.add(src.relativize(f.getParent()).toString().replace('/', '.'));
    }
    return pkgs;
  }

  private static List<Path> sources(String module) {
    Path src = ROOT.resolve(module).resolve("src/main/java");
    try (Stream<Path> files = Files.walk(src)) {
      return files.filter(p -> p.toString().endsWith(".java")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
