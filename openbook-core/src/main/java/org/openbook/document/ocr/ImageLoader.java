package org.openbook.document.ocr;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.stream.ImageInputStream;
import org.openbook.document.Document;
import org.openbook.document.DocumentAssembler;
import org.openbook.document.DocumentLoader;
import org.openbook.document.LoadException;
import org.openbook.document.LoadLimits;
import org.openbook.document.LoadResult;
import org.openbook.document.RawFile;
import org.openbook.document.Section;

/**
 * Reads images ({@code .png .jpg .jpeg .tif .tiff}) by OCR: one page per image, or per frame of
 * a multi-page TIFF (decoded with the JDK's Image I/O, which reads TIFF since Java 9). Each page
 * is marked as OCR text ({@link org.openbook.document.PageSpan#ocr()}), its paragraphs are
 * blank-line separated blocks of Tesseract's output. Without OCR the file is skipped with reason
 * {@link LoadException.Reason#IMAGE_NO_OCR}, which does not fail the run.
 */
public final class ImageLoader implements DocumentLoader {

  private final OcrSettings settings;
  private final LoadLimits limits;

  /**
   * @param settings OCR settings; mode OFF or no Tesseract binary means images are skipped
   * @param limits   an image (frame) over {@link LoadLimits#maxOcrPagePixels()} is never decoded;
   *                 frames past {@link LoadLimits#maxOcrPixels()} or
   *                 {@link LoadLimits#ocrTimeout()} per file are not read
   */
  public ImageLoader(OcrSettings settings, LoadLimits limits) {
    this.settings = settings;
    this.limits = limits;
  }

  /** @param settings OCR settings, with {@link LoadLimits#DEFAULTS} */
  public ImageLoader(OcrSettings settings) {
    this(settings, LoadLimits.DEFAULTS);
  }

  @Override
  public Set<String> extensions() {
    return Set.of("png", "jpg", "jpeg", "tif", "tiff");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException IMAGE_NO_OCR when OCR is off or not installed, CORRUPT when the image
   *     cannot be decoded, NEEDS_OCR when OCR failed on every page, EMPTY when no text was found
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    DocumentAssembler out = new DocumentAssembler();
    List<String> warnings = new ArrayList<>();
    List<String> capped = new ArrayList<>();
    int pages = 0;
    long millis = 0;
    int frames;
    try (ImageInputStream in = ImageIO.createImageInputStream(
        new ByteArrayInputStream(raw.bytes()))) {
      Iterator<ImageReader> readers = in == null ? null : ImageIO.getImageReaders(in);
      if (readers == null || !readers.hasNext()) {
        throw new LoadException(LoadException.Reason.CORRUPT,
            source + ": not a readable image (unknown or damaged format)");
      }
      ImageReader reader = readers.next();
      try {
        reader.setInput(in);
        frames = reader.getNumImages(true);
        long firstPixels = (long) reader.getWidth(0) * reader.getHeight(0);
        if (firstPixels > limits.maxOcrPagePixels()) {
          // decoding would allocate the whole raster: a 50000 × 50000 PNG is a few KB on disk
          throw LoadLimits.tooLarge(source, "image of " + reader.getWidth(0) + " × "
              + reader.getHeight(0) + " pixels", limits.maxOcrPagePixels(), "pixels per page",
              "ingest.maxOcrPagePixels");
        }
        BufferedImage first = reader.read(0); // a damaged image is reported as such, OCR or not
        long deadline = System.nanoTime() + limits.ocrTimeout().toNanos();
        long decoded = 0;
        Tesseract ocr = Tesseract.find(settings).orElseThrow(() -> new LoadException(
            LoadException.Reason.IMAGE_NO_OCR, source + ": image not read, OCR is "
                + (settings.mode() == OcrSettings.Mode.OFF ? "off (ingest.ocr: off)"
                    : "not installed; " + Tesseract.installHint())));
        for (int i = 0; i < frames; i++) {
          int page = i + 1;
          if (pages >= settings.maxPages()) {
            warnings.add("pages " + page + "–" + frames + ": over the OCR page limit ("
                + settings.maxPages() + "), not read");
            break;
          }
          long pixels = (long) reader.getWidth(i) * reader.getHeight(i);
          long left = deadline - System.nanoTime();
          String cap = pixels > limits.maxOcrPagePixels()
              ? pixels + " pixels over the limit of " + limits.maxOcrPagePixels()
                  + " pixels per page (ingest.maxOcrPagePixels)"
              : decoded + pixels > limits.maxOcrPixels()
                  ? "OCR of this file would read more than the limit of " + limits.maxOcrPixels()
                      + " pixels per file (ingest.maxOcrPixels)"
                  : left <= 0 ? "OCR of this file took the limit of "
                      + limits.ocrTimeout().toSeconds() + " s per file (ingest.ocrTimeoutSeconds)"
                  : null;
          if (cap != null) {
            warnings.add("page " + page + ": not read by OCR: " + cap);
            capped.add("page " + page + ": " + cap);
            continue;
          }
          decoded += pixels;
          BufferedImage image = i == 0 ? first : reader.read(i);
          long t0 = System.nanoTime();
          String text;
          try {
            text = ocr.recognize(image, java.time.Duration.ofNanos(
                Math.min(left, settings.pageTimeout().toNanos())));
          } catch (OcrException e) {
            warnings.add("page " + page + ": OCR failed (" + e.getMessage() + ")");
            continue;
          } finally {
            millis += (System.nanoTime() - t0) / 1_000_000;
          }
          pages++;
          out.startPage(page);
          for (String para : text.split("\\n\\s*\\n")) {
            out.block(Section.Kind.PARAGRAPH, para);
          }
          out.endPage(true);
        }
      } finally {
        reader.dispose();
      }
    } catch (IOException | RuntimeException e) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": cannot decode image (" + e.getMessage() + ")", e);
    }
    if (out.isEmpty() && !capped.isEmpty()) {
      throw new LoadException(LoadException.Reason.TOO_LARGE, source + ": "
          + String.join("; ", capped.subList(0, Math.min(3, capped.size()))));
    }
    if (out.isEmpty()) {
      throw new LoadException(pages == 0 && !warnings.isEmpty()
          ? LoadException.Reason.NEEDS_OCR : LoadException.Reason.EMPTY,
          source + ": OCR found no text" + (warnings.isEmpty() ? "" : " (" + warnings + ")"));
    }
    String ext = file.getFileName().toString();
    ext = ext.substring(ext.lastIndexOf('.') + 1).toLowerCase(Locale.ROOT);
    Document doc = out.build(source, RawFile.baseName(file), Map.of("format", ext), raw.sha256());
    return new LoadResult(doc, warnings, pages, millis);
  }
}
