package org.openbook.document;

import java.util.Objects;
import org.openbook.document.ocr.OcrSettings;

/**
 * Options of the loaders that the configuration may change.
 *
 * @param includeHiddenSheets whether hidden sheets, rows and columns of spreadsheets are indexed
 *                            (configuration {@code ingest.hiddenSheets: include}); default false,
 *                            as they often hold internal data
 * @param ocr                 OCR of scanned PDF pages and images
 * @param limits              what one file may make a loader spend (inflated bytes, XML nodes,
 *                            OCR pixels and time)
 */
public record LoaderSettings(boolean includeHiddenSheets, OcrSettings ocr, LoadLimits limits) {

  /** Hidden sheets skipped, OCR auto with its defaults, default limits. */
  public static final LoaderSettings DEFAULTS = new LoaderSettings(false, OcrSettings.DEFAULTS);

  public LoaderSettings {
    Objects.requireNonNull(ocr, "ocr");
    Objects.requireNonNull(limits, "limits");
  }

  /** Settings with the default {@link LoadLimits}. */
  public LoaderSettings(boolean includeHiddenSheets, OcrSettings ocr) {
    this(includeHiddenSheets, ocr, LoadLimits.DEFAULTS);
  }
}
