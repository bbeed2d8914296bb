/**
 * Turning files into {@link org.openbook.document.Document}s, the first stage of the pipeline.
 *
 * <p>The ingest pipeline lists a corpus with {@link org.openbook.document.CorpusWalker} (sorted,
 * hidden files skipped, '/'-separated relative {@code source}s) and calls
 * {@link org.openbook.document.DocumentReader#read} once per file. The reader picks a
 * {@link org.openbook.document.DocumentLoader} by extension from
 * {@link org.openbook.document.Loaders} (Markdown, plain text, PDF, HTML), enforces a size limit,
 * and turns every failure into a {@link org.openbook.document.LoadException} with a
 * {@link org.openbook.document.LoadException.Reason}, so one bad file is reported and skipped.
 *
 * <p>Every loader keeps one contract: all {@link org.openbook.document.Section} and
 * {@link org.openbook.document.PageSpan} offsets index {@link org.openbook.document.Document#text()};
 * sections are in order, non-overlapping and never blank, and only sections are indexed
 * (front matter, headings and pages without usable text are in the text but in no section).
 * Non-fatal problems (malformed front matter, a PDF page that needs OCR) come back as
 * {@link org.openbook.document.LoadResult#warnings()}.
 */
package org.openbook.document;
