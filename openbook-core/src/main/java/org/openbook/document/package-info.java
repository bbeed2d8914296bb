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
 * Non-fatal problems (a PDF page that needs OCR, invalid bytes in a text file) come back as
 * {@link org.openbook.document.LoadResult#warnings()}.
 *
 * <p>Access metadata fails closed. {@code meta.dept} decides who may read a document: Markdown
 * and text files take it from YAML front matter, HTML from {@code <meta name="dept">}; keys match
 * ignoring case and the value is trimmed and lower-cased, since departments are lower-case ids
 * ({@code Dept: Finance} → {@code finance}). Only a file without such metadata is
 * {@value org.openbook.document.Document#PUBLIC}. Metadata that is present but unreadable
 * (malformed YAML, no closing {@code ---}, a non-string {@code dept}, …) is a
 * {@link org.openbook.document.LoadException.Reason#BAD_METADATA} error: the file is skipped and
 * reported, never indexed as public.
 */
package org.openbook.document;
