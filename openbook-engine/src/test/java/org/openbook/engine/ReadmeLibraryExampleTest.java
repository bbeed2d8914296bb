package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.testing.SharedData;

/**
 * The README's "Use as a library" example, exactly as written there: extracted, compiled against
 * the engine's class path and run on the kb-demo documents. A README edit that breaks the example
 * fails this test.
 */
class ReadmeLibraryExampleTest {

  private static final Pattern EXAMPLE = Pattern.compile(
      "<!-- library-example:start[^>]*-->\\s*```java\\n(.*?)```\\s*<!-- library-example:end -->",
      Pattern.DOTALL);

  @TempDir Path tmp;

  @Test
  void should_compile_and_answer_with_citations_on_kb_demo() throws Exception {
    Path docs = SharedData.require("fixtures/kb-demo/docs");
    String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
    Matcher m = EXAMPLE.matcher(readme);
    assertThat(m.find()).as("library example between the markers in README.md").isTrue();
    String source = m.group(1);
    assertThat(source.lines().count()).as("README example length").isLessThan(30);

    Path src = tmp.resolve("AskKnowledgeBase.java");
    Files.writeString(src, source, StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    String classpath = System.getProperty("surefire.test.class.path",
        System.getProperty("java.class.path"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream errors = new ByteArrayOutputStream();
    int rc = javac.run(null, null, errors, "-encoding", "UTF-8", "-cp", classpath,
        "-d", classes.toString(), src.toString());
    assertThat(rc).as("javac: %s", errors.toString(StandardCharsets.UTF_8)).isZero();

    String out = run(classes, docs, tmp.resolve("index"),
        Path.of("..", "examples", "openbook.yaml"));

    List<String> lines = out.lines().toList();
    assertThat(lines.get(0)).startsWith("ANSWERED: ").contains("48").contains("[1]");
    assertThat(lines.subList(1, lines.size())).isNotEmpty()
        .allMatch(l -> l.matches("\\[\\d+] .+"))
        .anyMatch(l -> l.contains("after-sales/售后政策.md"));
  }

  private static String run(Path classes, Path... args) throws Exception {
    PrintStream stdout = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
        ReadmeLibraryExampleTest.class.getClassLoader())) {
      Method main = loader.loadClass("AskKnowledgeBase").getMethod("main", String[].class);
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      main.invoke(null, (Object) java.util.Arrays.stream(args).map(Path::toString)
          .toArray(String[]::new));
    } finally {
      System.setOut(stdout);
    }
    return captured.toString(StandardCharsets.UTF_8);
  }
}
