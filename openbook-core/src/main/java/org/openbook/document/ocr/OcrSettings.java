package org.openbook.document.ocr;

import java.time.Duration;
import java.util.Objects;

/**
 * How scanned PDF pages and images are read by OCR.
 *
 * @param mode        {@link Mode#AUTO}: OCR when the {@code tesseract} binary is found, else
 *                    pages without text are reported as needing OCR; {@link Mode#OFF}: never
 * @param languages   Tesseract language models joined with {@code +}, e.g. {@code chi_sim+eng}
 *                    (Debian packages {@code tesseract-ocr-chi-sim}, {@code tesseract-ocr-eng})
 * @param dpi         resolution PDF pages are rendered at before OCR, in dots per inch (72–600);
 *                    300 is Tesseract's recommended input resolution
 * @param maxPages    most pages OCR'd per file ({@code >= 1}); further pages are reported, not read
 * @param pageTimeout longest time one page may take; a page over it is reported and skipped
 * @param binary      the Tesseract executable, a name looked up on {@code PATH} or a path
 */
public record OcrSettings(Mode mode, String languages, int dpi, int maxPages,
    Duration pageTimeout, String binary) {

  /** Whether OCR may run. */
  public enum Mode {
    /** OCR when the binary is installed. */
    AUTO,
    /** Never OCR. */
    OFF
  }

  /**
   * Defaults: auto, Simplified Chinese + English, 300 dpi, 200 pages per file (a thick scanned
   * contract; beyond that a corpus wants a batch OCR tool), 120 s per page (Tesseract needs 2–10 s
   * for an A4 page at 300 dpi on one core).
   */
  public static final OcrSettings DEFAULTS =
      new OcrSettings(Mode.AUTO, "chi_sim+eng", 300, 200, Duration.ofSeconds(120), "tesseract");

  /** OCR switched off. */
  public static final OcrSettings OFF = DEFAULTS.withMode(Mode.OFF);

  public OcrSettings {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(pageTimeout, "pageTimeout");
    if (languages == null || !languages.matches("[A-Za-z_]+(\\+[A-Za-z_]+)*")) {
      throw new IllegalArgumentException("ocr languages must look like chi_sim+eng, got "
          + languages);
    }
    if (dpi < 72 || dpi > 600) {
      throw new IllegalArgumentException("ocr dpi must be in [72, 600], got " + dpi);
    }
    if (maxPages < 1) {
      throw new IllegalArgumentException("ocr maxPages must be >= 1, got " + maxPages);
    }
    if (pageTimeout.isNegative() || pageTimeout.isZero()) {
      throw new IllegalArgumentException("ocr pageTimeout must be > 0, got " + pageTimeout);
    }
    if (binary == null || binary.isBlank()) {
      throw new IllegalArgumentException("ocr binary must not be blank");
    }
  }

  /** These settings with {@code m}. */
  public OcrSettings withMode(Mode m) {
    return new OcrSettings(m, languages, dpi, maxPages, pageTimeout, binary);
  }
}
