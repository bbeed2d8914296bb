package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Issue 30, item 9: what {@link LogSafe} escapes and what it keeps. */
class LogSafeTest {

  @Test
  void i30_9_should_escape_every_line_break_and_control_character() {
    assertThat(LogSafe.of("eve\r\n[main] ERROR forged line"))
        .isEqualTo("eve\\r\\n[main] ERROR forged line");
    assertThat(LogSafe.of("a\rb\tc")).isEqualTo("a\\rb\\tc");
    assertThat(LogSafe.of("a\u2028b\u2029c\u0085d")).isEqualTo("a\\u2028b\\u2029c\\u0085d");
    assertThat(LogSafe.of("\u001b[31mred\u007f\u0000")).isEqualTo("\\u001B[31mred\\u007F\\u0000");
    // bidi override, zero-width space, BOM, a lone surrogate
    assertThat(LogSafe.of("\u202Eabc\u200B\uFEFF\uD800x"))
        .isEqualTo("\\u202Eabc\\u200B\\uFEFF\\uD800x");
  }

  @Test
  void i30_9_should_keep_printable_text_chinese_and_emoji_as_they_are() {
    for (String s : new String[] {"hr/员工手册.md", "Ｆｕｌｌ width", "😀 ok", "a\\nb", ""}) {
      assertThat(LogSafe.of(s)).isSameAs(s);
    }
    assertThat(LogSafe.of((Object) null)).isEqualTo("null");
  }

  @Test
  void i30_9_should_keep_escaped_json_valid_json_of_the_same_value() throws Exception {
    ObjectMapper json = new ObjectMapper();
    String line = json.createObjectNode().put("principal", "eve\u2028x\u0085y\r\n").toString();

    String escaped = LogSafe.of(line);

    assertThat(escaped).doesNotContain("\u2028", "\u0085");
    assertThat(json.readTree(escaped).get("principal").asText()).isEqualTo("eve\u2028x\u0085y\r\n");
  }

  @Test
  void i30_9_should_escape_the_messages_of_an_exception_and_its_causes_keeping_the_trace() {
    Exception e = new IllegalStateException("outer\r\n[main] ERROR forged",
        new IllegalArgumentException("inner\u2028[main] ERROR forged"));

    StringWriter out = new StringWriter();
    LogSafe.of((Throwable) e).printStackTrace(new PrintWriter(out));

    String trace = out.toString();
    assertThat(trace).startsWith("java.lang.IllegalStateException: outer\\r\\n[main] ERROR forged")
        .contains("Caused by: java.lang.IllegalArgumentException: inner\\u2028[main] ERROR forged")
        .contains("LogSafeTest.java").doesNotContain("\u2028");
    assertThat(trace.lines()).noneMatch(l -> l.startsWith("[main] ERROR"));
  }
}
