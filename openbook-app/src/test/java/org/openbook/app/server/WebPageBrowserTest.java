package org.openbook.app.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Loads the web page in headless Chromium (Debian's {@code chromium} and {@code chromium-driver}
 * packages), asks a kb-demo question, waits for the streamed answer and clicks its [1] citation
 * to open the source passage. Skipped when {@code /usr/bin/chromedriver} or kb-demo is absent.
 */
class WebPageBrowserTest {
  private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
  private static final String CHROMIUM = "/usr/bin/chromium";

  @TempDir Path root;
  private TestServer server;
  private ChromeDriver browser;

  @BeforeEach
  void start() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(Path.of(CHROMEDRIVER)),
        "needs Debian's chromium-driver: apt-get install -y chromium chromium-driver");
    Path kb = TestServer.kbDemoDocs();
    server = new TestServer(root, 0.1, kb);
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM);
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--window-size=1200,900");
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File(CHROMEDRIVER)).usingAnyFreePort().build();
    browser = new ChromeDriver(service, options);
  }

  @AfterEach
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void should_stream_an_answer_and_open_the_source_of_citation_one() throws Exception {
    browser.get(server.uri("/").toString());
    browser.findElement(By.id("token")).sendKeys("tok-visitor");
    browser.findElement(By.id("question")).sendKeys("ZQ-7781 的滤芯多久更换一次？");
    // Count how often the answer box changes: a streamed answer changes it per delta and at the end.
    browser.executeScript("window.answerUpdates = 0; new MutationObserver(() => window.answerUpdates++)"
        + ".observe(document.getElementById('answer'), {childList: true});");
    browser.findElement(By.id("ask")).click();

    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));
    wait.until(ExpectedConditions.textMatches(By.id("status"), java.util.regex.Pattern.compile("^(Answered|Refused|Failed|Error).*")));
    assertThat(browser.findElement(By.id("status")).getText()).startsWith("Answered");
    List<WebElement> sources = browser.findElements(By.cssSelector("#sources li"));
    assertThat(sources).isNotEmpty();
    String firstSource = sources.get(0).getText();
    assertThat(firstSource).doesNotStartWith("hr/").doesNotStartWith("finance/");
    WebElement answer = browser.findElement(By.id("answer"));
    assertThat(answer.getText()).isNotBlank();
    assertThat(((Number) browser.executeScript("return window.answerUpdates;")).intValue())
        .isGreaterThanOrEqualTo(2);
    WebElement cite = answer.findElement(By.cssSelector("a.cite[data-n='1']"));

    cite.click();

    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("passage")));
    assertThat(browser.findElement(By.id("passage-title")).getText())
        .isEqualTo("[1] " + firstSource.split(" › ")[0].split(" p\\.")[0]);
    assertThat(browser.findElement(By.id("passage-text")).getText()).isNotBlank();
    // Question terms (Han bigrams such as 更换) are marked in the opened passage.
    assertThat(browser.findElements(By.cssSelector("#passage-text mark"))).isNotEmpty();
    Files.write(root.resolve("page.png"), browser.getScreenshotAs(OutputType.BYTES));
    Path keep = Path.of(System.getProperty("java.io.tmpdir"), "openbook-web-page.png");
    Files.copy(root.resolve("page.png"), keep, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
