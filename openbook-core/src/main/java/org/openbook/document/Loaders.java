package org.openbook.document;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Chooses the {@link DocumentLoader} for a file by its extension (case-insensitive). */
public final class Loaders {

  private final Map<String, DocumentLoader> byExtension;

  /**
   * @param loaders the loaders to register; a later loader claiming an extension already taken
   *                raises {@link IllegalArgumentException}
   */
  public Loaders(DocumentLoader... loaders) {
    Map<String, DocumentLoader> map = new TreeMap<>();
    for (DocumentLoader l : loaders) {
      for (String ext : l.extensions()) {
        DocumentLoader previous = map.put(ext.toLowerCase(Locale.ROOT), l);
        if (previous != null) {
          throw new IllegalArgumentException("two loaders for extension ." + ext);
        }
      }
    }
    this.byExtension = Collections.unmodifiableMap(map);
  }

  /** Every format with {@link LoaderSettings#DEFAULTS}. */
  public static Loaders defaults() {
    return defaults(LoaderSettings.DEFAULTS);
  }

  /**
   * Markdown, plain text, PDF (OCR of pages without a text layer when {@code settings} allow),
   * HTML, Word ({@code .docx .doc}), spreadsheets ({@code .xlsx .xls .csv}), PowerPoint
   * ({@code .pptx .ppt}), OpenDocument ({@code .odt .ods .odp}), RTF ({@code .rtf}) and images
   * ({@code .png .jpg .jpeg .tif .tiff}, read by OCR).
   */
  public static Loaders defaults(LoaderSettings settings) {
    LoadLimits limits = settings.limits();
    return new Loaders(new MarkdownLoader(), new TextLoader(),
        new PdfLoader(settings.ocr(), limits), new HtmlLoader(limits),
        new org.openbook.document.office.WordLoader(limits),
        new org.openbook.document.office.SpreadsheetLoader(settings.includeHiddenSheets(), limits),
        new org.openbook.document.office.SlidesLoader(limits),
        new org.openbook.document.office.OpenDocumentLoader(settings.includeHiddenSheets(),
            limits),
        new org.openbook.document.office.RtfLoader(),
        new org.openbook.document.ocr.ImageLoader(settings.ocr(), limits));
  }

  /**
   * These loaders plus {@code more} (e.g. a test's loader for its own extension).
   *
   * @throws IllegalArgumentException when one claims an extension already taken
   */
  public Loaders plus(DocumentLoader... more) {
    java.util.List<DocumentLoader> all = new java.util.ArrayList<>(
        new java.util.LinkedHashSet<>(byExtension.values()));
    all.addAll(java.util.List.of(more));
    return new Loaders(all.toArray(DocumentLoader[]::new));
  }

  /** The loader for {@code file}'s extension, or empty when the type is not supported. */
  public Optional<DocumentLoader> forPath(Path file) {
    return extensionOf(file).map(byExtension::get);
  }

  /** Lower-case extensions without dot, sorted, e.g. {@code [htm, html, markdown, md, pdf, txt]}. */
  public Set<String> supportedExtensions() {
    return byExtension.keySet();
  }

  /** The lower-case text after the last dot of the file name, if any. */
  static Optional<String> extensionOf(Path file) {
    Path name = file.getFileName();
    if (name == null) {
      return Optional.empty();
    }
    String s = name.toString();
    int dot = s.lastIndexOf('.');
    return dot < 0 || dot == s.length() - 1
        ? Optional.empty()
        : Optional.of(s.substring(dot + 1).toLowerCase(Locale.ROOT));
  }
}
