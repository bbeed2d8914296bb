package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.File;
import java.io.OutputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openbook.answer.RefusalPolicy;
import org.openbook.llm.MockOpenAiServer;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web page in headless Chromium (Debian's {@code chromium} and {@code chromium-driver})
 * against a real server whose LLM is a scripted {@link MockOpenAiServer}: sign-in, a streamed
 * two-turn conversation, copy, feedback, source cards, history after a page refresh and after a
 * server restart, stop, a refusal, a failed LLM call, error events, the Chinese interface, the
 * 390 px layout, and the document library for a writer and its absence for a reader.
 *
 * <p>One browser and one server for the whole class (the tests run in order and build on each
 * other's conversation). Each state is saved as a PNG under {@code <build dir>/screenshots/} for
 * review. Skipped when {@code /usr/bin/chromedriver} is absent.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.api.Tag("browser")
class WebPageBrowserTest {
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final String CHROMIUM = "/usr/bin/chromium";
  private static final String Q1 = "What are the core working hours?";
  private static final String Q2 = "And how long is annual leave in the first year?";
  private static final String A1 = "Core hours are **10:00 to 16:00** for every employee [1]. "
      + "Flexible time is allowed outside core hours [1].";
  private static final String A2 = "Annual leave is 7 days in the first year [1].";

  private Path root;
  private Path shots;
  private MockOpenAiServer llm;
  private PageServer server;
  private ChromeDriver browser;
  private WebDriverWait wait;
  private final HttpClient http = HttpClient.newHttpClient();
  private String conversationUrl;

  /** A screenshot of the page as it was when a test failed, named after the test. */
  @RegisterExtension
  final TestWatcher onFailure = new TestWatcher() {
    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
      try {
        Files.write(shots.resolve("FAILED-" + context.getRequiredTestMethod().getName() + ".png"),
            browser.getScreenshotAs(OutputType.BYTES));
      } catch (Exception ignored) {
        // no browser: nothing to show
      }
    }
  };

  @BeforeAll
  void start() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of(CHROMEDRIVER)),
        "needs Debian's chromium-driver: apt-get install -y chromium chromium-driver");
    root = Files.createTempDirectory("openbook-page-test");
    Path classes = Path.of(WebPageBrowserTest.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
    shots = classes.getParent().resolve("screenshots");
    Files.createDirectories(shots);
    llm = MockOpenAiServer.start();
    server = new PageServer(root, llm);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US");
    options.setExperimentalOption("prefs", Map.of("intl.accept_languages", "en-US,en"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(20));
    // Every document records the Content-Security-Policy violations it meets (checked at the end).
    browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
        "window.cspViolations = []; document.addEventListener('securitypolicyviolation',"
            + " e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"));
    browser.get(server.uri("/").toString());
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
    if (llm != null) {
      llm.close();
    }
  }

  // ---- tests, in the order a user meets the page ----

  @Test
  @Order(1)
  void should_sign_in_with_a_token_and_show_who_you_are() throws Exception {
    WebElement token = visible("token");
    shot("01-sign-in");
    token.sendKeys("tok-wrong", Keys.ENTER);
    wait.until(d -> visibleNow("signin-error"));
    assertThat(text("signin-error")).contains("not accepted");
    shot("02-sign-in-refused");

    signIn("tok-hr");

    assertThat(text("user-name")).isEqualTo("hr");
    assertThat(browser.findElements(By.cssSelector("#user-depts li")).stream()
        .map(WebElement::getText).toList()).containsExactly("hr", "public");
    // After sign-in no token box is shown and the token is nowhere on the page.
    assertThat(visibleNow("token")).isFalse();
    assertThat(pageText()).doesNotContain("tok-hr");
    assertThat(visibleNow("nav-library")).as("hr is a reader, not a writer").isFalse();
    shot("03-signed-in");
  }

  @Test
  @Order(2)
  void should_stream_a_two_turn_conversation() throws Exception {
    llm.then(paced(A1, 40), paced(A2, 40));
    js("window.answerTexts = [];"
        + "new MutationObserver(() => { const a = [...document.querySelectorAll('#turns .answer')].pop();"
        + " if (a) window.answerTexts.push(a.textContent); })"
        + ".observe(document.getElementById('turns'), {childList: true, subtree: true});");
    WebElement q = visible("question");
    // Shift+Enter is a new line, not a send.
    q.sendKeys("draft", Keys.chord(Keys.SHIFT, Keys.ENTER), "line");
    assertThat(q.getAttribute("value")).isEqualTo("draft\nline");
    assertThat(exchanges()).isZero();
    q.clear();

    ask(Q1);

    // Streamed: the answer grew through several partial texts before the final one.
    @SuppressWarnings("unchecked")
    List<String> seen = (List<String>) js("return window.answerTexts;");
    List<String> distinct = seen.stream().distinct().filter(s -> !s.isBlank()).toList();
    assertThat(distinct.size()).as("partial answers seen: %s", distinct).isGreaterThanOrEqualTo(3);
    assertThat(distinct.get(0).length()).isLessThan(distinct.get(distinct.size() - 1).length());
    assertThat(lastAnswer()).contains("Core hours are 10:00 to 16:00");
    // Markdown rendered (bold), the citation marker turned into a button.
    assertThat(browser.findElements(By.cssSelector("#turns .answer strong"))).isNotEmpty();
    assertThat(browser.findElements(By.cssSelector("#turns .answer button.cite"))).isNotEmpty();

    ask(Q2);

    assertThat(exchanges()).isEqualTo(2);
    assertThat(lastAnswer()).contains("7 days in the first year");
    assertThat(browser.findElements(By.cssSelector("#turns .msg.user .bubble")).stream()
        .map(WebElement::getText).toList()).containsExactly(Q1, Q2);
    assertThat(browser.getCurrentUrl()).contains("#/c/");
    conversationUrl = browser.getCurrentUrl();
    wait.until(d -> conversations().size() == 1);
    assertThat(conversations().get(0)).isEqualTo(Q1);
    assertThat(llm.requests()).hasSize(2);
    shot("04-conversation");
  }

  @Test
  @Order(3)
  void should_copy_an_answer_to_the_clipboard() throws Exception {
    browser.executeCdpCommand("Browser.grantPermissions", Map.of(
        "origin", server.uri("").toString(),
        "permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
    WebElement copy = last("#turns .exchange").findElement(By.cssSelector(".act-copy"));

    copy.click();

    wait.until(d -> copy.getAttribute("class").contains("done"));
    Object clip = browser.executeAsyncScript(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('ERR ' + e));");
    assertThat(clip).isEqualTo(A2);
    shot("05-copied");
  }

  @Test
  @Order(4)
  void should_store_a_thumbs_down_with_its_comment() throws Exception {
    WebElement turn = last("#turns .exchange");
    turn.findElement(By.cssSelector(".act-down")).click();
    WebElement comment = wait.until(d -> turn.findElement(By.cssSelector(".feedback-comment")));
    wait.until(d -> "true".equals(turn.findElement(By.cssSelector(".act-down")).getAttribute("aria-pressed")));
    comment.sendKeys("Leave after one year is missing");
    shot("06-feedback-comment");
    turn.findElement(By.cssSelector(".feedback-form button[type=submit]")).click();
    wait.until(d -> !turn.findElements(By.cssSelector(".feedback-thanks")).isEmpty());

    JsonNode fb = get("/v1/feedback", "tok-hr").get("feedback");
    assertThat(fb).hasSize(1);
    assertThat(fb.get(0).get("rating").asText()).isEqualTo("down");
    assertThat(fb.get(0).get("turn").asInt()).isEqualTo(1);
    assertThat(fb.get(0).get("comment").asText()).isEqualTo("Leave after one year is missing");
    // Another principal sees none of it.
    assertThat(get("/v1/feedback", "tok-admin").get("feedback")).isEmpty();
  }

  @Test
  @Order(5)
  void should_show_sources_as_cards_and_open_the_whole_section() throws Exception {
    WebElement turn = browser.findElements(By.cssSelector("#turns .exchange")).get(0);
    List<WebElement> cards = turn.findElements(By.cssSelector(".source-card"));
    assertThat(cards).isNotEmpty();
    WebElement card = cards.get(0);
    String title = card.findElement(By.cssSelector(".source-title")).getText();
    // A readable title, never a file path.
    assertThat(title).isNotBlank().doesNotContain("/").doesNotEndWith(".md");
    assertThat(card.findElement(By.cssSelector(".chip")).getText()).isIn("hr", "public");
    assertThat(card.findElements(By.cssSelector(".source-passage mark"))).as("question terms marked")
        .isNotEmpty();
    String passage = (String) js("return arguments[0].querySelector('.source-passage').textContent;", card);

    card.findElement(By.cssSelector(".source-open")).click();

    wait.until(d -> visibleNow("section-dialog")
        && d.findElement(By.id("section-text")).getAttribute("aria-busy") == null);
    assertThat(text("section-title")).isEqualTo(title);
    String section = (String) js("return document.getElementById('section-text').textContent;");
    assertThat(section).contains(passage.trim());
    assertThat(browser.findElements(By.cssSelector("#section-text mark"))).isNotEmpty();
    shot("07-source-section");
    browser.findElement(By.id("section-close")).click();
    wait.until(d -> !visibleNow("section-dialog"));
  }

  @Test
  @Order(6)
  void should_reload_the_conversation_after_a_page_refresh() throws Exception {
    browser.navigate().refresh();

    waitForConversation(2);
    assertThat(conversations()).containsExactly(Q1);
    assertThat(lastAnswer()).contains("7 days in the first year");
    // The stored thumbs-down is shown as chosen.
    wait.until(d -> "true".equals(last("#turns .exchange").findElement(By.cssSelector(".act-down"))
        .getAttribute("aria-pressed")));
    shot("08-after-refresh");
  }

  @Test
  @Order(7)
  void should_reload_the_conversation_after_a_server_restart_and_rename_it() throws Exception {
    int docsBefore = get("/v1/documents", "tok-admin").get("documents").size();
    server.restart();
    assertThat(get("/v1/documents", "tok-admin").get("documents")).as("documents after restart")
        .hasSize(docsBefore);
    browser.get("about:blank");
    browser.get(conversationUrl);

    waitForConversation(2);
    assertThat(browser.findElements(By.cssSelector("#turns .msg.user .bubble")).stream()
        .map(WebElement::getText).toList()).containsExactly(Q1, Q2);
    assertThat(browser.findElements(By.cssSelector("#turns .source-card"))).isNotEmpty();

    WebElement row = browser.findElement(By.cssSelector("#conversations .conv"));
    new Actions(browser).moveToElement(row).perform();
    row.findElement(By.cssSelector(".conv-rename")).click();
    WebElement input = visible("rename-input");
    input.sendKeys(Keys.chord(Keys.CONTROL, "a"), "Working hours and leave", Keys.ENTER);
    wait.until(d -> conversations().equals(List.of("Working hours and leave")));
    assertThat(get("/v1/conversations", "tok-hr").get("conversations").get(0).get("title").asText())
        .isEqualTo("Working hours and leave");
    shot("09-after-restart-renamed");
  }

  @Test
  @Order(8)
  void should_stop_a_streaming_answer() throws Exception {
    newChat();
    String longAnswer = "Travel expenses are reimbursed within 30 days [1]. ".repeat(12);
    llm.then(paced(longAnswer, 250));

    send("How are travel expenses reimbursed?");
    wait.until(d -> lastAnswer().length() > 10);
    assertThat(visibleNow("stop")).isTrue();
    shot("10-streaming");
    browser.findElement(By.id("stop")).click();

    WebElement notice = wait.until(d -> last("#turns .exchange").findElement(By.cssSelector(".notice.truncated")));
    assertThat(notice.getText()).contains("Stopped");
    String partial = lastAnswer();
    Thread.sleep(600);
    assertThat(lastAnswer()).as("no text after stop").isEqualTo(partial);
    assertThat(partial.length()).isLessThan(longAnswer.length() / 2);
    assertThat(visibleNow("send")).isTrue();
    // The server saw the client go and cancelled the LLM request.
    wait.until(d -> cancelledAsks() >= 1);
    shot("11-stopped");
  }

  @Test
  @Order(9)
  void should_show_a_refusal_as_a_refusal() throws Exception {
    newChat();
    // The model answers with the fixed refusal sentence: the knowledge base has no answer.
    String question = "Which parking spot near the Acme support hotline is reserved for the CEO?";
    int calls = llm.requests().size();
    llm.then(paced(RefusalPolicy.DEFAULT.sentenceFor(question), 10));
    send(question);

    WebElement turn = waitForEnd();
    assertThat(llm.requests()).as("the model was asked and refused").hasSize(calls + 1);
    assertThat(turn.findElements(By.cssSelector(".notice.refused"))).hasSize(1);
    assertThat(turn.findElements(By.cssSelector(".notice.error, .notice.failed"))).isEmpty();
    assertThat(turn.findElement(By.cssSelector(".notice")).getText())
        .contains("No answer in the documents you can read");
    assertThat(turn.findElements(By.cssSelector(".source-card"))).isEmpty();
    shot("12-refusal");
  }

  @Test
  @Order(10)
  void should_say_that_a_failed_llm_call_failed_without_internals() throws Exception {
    newChat();
    llm.then(MockOpenAiServer.error(500, "upstream exploded"));

    send(Q1);

    WebElement turn = waitForEnd();
    assertThat(turn.findElements(By.cssSelector(".notice.failed"))).hasSize(1);
    assertThat(turn.findElement(By.cssSelector(".notice")).getText())
        .contains("The answer could not be generated");
    String page = pageText();
    assertThat(page).doesNotContain(llm.baseUrl()).doesNotContain("upstream exploded")
        .doesNotContain("Exception");
    shot("13-llm-failed");
  }

  @Test
  @Order(11)
  void should_show_an_error_for_an_error_event_and_for_a_stream_without_final() throws Exception {
    newChat();
    fakeNextAskStream("event: sources\ndata: []\n\nevent: delta\ndata: {\"text\":\"Partial\"}\n\n"
        + "event: error\ndata: {\"error\":{\"status\":500,\"field\":null,"
        + "\"message\":\"internal error; quote request id rq-123\",\"requestId\":\"rq-123\"}}\n\n");
    send("first");
    WebElement turn = waitForEnd();
    assertThat(turn.findElement(By.cssSelector(".notice.error")).getText())
        .contains("Something went wrong").contains("rq-123");

    fakeNextAskStream("event: sources\ndata: []\n\nevent: delta\ndata: {\"text\":\"Cut off\"}\n\n");
    send("second");
    WebElement cut = wait.until(d -> exchanges() == 2 ? waitForEnd() : null);
    assertThat(cut.findElement(By.cssSelector(".notice.error")).getText())
        .contains("The connection ended before the answer was complete");
    assertThat(visibleNow("send")).as("the page does not wait forever").isTrue();
    shot("14-stream-errors");
  }

  @Test
  @Order(12)
  void should_delete_a_conversation_after_confirmation() throws Exception {
    browser.get(server.uri("/#/").toString());
    wait.until(d -> conversations().size() >= 2);
    int before = conversations().size();
    WebElement row = browser.findElements(By.cssSelector("#conversations .conv")).get(0);
    String title = row.getText();
    new Actions(browser).moveToElement(row).perform();
    row.findElement(By.cssSelector(".conv-delete")).click();
    wait.until(d -> visibleNow("confirm-dialog"));
    shot("15-delete-confirm");
    browser.findElement(By.id("confirm-ok")).click();

    wait.until(d -> conversations().size() == before - 1);
    assertThat(conversations()).doesNotContain(title);
    assertThat(get("/v1/conversations", "tok-hr").get("conversations")).hasSize(before - 1);
  }

  @Test
  @Order(13)
  void should_show_the_chinese_interface_by_browser_language_and_by_switch() throws Exception {
    // Browser language zh-CN and no saved choice: the page starts in Chinese. (Chromium's
    // --lang is fixed per process, so the language list is overridden in each new document.)
    js("localStorage.removeItem('openbook.lang');");
    Map<String, Object> added = browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument",
        Map.of("source", "Object.defineProperty(navigator, 'languages', {get: () => ['zh-CN', 'zh']});"
            + "Object.defineProperty(navigator, 'language', {get: () => 'zh-CN'});"));
    try {
      browser.get("about:blank");
      browser.get(conversationUrl);
      waitForConversation(2);
      assertThat(text("new-chat")).isEqualTo("新对话");
      assertThat(browser.findElement(By.id("question")).getAttribute("placeholder")).contains("Enter 发送");
      assertThat(browser.findElement(By.tagName("html")).getAttribute("lang")).isEqualTo("zh-CN");
      newChat();
      ask("ZQ-7781 的滤芯多久更换一次？",
          paced("ZQ-7781 的 PP 棉滤芯建议每 **3 个月**更换一次，活性炭滤芯每 6 个月更换一次 [1]。", 20));
      assertThat(lastAnswer()).contains("活性炭滤芯每 6 个月更换一次");
      assertThat(browser.findElements(By.cssSelector("#turns .source-card .source-title")).stream()
          .map(WebElement::getText).toList()).contains("净水器保养指南");
      assertThat(last("#turns .exchange").findElement(By.cssSelector(".sources-title")).getText())
          .isEqualTo("出处");
      shot("16-chinese");

      new Select(browser.findElement(By.id("lang"))).selectByValue("en");
      wait.until(d -> text("new-chat").equals("New chat"));
      browser.navigate().refresh();
      wait.until(d -> visibleNow("app") && exchanges() == 1);
      assertThat(text("new-chat")).as("the switch is remembered").isEqualTo("New chat");
    } finally {
      browser.executeCdpCommand("Page.removeScriptToEvaluateOnNewDocument",
          Map.of("identifier", added.get("identifier")));
    }
  }

  @Test
  @Order(14)
  void should_fit_a_390_px_wide_screen() throws Exception {
    mobile(true);
    try {
      browser.get(conversationUrl);
      waitForConversation(2);
      // The sidebar is a closed drawer (it slides out in 0.2 s when the width drops).
      wait.until(d -> !isOnScreen("sidebar"));
      assertNoHorizontalScroll();
      shot("17-mobile-chat");
      browser.findElement(By.id("menu")).click();
      wait.until(d -> isOnScreen("sidebar"));
      Thread.sleep(300);
      assertNoHorizontalScroll();
      shot("18-mobile-drawer");
      browser.findElement(By.cssSelector("#conversations .conv-open")).click();
      wait.until(d -> !isOnScreen("sidebar"));
      ask("Who approves leave longer than 3 days?", paced("The vice president in charge approves it [1].", 10));
      assertNoHorizontalScroll();
      shot("19-mobile-answer");
    } finally {
      mobile(false);
    }
  }

  @Test
  @Order(15)
  void should_hide_the_document_library_from_a_reader() throws Exception {
    signIn("tok-visitor");
    assertThat(text("user-name")).isEqualTo("visitor");
    assertThat(visibleNow("nav-library")).isFalse();
    // The visitor sees no conversation of hr's, neither left over on screen nor from the server.
    wait.until(d -> "true".equals(d.findElement(By.id("conversations")).getAttribute("data-loaded")));
    assertThat(conversations()).isEmpty();
    assertThat(get("/v1/conversations", "tok-visitor").get("conversations")).isEmpty();

    browser.get(server.uri("/#/library").toString());
    wait.until(d -> visibleNow("chat-view"));
    assertThat(visibleNow("library-view")).isFalse();
    shot("20-reader-no-library");
  }

  @Test
  @Order(16)
  void should_upload_with_progress_and_delete_with_confirmation_as_a_writer() throws Exception {
    signIn("tok-admin");
    assertThat(visibleNow("nav-library")).isTrue();
    browser.findElement(By.id("nav-library")).click();
    wait.until(d -> visibleNow("library-view") && !d.findElements(By.cssSelector("#documents tr")).isEmpty());
    List<String> titles = browser.findElements(By.cssSelector("#documents .doc-title")).stream()
        .map(WebElement::getText).toList();
    assertThat(titles).contains("净水器保养指南", "About Acme").allMatch(t -> !t.contains("/"));
    assertThat(browser.findElements(By.cssSelector("#documents .doc-dept")).stream()
        .map(WebElement::getText).distinct().toList()).contains("public", "hr", "finance");
    shot("21-library");

    // Record every value the progress bar takes.
    js("window.progressSeen = []; new MutationObserver(() => { for (const p of document.querySelectorAll('#uploads progress'))"
        + " window.progressSeen.push(p.value + '|' + p.parentElement.querySelector('.upload-status').textContent); })"
        + ".observe(document.getElementById('uploads'), {subtree: true, childList: true, attributes: true, characterData: true});");
    Path file = root.resolve("visitor-policy.md");
    Files.writeString(file, "---\ntitle: Visitor policy\ndept: public\n---\n# Visitors\n\n"
        + "Visitors sign in at the front desk and wear a badge at all times.\n", StandardCharsets.UTF_8);
    browser.findElement(By.id("upload-input")).sendKeys(file.toString());

    WebElement upload = wait.until(d -> d.findElement(By.cssSelector("#uploads .upload.ok")));
    assertThat(upload.findElement(By.cssSelector("progress")).getAttribute("value")).isEqualTo("100");
    @SuppressWarnings("unchecked")
    List<String> progress = (List<String>) js("return window.progressSeen;");
    assertThat(progress).anyMatch(p -> p.startsWith("50|")).anyMatch(p -> p.startsWith("100|"));
    wait.until(d -> docTitles().contains("Visitor policy"));
    shot("22-uploaded");

    // Drag and drop: a drop event carrying a file, as the browser fires it.
    js("const dt = new DataTransfer();"
        + "dt.items.add(new File(['# Parking\\n\\nParking is free for visitors on level 2.\\n'], 'parking.md', {type: 'text/markdown'}));"
        + "const z = document.getElementById('dropzone');"
        + "z.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));"
        + "z.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));");
    wait.until(d -> d.findElements(By.cssSelector("#uploads .upload.ok")).size() == 2);
    wait.until(d -> docTitles().contains("Parking"));

    // Delete: cancel keeps the document, confirm removes it.
    WebElement row = docRow("Visitor policy");
    row.findElement(By.cssSelector(".doc-delete")).click();
    wait.until(d -> visibleNow("confirm-dialog"));
    browser.findElement(By.cssSelector("#confirm-dialog [data-close]")).click();
    wait.until(d -> !visibleNow("confirm-dialog"));
    assertThat(docTitles()).contains("Visitor policy");
    docRow("Visitor policy").findElement(By.cssSelector(".doc-delete")).click();
    wait.until(d -> visibleNow("confirm-dialog"));
    shot("23-delete-document");
    browser.findElement(By.id("confirm-ok")).click();
    wait.until(d -> !docTitles().contains("Visitor policy"));
    JsonNode docs = get("/v1/documents", "tok-admin").get("documents");
    List<String> sources = new ArrayList<>();
    docs.forEach(d -> sources.add(d.get("source").asText()));
    assertThat(sources).doesNotContain("visitor-policy.md").contains("parking.md");

    mobile(true);
    try {
      browser.navigate().refresh();
      wait.until(d -> !d.findElements(By.cssSelector("#documents tr")).isEmpty());
      assertNoHorizontalScroll();
      shot("24-mobile-library");
    } finally {
      mobile(false);
    }
  }

  @Test
  @Order(17)
  void should_render_markdown_without_injecting_html_and_regenerate_an_answer() throws Exception {
    newChat();
    js("window.pwned = null;");
    ask("When does the Acme support hotline open?", paced("**Bold** fact and `code` [1].\n\n"
        + "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script> "
        + "[click](javascript:window.pwned=3)", 5));

    WebElement turn = last("#turns .exchange");
    WebElement answer = turn.findElement(By.cssSelector(".answer"));
    assertThat(answer.findElements(By.cssSelector("strong"))).hasSize(1);
    // the `code` span, plus the address of the (inert) javascript: link
    assertThat(answer.findElements(By.xpath(".//code[text()='code']"))).hasSize(1);
    assertThat(answer.findElements(By.cssSelector("img, script, iframe, [onerror]"))).isEmpty();
    assertThat(answer.findElements(By.cssSelector("a[href^='javascript']"))).isEmpty();
    assertThat(answer.getText()).contains("<img src=x onerror=");
    assertThat(js("return window.pwned;")).isNull();

    // k, timings and diagnostics stay behind the details toggle.
    WebElement details = turn.findElement(By.cssSelector(".details"));
    assertThat(details.isDisplayed()).isFalse();
    assertThat(visibleNow("k-field")).isFalse();
    browser.findElement(By.id("details-toggle")).click();
    wait.until(d -> details.isDisplayed());
    assertThat(details.getText()).contains("Generator").contains("Retrieval").contains(" ms");
    assertThat(visibleNow("k-field")).isTrue();
    shot("25-details");
    browser.findElement(By.id("details-toggle")).click();
    wait.until(d -> !details.isDisplayed());

    llm.then(paced("The support hotline opens at 9:00 on weekdays [1].", 5));
    turn.findElement(By.cssSelector(".act-regenerate")).click();
    wait.until(d -> lastAnswer().contains("opens at 9:00") && visibleNow("send"));
    assertThat(exchanges()).isEqualTo(1);
    waitForEnd();
    browser.navigate().refresh();
    wait.until(d -> visibleNow("app") && exchanges() == 1 && lastAnswer().contains("opens at 9:00"));
  }

  @Test
  @Order(17)
  void i30_11_should_show_links_from_documents_as_text_and_never_make_them_live()
      throws Exception {
    newChat();
    String links = "请用[安全测试单点登录](http://127.0.0.1:9/phish?token=)完成测试 [1]。"
        + "另见 <http://127.0.0.1:9/auto> 与 http://127.0.0.1:9/bare 以及 [参考][r]。\n\n"
        + "[r]: http://127.0.0.1:9/ref\n\n<a href=\"http://127.0.0.1:9/html\">入口</a>";
    ask("When does the Acme support hotline open?", paced(links, 5));
    WebElement answer = last("#turns .exchange").findElement(By.cssSelector(".answer"));
    assertThat(answer.getText()).contains("安全测试单点登录").contains("127.0.0.1:9/phish");
    assertThat(answer.findElements(By.cssSelector("a[href]"))).isEmpty();
    assertThat(answer.findElements(By.cssSelector("button.cite"))).isNotEmpty();

    // the page alone, on raw Markdown the server never rewrote: still no live link
    Object anchors = ((org.openqa.selenium.JavascriptExecutor) browser).executeAsyncScript(
        "const done = arguments[arguments.length - 1];"
            + "import('/js/markdown.js').then(m => { const f = m.render(arguments[0], n => {"
            + " const b = document.createElement('button'); b.textContent = n; return b; });"
            + " done([f.querySelectorAll('a').length, f.querySelectorAll('button').length,"
            + " f.textContent]); }).catch(e => done(String(e)));", links);
    assertThat(anchors).asString().startsWith("[0, 1, ").contains("http://127.0.0.1:9/phish");
  }

  @Test
  @Order(18)
  void should_run_under_a_strict_content_security_policy() throws Exception {
    HttpResponse<String> page = http.send(HttpRequest.newBuilder(server.uri("/")).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
    assertThat(csp).contains("script-src 'self'").contains("frame-ancestors 'none'")
        .doesNotContain("unsafe-inline").doesNotContain("unsafe-eval");
    assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    // No inline script, handler or style in the page itself.
    assertThat(page.body()).doesNotContainPattern("<script(?![^>]*\\ssrc=)")
        .doesNotContainPattern("\\son[a-z]+=").doesNotContainPattern("\\sstyle=");
    // The page loaded here met no violation; every screenshot (each state) checked the same.
    browser.get(server.uri("/").toString());
    wait.until(d -> visibleNow("app"));
    assertThat(js("return window.cspViolations;")).asList().isEmpty();
  }

  // ---- helpers ----

  /** A streamed reply of {@code text} in pieces of 3 code points, {@code delayMillis} apart. */
  private static MockOpenAiServer.Script paced(String text, long delayMillis) {
    return (HttpExchange exchange, JsonNode request) -> {
      int[] cps = text.codePoints().toArray();
      List<String> pieces = new ArrayList<>();
      for (int i = 0; i < cps.length; i += 3) {
        pieces.add(new String(cps, i, Math.min(3, cps.length - i)));
      }
      String[] events = new String(MockOpenAiServer.sse(pieces.toArray(String[]::new)),
          StandardCharsets.UTF_8).split("(?<=\n\n)");
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream; charset=utf-8");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      for (String e : events) {
        out.write(e.getBytes(StandardCharsets.UTF_8));
        out.flush();
        Thread.sleep(delayMillis);
      }
    };
  }

  /** Makes the page's next POST v1/ask answer with {@code body} as its event stream. */
  private void fakeNextAskStream(String body) {
    js("const body = arguments[0]; const real = window.fetch;"
        + "window.fetch = (url, init) => { if (String(url).endsWith('v1/ask')) { window.fetch = real;"
        + " return Promise.resolve(new Response(body, {status: 200, headers: {'Content-Type': 'text/event-stream'}})); }"
        + " return real(url, init); };", body);
  }

  private void signIn(String token) {
    if (visibleNow("app")) {
      if (!isOnScreen("signout")) {
        browser.findElement(By.id("menu")).click();
      }
      browser.findElement(By.id("signout")).click();
    }
    visible("token").sendKeys(token, Keys.ENTER);
    wait.until(d -> visibleNow("app") && !text("user-name").isEmpty()
        && "true".equals(d.findElement(By.id("conversations")).getAttribute("data-loaded")));
  }

  private void newChat() {
    browser.findElement(By.id("new-chat")).click();
    wait.until(d -> exchanges() == 0);
  }

  private void send(String question) {
    WebElement q = visible("question");
    q.sendKeys(question, Keys.ENTER);
  }

  /** Sends {@code question} (after queuing {@code scripts}) and waits for its answer to end. */
  private void ask(String question, MockOpenAiServer.Script... scripts) {
    llm.then(scripts);
    int before = exchanges();
    send(question);
    wait.until(d -> exchanges() == before + 1);
    waitForEnd();
  }

  /** Waits until the last exchange has ended (its actions or a notice shown) and returns it. */
  private WebElement waitForEnd() {
    return wait.until(d -> {
      WebElement x = last("#turns .exchange");
      boolean ended = x != null && visibleNow("send")
          && (x.findElement(By.cssSelector(".actions")).isDisplayed()
          || x.findElement(By.cssSelector(".notice")).isDisplayed());
      return ended ? x : null;
    });
  }

  private void waitForConversation(int turns) {
    wait.until(d -> visibleNow("app") && exchanges() == turns
        && !d.findElements(By.cssSelector("#conversations .conv")).isEmpty());
    waitForEnd();
  }

  private int exchanges() {
    return browser.findElements(By.cssSelector("#turns .exchange")).size();
  }

  private WebElement last(String css) {
    List<WebElement> all = browser.findElements(By.cssSelector(css));
    return all.isEmpty() ? null : all.get(all.size() - 1);
  }

  private String lastAnswer() {
    WebElement x = last("#turns .exchange .answer");
    return x == null ? "" : (String) js("return arguments[0].textContent;", x);
  }

  @SuppressWarnings("unchecked")
  private List<String> conversations() {
    // One script, so a list re-rendered meanwhile cannot leave a stale element behind.
    return (List<String>) js("return [...document.querySelectorAll('#conversations .conv-title')]"
        + ".map(e => e.textContent);");
  }

  @SuppressWarnings("unchecked")
  private List<String> docTitles() {
    return (List<String>) js("return [...document.querySelectorAll('#documents .doc-title')]"
        + ".map(e => e.textContent);");
  }

  private WebElement docRow(String title) {
    return (WebElement) js("return [...document.querySelectorAll('#documents tr')]"
        + ".find(r => r.querySelector('.doc-title').textContent === arguments[0]);", title);
  }

  private WebElement visible(String id) {
    return wait.until(d -> {
      WebElement e = d.findElement(By.id(id));
      return e.isDisplayed() ? e : null;
    });
  }

  private boolean visibleNow(String id) {
    List<WebElement> e = browser.findElements(By.id(id));
    return !e.isEmpty() && e.get(0).isDisplayed();
  }

  /** Whether element {@code id} lies (at least partly) inside the viewport horizontally. */
  private boolean isOnScreen(String id) {
    return (Boolean) js("const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        + "return r.right > 1 && r.left < innerWidth - 1;", id);
  }

  private String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private String pageText() {
    return browser.findElement(By.tagName("body")).getText();
  }

  private Object js(String script, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(script, args);
  }

  private void mobile(boolean on) {
    if (on) {
      browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of(
          "width", 390, "height", 844, "deviceScaleFactor", 1, "mobile", true));
    } else {
      browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
    }
  }

  private void assertNoHorizontalScroll() {
    Number scroll = (Number) js("return document.documentElement.scrollWidth;");
    Number inner = (Number) js("return window.innerWidth;");
    assertThat(inner.intValue()).isEqualTo(390);
    assertThat(scroll.intValue()).isLessThanOrEqualTo(inner.intValue());
    Number body = (Number) js("return document.body.scrollWidth;");
    assertThat(body.intValue()).isLessThanOrEqualTo(inner.intValue());
  }

  private JsonNode get(String path, String token) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri(path))
        .header("Authorization", "Bearer " + token).GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
    return TestServer.JSON.readTree(r.body());
  }

  /** {@code openbook_ask_cancelled_total} from the server's /metrics. */
  private double cancelledAsks() {
    try {
      String text = http.send(HttpRequest.newBuilder(server.uri("/metrics")).GET().build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8)).body();
      Matcher m = Pattern
          .compile("(?m)^openbook_ask_cancelled_total\\s+([0-9.eE+-]+)").matcher(text);
      return m.find() ? Double.parseDouble(m.group(1)) : 0;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Saves a screenshot of the current state, which must have met no CSP violation. */
  private void shot(String name) throws Exception {
    Files.write(shots.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
    assertThat(js("return window.cspViolations || [];")).asList()
        .as("Content-Security-Policy violations at %s", name).isEmpty();
  }
}
