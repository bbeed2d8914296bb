package org.openbook.document.ocr;

import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;

/**
 * Runs the Tesseract command-line program (5.x) on one page image.
 *
 * <p>The CLI rather than a JNI binding (Tess4J): it needs no native library on the JVM's path,
 * a crash or hang costs one process, not the JVM, and a per-page timeout is a plain
 * {@link Process#waitFor(long, TimeUnit)}. Call: {@code tesseract page.png stdout -l <languages>
 * --psm 3 -c preserve_interword_spaces=1} (automatic page segmentation; Chinese keeps no spaces
 * between characters). Spaces Tesseract still puts between two CJK characters are removed, as
 * Chinese text has none and they break BM25 terms and exact matches. Thread-safe.
 */
public final class Tesseract {

  /** A space run between two CJK ideographs or CJK punctuation marks. */
  private static final Pattern CJK_GAP = Pattern.compile(
      "(?<=[\\p{IsHan}\\u3000-\\u303F\\uFF00-\\uFFEF])[ \\t]+(?=[\\p{IsHan}\\u3000-\\u303F\\uFF00-\\uFFEF])");

  private static final ConcurrentHashMap<String, Boolean> FOUND = new ConcurrentHashMap<>();

  private final OcrSettings settings;

  private Tesseract(OcrSettings settings) {
    this.settings = settings;
  }

  /**
   * The OCR engine for {@code settings}, or empty when the mode is OFF or the binary does not
   * run ({@code tesseract --version} fails); the answer per binary is cached for the JVM.
   */
  public static Optional<Tesseract> find(OcrSettings settings) {
    if (settings.mode() == OcrSettings.Mode.OFF) {
      return Optional.empty();
    }
    boolean ok = FOUND.computeIfAbsent(settings.binary(), Tesseract::runs);
    return ok ? Optional.of(new Tesseract(settings)) : Optional.empty();
  }

  /** Hint shown when pages or images could not be read for lack of OCR. */
  public static String installHint() {
    return "install Tesseract to read scans (Debian: apt-get install tesseract-ocr "
        + "tesseract-ocr-chi-sim tesseract-ocr-chi-tra tesseract-ocr-eng) and keep ingest.ocr: auto";
  }

  private static boolean runs(String binary) {
    try {
      Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
      p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The settings in use. */
  public OcrSettings settings() {
    return settings;
  }

  /**
   * Recognises the text of one page image.
   *
   * @return the text, lines kept, spaces between CJK characters removed; may be blank
   * @throws OcrException when Tesseract fails, exits non-zero or exceeds the page timeout
   */
  public String recognize(BufferedImage image) throws OcrException {
    return recognize(image, settings.pageTimeout());
  }

  /**
   * As {@link #recognize(BufferedImage)} with {@code timeout} instead of the page timeout (what is
   * left of a file's OCR budget).
   */
  public String recognize(BufferedImage image, java.time.Duration timeout) throws OcrException {
    Path png = null;
    try {
      png = Files.createTempFile("openbook-ocr-", ".png");
      if (!ImageIO.write(image, "png", png.toFile())) {
        throw new OcrException("cannot encode the page image as PNG");
      }
      return recognize(png, timeout);
    } catch (IOException e) {
      throw new OcrException("cannot write the page image: " + e.getMessage(), e);
    } finally {
      if (png != null) {
        try {
          Files.deleteIfExists(png);
        } catch (IOException ignored) {
          // a leftover temp file is harmless
        }
      }
    }
  }

  private String recognize(Path png, java.time.Duration timeout) throws OcrException {
    List<String> cmd = List.of(settings.binary(), png.toString(), "stdout", "-l",
        settings.languages(), "--psm", "3", "-c", "preserve_interword_spaces=1");
    Path err = null;
    try {
      err = Files.createTempFile("openbook-ocr-", ".err");
      ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
      pb.environment().put("OMP_THREAD_LIMIT", "1"); // one core per page; parallelism is ours
      Process p = pb.start();
      p.getOutputStream().close();
      // stdout is read on a helper thread so a full pipe cannot block the timeout
      var out = new java.util.concurrent.CompletableFuture<byte[]>();
      Thread reader = new Thread(() -> {
        try {
          out.complete(p.getInputStream().readAllBytes());
        } catch (IOException e) {
          out.completeExceptionally(e);
        }
      }, "tesseract-stdout");
      reader.setDaemon(true);
      reader.start();
      long millis = Math.max(1, timeout.toMillis());
      if (!p.waitFor(millis, TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new OcrException("Tesseract took longer than " + Math.max(1, timeout.toSeconds())
            + " s (ingest.ocrPageTimeoutSeconds, or what was left of ingest.ocrTimeoutSeconds)");
      }
      if (p.exitValue() != 0) {
        String msg = Files.readString(err, StandardCharsets.UTF_8).strip();
        throw new OcrException("Tesseract exit code " + p.exitValue() + ": "
            + (msg.length() > 300 ? msg.substring(0, 300) : msg));
      }
      String text = new String(out.get(millis, TimeUnit.MILLISECONDS), StandardCharsets.UTF_8);
      return clean(text);
    } catch (IOException e) {
      throw new OcrException("cannot run " + settings.binary() + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new OcrException("interrupted", e);
    } catch (java.util.concurrent.ExecutionException
        | java.util.concurrent.TimeoutException e) {
      throw new OcrException("cannot read Tesseract's output: " + e, e);
    } finally {
      if (err != null) {
        new File(err.toString()).delete();
      }
    }
  }

  /** Form feeds and trailing spaces dropped, spaces between CJK characters removed. */
  static String clean(String text) {
    String s = text.replace('\f', '\n').replace("\r", "");
    s = CJK_GAP.matcher(s).replaceAll("");
    return s.lines().map(String::strip).reduce((a, b) -> a + "\n" + b).orElse("").strip();
  }
}
