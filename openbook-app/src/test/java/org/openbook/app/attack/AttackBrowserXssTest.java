package org.openbook.app.attack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.app.attack.RealServer.json;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 30, attack suite: stored XSS through the web page of a real {@code openbook serve}, in
 * headless Chromium. Document titles, passage text and file names of the corpus
 * ({@link AttackCorpus}) and a conversation title carry {@code <img onerror>}, {@code <svg
 * onload>}, {@code <script>}, {@code "><script>} and {@code javascript:} payloads; after the
 * sidebar, a stored conversation, a fresh streamed answer with its source cards, each card's
 * section dialog and the document library are rendered, {@code window.__xss} is unset, no
 * element carries an event-handler attribute, a {@code javascript:} URL, an inline script or a
 * frame, no Content-Security-Policy violation happened, and the payloads are shown as text.
 *
 * <p>Needs Debian's {@code chromium} and {@code chromium-driver} (.ci/run installs them):
 * skipped without them, but failed when {@code CI=true} or {@code OPENBOOK_REQUIRE_SHARED} is set.
 */
@ExtendWith(RealServer.Extension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@org.junit.jupiter.api.Tag("browser")
@org.junit.jupiter.api.Tag("attack")
class AttackBrowserXssTest {
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final String CHROMIUM = "/usr/bin/chromium";
  static final String XSS_CONVERSATION_TITLE = "\"><script>window.__xss=20</script>"
      + "<img src=x onerror=window.__xss=21><svg onload=window.__xss=22>"
      + "<a href=\"javascript:window.__xss=23\">x</a>";

  /** Whatever injected markup would leave in the DOM, as a list of findings (empty = clean). */
  private static final String FINDINGS = """
      const bad = [];
      if (window.__xss !== undefined) bad.push('window.__xss=' + window.__xss);
      for (const e of document.querySelectorAll('*')) {
        for (const a of e.attributes) {
          if (/^on/i.test(a.name)) bad.push(e.tagName + '[' + a.name + '=' + a.value + ']');
          if (/^\\s*(javascript|vbscript|data:text\\/html)/i.test(a.value)
              && /^(href|src|action|formaction|data|xlink:href|srcdoc)$/i.test(a.name)) {
            bad.push(e.tagName + '[' + a.name + '=' + a.value + ']');
          }
        }
      }
      for (const s of document.querySelectorAll('script:not([src])')) bad.push('inline script');
      for (const f of document.querySelectorAll('iframe, object, embed, img[src="x"]')) {
        bad.push(f.outerHTML.slice(0, 80));
      }
      for (const v of window.cspViolations || []) bad.push('CSP violation ' + v);
      return bad;""";

  private RealServer s;
  private ChromeDriver browser;
  private WebDriverWait wait;
  private Path shots;
  private String conversationId;

  @BeforeAll
  void start() throws Exception {
    requireChromium();
    s = RealServer.shared();
    shots = s.logFile.resolveSibling("screenshots");
    Files.createDirectories(shots);
    conversationId = json(s.ask("tok-admin", "What colour is the XSSPROBE sticker?"))
        .get("conversationId").asText();
    assertThat(s.patch("/v1/conversations/" + conversationId, "tok-admin",
        RealServer.JSON.createObjectNode().put("title", XSS_CONVERSATION_TITLE).toString())
        .statusCode()).isEqualTo(200);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--window-size=1280,900", "--lang=en-US");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
    wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
        "window.cspViolations = []; document.addEventListener('securitypolicyviolation',"
            + " e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));"));
    browser.get(s.uri("/").toString());
    visible("token").sendKeys("tok-admin", Keys.ENTER);
    wait.until(d -> visibleNow("app") && "true".equals(
        d.findElement(By.id("conversations")).getAttribute("data-loaded")));
  }

  /** Skips without Chromium on a developer's machine; fails in CI. */
  private static void requireChromium() {
    boolean present = Files.isExecutable(Path.of(CHROMEDRIVER))
        && Files.isExecutable(Path.of(CHROMIUM));
    String ci = System.getenv("CI");
    String required = System.getenv("OPENBOOK_REQUIRE_SHARED");
    boolean mustRun = "true".equalsIgnoreCase(ci)
        || required != null && !required.isBlank() && !required.equals("0");
    if (!present && mustRun) {
      throw new IllegalStateException("the XSS attack tests need " + CHROMIUM + " and "
          + CHROMEDRIVER + " (apt-get install -y chromium chromium-driver fonts-wqy-zenhei;"
          + " .ci/run installs them); CI may not skip them");
    }
    Assumptions.assumeTrue(present, "needs Debian's chromium and chromium-driver");
  }

  @AfterAll
  void stop() {
    if (browser != null) {
      browser.quit();
    }
  }

  @Test
  @Order(1)
  void should_show_a_conversation_title_with_markup_as_text_in_the_sidebar() throws Exception {
    wait.until(d -> titles().contains(XSS_CONVERSATION_TITLE.strip()));

    assertClean("01-sidebar");
  }

  @Test
  @Order(2)
  void should_render_a_stored_conversation_and_its_source_cards_inert() throws Exception {
    browser.get(s.uri("/#/c/" + conversationId).toString());
    wait.until(d -> !d.findElements(By.cssSelector("#turns .exchange .answer")).isEmpty()
        && visibleNow("send"));

    assertThat(text("view-title")).contains("<script>window.__xss=20</script>");
    assertClean("02-stored-conversation");
  }

  @Test
  @Order(3)
  void should_render_a_fresh_answer_with_markup_in_titles_passages_and_file_names_inert()
      throws Exception {
    browser.findElement(By.id("new-chat")).click();
    wait.until(d -> d.findElements(By.cssSelector("#turns .exchange")).isEmpty());

    ask("Is the XSSPROBE warranty sticker blue and round?");
    ask("Tell me about the XSSPROBE sticker card, file name and colour.");

    List<WebElement> cards = browser.findElements(By.cssSelector("#turns .source-card"));
    assertThat(cards).isNotEmpty();
    String shown = (String) js("return [...document.querySelectorAll('#turns .source-card,"
        + " #turns .answer')].map(c => c.textContent).join('\\n');");
    // the payloads are there, as text: a title, file names, passages and answers quoting them
    assertThat(shown).contains("<img src=x onerror=window.__xss=1>", "<script>window.__xss=4",
        "\"><img src=x onerror=window.__xss=9>", "<svg onload=window.__xss=10>");
    assertClean("03-fresh-answer");
  }

  @Test
  @Order(4)
  void should_open_every_source_section_inert() throws Exception {
    int n = browser.findElements(By.cssSelector("#turns .source-card .source-open")).size();
    assertThat(n).isPositive();
    for (int i = 0; i < n; i++) {
      browser.findElements(By.cssSelector("#turns .source-card .source-open")).get(i).click();
      wait.until(d -> visibleNow("section-dialog")
          && d.findElement(By.id("section-text")).getAttribute("aria-busy") == null);
      assertClean("04-section-" + i);
      browser.findElement(By.id("section-close")).click();
      wait.until(d -> !visibleNow("section-dialog"));
    }
  }

  @Test
  @Order(5)
  void should_list_documents_with_markup_in_titles_and_file_names_inert() throws Exception {
    browser.get(s.uri("/#/library").toString());
    wait.until(d -> visibleNow("library-view")
        && d.findElements(By.cssSelector("#documents tr")).size() > 5);

    String files = (String) js("return [...document.querySelectorAll('#documents .doc-file')]"
        + ".map(e => e.textContent).join('\\n');");
    String docTitles = (String) js("return [...document.querySelectorAll('#documents .doc-title')]"
        + ".map(e => e.textContent).join('\\n');");
    assertThat(files).contains("\"><img src=x onerror=window.__xss=9>.md",
        "<svg onload=window.__xss=10>.txt");
    assertThat(docTitles).contains("<img src=x onerror=window.__xss=1>");
    assertClean("05-library");
  }

  /** Issue 30 item 11: a link in a document must not become a live link inside an answer. */
  @Test
  @Order(6)
  void i30_11_should_never_make_a_link_from_a_document_live_inside_an_answer() throws Exception {
    browser.get(s.uri("/#/").toString());
    wait.until(d -> visibleNow("question"));
    browser.findElement(By.id("new-chat")).click();

    ask("员工通过什么入口登录内部系统？安全测试单点登录、备用入口和旧入口在哪里？");

    String answer = (String) js("const a = [...document.querySelectorAll('#turns .answer')].pop();"
        + " return a ? a.textContent : '';");
    assertThat(answer).as("the answer quotes the passage with the links").contains("127.0.0.1:9");
    @SuppressWarnings("unchecked")
    List<String> live = (List<String>) js("return [...document.querySelectorAll('#turns .answer a[href]')]"
        + ".map(a => a.href).filter(h => h.includes('127.0.0.1:9'));");
    shot("06-links-in-answer");
    assertThat(live).as("live links to a document's URLs inside the answer").isEmpty();
  }

  // ---- helpers ----

  private void ask(String question) {
    int before = browser.findElements(By.cssSelector("#turns .exchange")).size();
    visible("question").sendKeys(question, Keys.ENTER);
    wait.until(d -> d.findElements(By.cssSelector("#turns .exchange")).size() == before + 1);
    wait.until(d -> {
      List<WebElement> all = d.findElements(By.cssSelector("#turns .exchange"));
      WebElement x = all.get(all.size() - 1);
      return visibleNow("send") && (x.findElement(By.cssSelector(".actions")).isDisplayed()
          || x.findElement(By.cssSelector(".notice")).isDisplayed());
    });
  }

  @SuppressWarnings("unchecked")
  private List<String> titles() {
    return (List<String>) js("return [...document.querySelectorAll('#conversations .conv-title')]"
        + ".map(e => e.textContent.trim());");
  }

  @SuppressWarnings("unchecked")
  private void assertClean(String state) throws Exception {
    shot(state);
    List<String> findings = (List<String>) js(FINDINGS);
    assertThat(findings).as("injected markup at %s", state).isEmpty();
  }

  private void shot(String name) throws Exception {
    Files.write(shots.resolve(name + ".png"), browser.getScreenshotAs(OutputType.BYTES));
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

  private String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private Object js(String script, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(script, args);
  }
}
