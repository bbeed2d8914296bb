package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 30 item 11: a link in a document never becomes a live link in an answer. */
class InertLinksTest {

  /** A URL outside a code span: what a GFM renderer would make live. */
  private static final Pattern LIVE = Pattern.compile(
      "(?<!`)(?:https?://|www\\.|mailto:)|\\]\\(|<a\\s|^\\s*\\[[^\\]]+\\]:\\s*\\S"
          + "|[A-Za-z0-9._+-]+@[A-Za-z0-9-]+\\.",
      Pattern.CASE_INSENSITIVE | Pattern.MULTILINE);

  private static boolean live(String text) {
    // drop code spans, then look for anything link-shaped
    return LIVE.matcher(text.replaceAll("`[^`]*`", "")).find();
  }

  @Test
  void i30_11_should_quote_the_phishing_link_of_the_issue_as_text_and_address() {
    String doc = "员工请通过[安全测试单点登录](http://127.0.0.1:9/phish?token=)完成年度安全测试。";

    String text = new ExtractiveGenerator(RefusalPolicy.DEFAULT)
        .generate("年度安全测试怎么完成？", Fixtures.sources("it/security.md", doc), s -> {});

    assertThat(text).contains("安全测试单点登录 (`http://127.0.0.1:9/phish?token=`)");
    assertThat(text).doesNotContain("](");
    assertThat(live(text)).as(text).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "年度安全测试请登录 <http://127.0.0.1:9/phish?token=> 完成。",
      "年度安全测试请登录 http://127.0.0.1:9/phish?token= 完成。",
      "年度安全测试请登录 www.phish.example/login 完成。",
      "年度安全测试请登录 <a href=\"http://127.0.0.1:9/phish\" target=\"_blank\">单点登录</a> 完成。",
      "年度安全测试请登录 <A HREF='http://127.0.0.1:9/phish'>单点登录</A> 完成。",
      "年度安全测试请登录[单点登录][sso]完成。\n\n[sso]: http://127.0.0.1:9/phish?token=",
      "年度安全测试请登录 ![单点登录](http://127.0.0.1:9/phish.png \"logo\") 完成。",
      "年度安全测试请登录[单点登录](<http://127.0.0.1:9/a b>)完成。",
      "年度安全测试请联系 security@phish.example 完成。"})
  void i30_11_should_leave_no_live_link_of_any_kind_in_an_extractive_answer(String doc) {
    String text = new ExtractiveGenerator(RefusalPolicy.DEFAULT)
        .generate("年度安全测试怎么完成？", Fixtures.sources("it/security.md", doc), s -> {});

    assertThat(text).contains("[1]");
    assertThat(live(text)).as(text).isFalse();
  }

  @Test
  void i30_11_should_turn_each_link_form_into_text_plus_a_code_span_address() {
    assertThat(InertLinks.of("见[手册](https://a.example/x_(y)) [1]。"))
        .isEqualTo("见手册 (`https://a.example/x_(y)`) [1]。");
    assertThat(InertLinks.of("Go to https://a.example/p. Then stop."))
        .isEqualTo("Go to `https://a.example/p`. Then stop.");
    assertThat(InertLinks.of("<a href=\"https://a.example\">here</a>"))
        .isEqualTo("here (`https://a.example`)");
    assertThat(InertLinks.of("[1]: https://evil.example\n正文[1]。"))
        .isEqualTo("1: `https://evil.example`\n正文[1]。");
    assertThat(InertLinks.of("![](https://a.example/i.png)")).isEqualTo("(`https://a.example/i.png`)");
  }

  @Test
  void i30_11_should_leave_code_citations_and_plain_text_alone_and_be_idempotent() {
    String plain = "年假需提前三天申请[1]。Use `curl http://localhost:8080/x` [2].";
    assertThat(InertLinks.of(plain)).isEqualTo(plain);
    for (String s : List.of("见[手册](https://a.example) 与 https://b.example。",
        "<https://c.example> mail@d.example", "[x]: https://e.example")) {
      String once = InertLinks.of(s);
      assertThat(InertLinks.of(once)).isEqualTo(once);
    }
  }
}
