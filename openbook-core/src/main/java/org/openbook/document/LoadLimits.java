package org.openbook.document;

import java.time.Duration;
import java.util.Objects;

/**
 * What one file may make a loader spend, so that a small hostile file (a zip bomb under the ratio
 * check, an XML part of millions of elements, a PDF of huge blank pages) is skipped as
 * {@link LoadException.Reason#TOO_LARGE} naming the limit instead of exhausting memory or CPU.
 *
 * @param maxInflatedBytes most bytes all entries of a zip-based file (docx, xlsx, pptx, odt, ods,
 *                         odp) may inflate to together ({@code ingest.maxInflatedBytes})
 * @param maxXmlNodes      most XML elements plus attributes in all XML parts of such a file
 *                         ({@code ingest.maxXmlNodes})
 * @param maxOcrPagePixels most pixels one page or image may have when rendered for OCR; a
 *                         larger page is not rendered ({@code ingest.maxOcrPagePixels})
 * @param maxOcrPixels     most pixels rendered for OCR per file, all pages together
 *                         ({@code ingest.maxOcrPixels})
 * @param ocrTimeout       most OCR time per file, all pages together; pages after it are not
 *                         read ({@code ingest.ocrTimeoutSeconds})
 */
public record LoadLimits(long maxInflatedBytes, long maxXmlNodes, long maxOcrPagePixels,
    long maxOcrPixels, Duration ocrTimeout) {

  /**
   * Default inflated bytes per file: 100 MiB. The loaders hold a file's part tree in memory (DOM
   * or XMLBeans, 5–10× the XML's size), so this is about what a 1–2 GB heap parses safely; a
   * 300-page Word file inflates to about 5 MB, and images barely inflate.
   */
  public static final long DEFAULT_MAX_INFLATED_BYTES = 100L * 1024 * 1024;
  /**
   * Default XML nodes per file: 4 million elements plus attributes, about a million spreadsheet
   * cells or 20× a 300-page Word file (at roughly 100 bytes per DOM node, 400 MB of heap).
   */
  public static final long DEFAULT_MAX_XML_NODES = 4_000_000;
  /** Default pixels per rendered page: 40 M, above an A2 page at 300 dpi (34.8 M, 35 MB grey). */
  public static final long DEFAULT_MAX_OCR_PAGE_PIXELS = 40_000_000;
  /** Default pixels per file: 2 G, about 230 A4 pages at 300 dpi (the page limit binds first). */
  public static final long DEFAULT_MAX_OCR_PIXELS = 2_000_000_000L;
  /** Default OCR time per file: 10 min, about 100 A4 pages at Tesseract's 5–6 s per page. */
  public static final int DEFAULT_OCR_TIMEOUT_SECONDS = 600;

  /** Every limit at its default. */
  public static final LoadLimits DEFAULTS = new LoadLimits(DEFAULT_MAX_INFLATED_BYTES,
      DEFAULT_MAX_XML_NODES, DEFAULT_MAX_OCR_PAGE_PIXELS, DEFAULT_MAX_OCR_PIXELS,
      Duration.ofSeconds(DEFAULT_OCR_TIMEOUT_SECONDS));

  /** @throws IllegalArgumentException naming the configuration key of a value below 1 */
  public LoadLimits {
    Objects.requireNonNull(ocrTimeout, "ocrTimeout");
    positive("ingest.maxInflatedBytes", maxInflatedBytes);
    positive("ingest.maxXmlNodes", maxXmlNodes);
    positive("ingest.maxOcrPagePixels", maxOcrPagePixels);
    positive("ingest.maxOcrPixels", maxOcrPixels);
    if (ocrTimeout.isNegative() || ocrTimeout.isZero()) {
      throw new IllegalArgumentException("ingest.ocrTimeoutSeconds must be >= 1, got "
          + ocrTimeout);
    }
  }

  private static void positive(String key, long v) {
    if (v < 1) {
      throw new IllegalArgumentException(key + " must be >= 1, got " + v);
    }
  }

  /**
   * The TOO_LARGE skip of {@code source}: {@code "<source>: <what> over the limit of <limit>
   * <unit> (<key>)"}.
   */
  public static LoadException tooLarge(String source, String what, long limit, String unit,
      String key) {
    return new LoadException(LoadException.Reason.TOO_LARGE, source + ": " + what
        + " over the limit of " + limit + " " + unit + " (" + key + ")");
  }
}
