/**
 * OCR of scanned PDF pages and images with the Tesseract command-line program
 * ({@link org.openbook.document.ocr.Tesseract}): optional (found on {@code PATH} or not), one
 * process per page with a timeout, Chinese spaces removed. {@link
 * org.openbook.document.ocr.ImageLoader} reads {@code .png .jpg .tif} (multi-page TIFF as pages);
 * {@link org.openbook.document.PdfLoader} OCRs only pages without a text layer. OCR'd pages carry
 * {@link org.openbook.document.PageSpan#ocr()}, and their chunks the meta {@code ocr: true}.
 */
package org.openbook.document.ocr;
