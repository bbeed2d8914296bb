package org.openbook.document;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.stream.Collectors;
import java.util.regex.Pattern;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;
import org.apache.pdfbox.rendering.ImageType;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.openbook.document.ocr.OcrException;
import org.openbook.document.ocr.OcrSettings;
import org.openbook.document.ocr.Tesseract;

/**
 * Loads PDF with Apache PDFBox 3, page by page.
 *
 * <p>{@link Document#text()} is the cleaned text of every page joined with
 * {@value #PAGE_SEPARATOR}; {@link Document#pages()} has one 1-based {@link PageSpan} per page.
 * Sections are the paragraphs of each page (PDFBox's paragraph detection, with wrapped lines
 * rejoined, see {@link #clean}), so a section never spans two pages and every chunk can cite its page (bug case R17).
 * Numbered clause headings ({@code 第三条 保修期限}, see {@link ClauseHeadings}) cut paragraphs and
 * give the sections after them their heading path, across pages, since neither a text layer nor
 * OCR carries heading styles.
 *
 * <p>Cleaning: C0 control characters other than {@code \n} and {@code \t} are removed and the
 * text is NFC-normalised. A page whose non-whitespace characters are more than
 * {@value #MAX_SUSPECT_SHARE} U+FFFD, private-use code points or {@code (cid:N)} placeholders
 * (fonts without a usable ToUnicode map, bug case R18) is reported as suspect and not indexed; a
 * page with no text is reported as needing OCR and not indexed.
 *
 * <p>PDFBox's parser is lenient by default and rebuilds a damaged cross-reference table.
 */
public final class PdfLoader implements DocumentLoader {

  private final OcrSettings ocr;
  private final LoadLimits limits;

  /**
   * @param ocr    OCR of pages without a text layer: such a page is rendered at
   *               {@code ocr.dpi()} in grey and read by {@link Tesseract} (its
   *               {@link PageSpan#ocr()} set); with OCR off or not installed it is reported as
   *               needing OCR, as before
   * @param limits OCR budget: a page over {@link LoadLimits#maxOcrPagePixels()} at that dpi is
   *               never rendered, and rendering stops at {@link LoadLimits#maxOcrPixels()} or
   *               {@link LoadLimits#ocrTimeout()} per file; pages left out are warnings, and a
   *               file left without text by them is TOO_LARGE naming the limit
   */
  public PdfLoader(OcrSettings ocr, LoadLimits limits) {
    this.ocr = ocr;
    this.limits = limits;
  }

  /** @param ocr OCR of pages without a text layer, with {@link LoadLimits#DEFAULTS} */
  public PdfLoader(OcrSettings ocr) {
    this(ocr, LoadLimits.DEFAULTS);
  }

  /** A loader that OCRs when Tesseract is installed ({@link OcrSettings#DEFAULTS}). */
  public PdfLoader() {
    this(OcrSettings.DEFAULTS);
  }

  /** Joins page texts in {@link Document#text()}. */
  public static final String PAGE_SEPARATOR = "\n\n";
  /** Share of bad characters above which a page is suspect (R18 suggests 5 %). */
  public static final double MAX_SUSPECT_SHARE = 0.05;

  /**
   * Vertical gap, in line heights, that starts a new paragraph. PDFBox's default (2.5) marks
   * every line of Word-made Chinese PDFs (e.g. the Alibaba Java manual) as a paragraph; 4.0
   * keeps wrapped lines together there while still splitting at real blank space.
   */
  static final float DROP_THRESHOLD = 4.0f;

  /** Characters after which a PDF paragraph may end (sentence ends, colons, closers). */
  private static final String PARAGRAPH_ENDS = "。！？；：…」』”）.!?;:)";

  private static final Pattern CID = Pattern.compile("\\(cid:\\d+\\)");
  private static final Pattern BAD_CONTROLS = Pattern.compile("[\\x00-\\x08\\x0B-\\x1F]");

  @Override
  public Set<String> extensions() {
    return Set.of("pdf");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException CORRUPT when PDFBox cannot open the file (damaged beyond repair, or
   *                       encrypted with a password), NEEDS_OCR when no page has usable text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    List<String> pageTexts = new ArrayList<>();
    Set<Integer> ocrPages = new java.util.TreeSet<>();
    List<String> ocrWarnings = new ArrayList<>();
    List<String> capped = new ArrayList<>();
    long ocrMillis = 0;
    boolean ocrRan = false;
    try (PDDocument pdf = Loader.loadPDF(raw.bytes())) {
      PDFTextStripper stripper = new PDFTextStripper();
      stripper.setLineSeparator("\n");
      stripper.setParagraphEnd("\n\n");
      stripper.setDropThreshold(DROP_THRESHOLD);
      for (int p = 1; p <= pdf.getNumberOfPages(); p++) {
        stripper.setStartPage(p);
        stripper.setEndPage(p);
        pageTexts.add(clean(stripper.getText(pdf)));
      }
      Optional<Tesseract> engine = Tesseract.find(ocr);
      if (engine.isPresent()) {
        PDFRenderer renderer = new PDFRenderer(pdf);
        // large embedded images are decoded at the resolution rendered, not their own
        renderer.setSubsamplingAllowed(true);
        long deadline = System.nanoTime() + limits.ocrTimeout().toNanos();
        long rendered = 0;
        for (int i = 0; i < pageTexts.size(); i++) {
          if (!pageTexts.get(i).isBlank()) {
            continue;
          }
          if (ocrPages.size() >= ocr.maxPages()) {
            ocrWarnings.add("page " + (i + 1) + ": over the OCR page limit (" + ocr.maxPages()
                + "), not read");
            continue;
          }
          long pixels = pixels(pdf.getPage(i).getCropBox(), ocr.dpi());
          long left = deadline - System.nanoTime();
          String cap = pixels > limits.maxOcrPagePixels()
              ? pixels + " pixels at " + ocr.dpi() + " dpi over the limit of "
                  + limits.maxOcrPagePixels() + " pixels per page (ingest.maxOcrPagePixels)"
              : rendered + pixels > limits.maxOcrPixels()
                  ? "OCR of this file would render more than the limit of "
                      + limits.maxOcrPixels() + " pixels per file (ingest.maxOcrPixels)"
                  : left <= 0 ? "OCR of this file took the limit of "
                      + limits.ocrTimeout().toSeconds() + " s per file (ingest.ocrTimeoutSeconds)"
                  : null;
          if (cap != null) {
            // never rendered: a 3000 pt page at 300 dpi is a 156 M pixel raster
            ocrWarnings.add("page " + (i + 1) + ": not read by OCR: " + cap);
            capped.add("page " + (i + 1) + ": " + cap);
            continue;
          }
          rendered += pixels;
          long t0 = System.nanoTime();
          ocrRan = true;
          try {
            BufferedImage image = renderer.renderImageWithDPI(i, ocr.dpi(), ImageType.GRAY);
            String text = clean(engine.get().recognize(image,
                java.time.Duration.ofNanos(Math.min(left, ocr.pageTimeout().toNanos()))));
            if (!text.isBlank()) {
              pageTexts.set(i, text);
              ocrPages.add(i);
            }
          } catch (OcrException | IOException | RuntimeException e) {
            ocrWarnings.add("page " + (i + 1) + ": OCR failed (" + e.getMessage() + ")");
          } finally {
            ocrMillis += (System.nanoTime() - t0) / 1_000_000;
          }
        }
      }
    } catch (InvalidPasswordException e) {
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": encrypted PDF needs a password (" + e.getMessage() + ")", e);
    } catch (IOException | RuntimeException e) {
      // the bytes are already in memory, so any failure here is the PDF's, not the disk's
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": cannot parse PDF (" + e.getMessage() + ")", e);
    }
    // the file name, not the PDF's Info title: that is often "Microsoft Word - x.docx"
    try {
      LoadResult r = build(pageTexts, ocrPages, source, RawFile.baseName(file), raw.sha256());
      List<String> warnings = new ArrayList<>(ocrWarnings);
      warnings.addAll(r.warnings());
      return new LoadResult(r.document(), warnings, ocrPages.size(), ocrMillis);
    } catch (LoadException e) {
      if (e.reason() == LoadException.Reason.NEEDS_OCR && !capped.isEmpty()) {
        // no text because the OCR budget refused pages: the file is too large, not unreadable
        throw new LoadException(LoadException.Reason.TOO_LARGE, source + ": "
            + String.join("; ", capped.subList(0, Math.min(3, capped.size())))
            + (capped.size() > 3 ? "; " + (capped.size() - 3) + " more pages" : ""), e);
      }
      if (e.reason() != LoadException.Reason.NEEDS_OCR || !ocrWarnings.isEmpty()) {
        throw e;
      }
      throw new LoadException(e.reason(), e.getMessage() + "; " + (ocrRan
          ? "OCR found no text on these pages" : ocr.mode() == OcrSettings.Mode.OFF
              ? "OCR is off (ingest.ocr: off)" : Tesseract.installHint()), e);
    }
  }

  /**
   * Pixels of {@code box} (PDF points, 1/72 inch) rendered at {@code dpi}, as
   * {@link PDFRenderer#renderImageWithDPI} sizes its image.
   */
  static long pixels(org.apache.pdfbox.pdmodel.common.PDRectangle box, int dpi) {
    double scale = dpi / 72.0;
    long w = (long) Math.max(1, Math.floor(box.getWidth() * scale));
    long h = (long) Math.max(1, Math.floor(box.getHeight() * scale));
    return w * h;
  }

  /** {@link #build(List, Set, String, String, String)} without OCR'd pages. */
  static LoadResult build(List<String> pageTexts, String source, String title, String hash)
      throws LoadException {
    return build(pageTexts, Set.of(), source, title, hash);
  }

  /**
   * Assembles the document from cleaned page texts (index 0 = page 1); {@code ocrPages} holds the
   * 0-based indices of pages whose text came from OCR.
   */
  static LoadResult build(List<String> pageTexts, Set<Integer> ocrPages, String source,
      String title, String hash) throws LoadException {
    StringBuilder text = new StringBuilder();
    List<PageSpan> pages = new ArrayList<>();
    List<Section> sections = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    ClauseHeadings clauses = new ClauseHeadings();
    for (int i = 0; i < pageTexts.size(); i++) {
      int page = i + 1;
      if (i > 0) {
        text.append(PAGE_SEPARATOR);
      }
      int start = text.length();
      String pageText = pageTexts.get(i);
      text.append(pageText);
      pages.add(new PageSpan(page, start, text.length(), ocrPages.contains(i)));
      if (pageText.isBlank()) {
        warnings.add("page " + page + ": no extractable text (needs OCR)");
        continue;
      }
      double share = suspectShare(pageText);
      if (share > MAX_SUSPECT_SHARE) {
        warnings.add(String.format(java.util.Locale.ROOT,
            "page %d: suspect text extraction (%.0f%% replacement, private-use or (cid:) "
                + "characters; font without a usable ToUnicode map?), page not indexed",
            page, share * 100));
        continue;
      }
      for (int[] para : TextBlocks.paragraphs(pageText, 0, pageText.length())) {
        sections.addAll(clauses.split(pageText, para[0], para[1], start,
            Section.Kind.PARAGRAPH));
      }
    }
    if (pageTexts.isEmpty()) {
      // a truncated file that PDFBox half-repairs ends up with no page tree at all
      throw new LoadException(LoadException.Reason.CORRUPT,
          source + ": PDF has no pages (truncated or damaged)");
    }
    if (sections.isEmpty()) {
      throw new LoadException(LoadException.Reason.NEEDS_OCR,
          source + ": no page has usable text (" + String.join("; ", warnings) + ")");
    }
    Document doc = new Document(source, source, title, text.toString(), sections, pages,
        Map.of(Document.DEPT, Document.PUBLIC), hash);
    return new LoadResult(doc, warnings);
  }

  /**
   * Cleans one page: removes C0 controls other than tab and newline, NFC-normalises, strips
   * trailing spaces from lines, and rejoins wrapped lines. PDFBox often reports every wrapped line
   * of a widely spaced paragraph as its own paragraph; a paragraph that does not end like a
   * sentence or a label is joined to the next with a single newline, and real paragraphs are
   * separated by one blank line.
   */
  static String clean(String s) {
    String noControls = BAD_CONTROLS.matcher(s.replace("\r\n", "\n")).replaceAll("");
    String text = Normalizer.normalize(noControls, Normalizer.Form.NFC)
        .lines().map(String::stripTrailing).collect(Collectors.joining("\n"));
    StringBuilder out = new StringBuilder();
    char lastChar = 0;
    for (int[] p : TextBlocks.paragraphs(text, 0, text.length())) {
      if (out.length() > 0) {
        out.append(PARAGRAPH_ENDS.indexOf(lastChar) < 0 ? "\n" : "\n\n");
      }
      out.append(text, p[0], p[1]);
      lastChar = text.charAt(p[1] - 1);
    }
    return out.toString();
  }

  /**
   * Share of non-whitespace characters that are U+FFFD, private-use, or inside {@code (cid:N)}.
   */
  static double suspectShare(String s) {
    int total = 0;
    int bad = 0;
    Matcher cid = CID.matcher(s);
    while (cid.find()) {
      bad += cid.end() - cid.start();
    }
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isWhitespace(cp)) {
        continue;
      }
      total++;
      if (cp == 0xFFFD || Character.getType(cp) == Character.PRIVATE_USE) {
        bad++;
      }
    }
    return total == 0 ? 0 : (double) bad / total;
  }
}
