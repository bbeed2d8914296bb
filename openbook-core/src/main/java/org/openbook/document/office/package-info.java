/**
 * Loaders for office documents. Microsoft formats through Apache POI: Word ({@code .docx} via XWPF,
 * {@code .doc} via HWPF), spreadsheets ({@code .xlsx}/{@code .xls} via the common
 * {@code ss.usermodel}, {@code .csv} via Commons CSV) and PowerPoint ({@code .pptx}/{@code .ppt}
 * via the common {@code sl.usermodel}); OpenDocument ({@code .odt .ods .odp}) as the zip of XML
 * parts it is, through POI's guarded zip reader and hardened DOM parser (see
 * {@link org.openbook.document.office.OpenDocumentLoader} for why not odfdom or Tika); RTF
 * through Apache Tika's RTF parser (code pages, lists), whose XHTML output is assembled the same
 * way.
 *
 * <p>POI directly rather than Apache Tika: Tika's XHTML keeps headings and tables, but not what
 * citations need — Excel row numbers and column letters ({@code sheet!A12:G30}), hidden sheet/
 * row/column flags, the "repeat header row" flag of Word tables, or the slide a speaker note
 * belongs to — and it would add dozens of parser modules we do not use. Every loader builds its
 * {@link org.openbook.document.Document} with {@link org.openbook.document.DocumentAssembler},
 * which writes tables as Markdown so that one chunker rule (cut between rows, repeat the header)
 * serves every format. Hostile input is bounded by {@code OfficeFiles} (zip-bomb ratio, entry
 * and record size limits) and reported per file ({@code corrupt}, {@code encrypted},
 * {@code too large}, {@code empty}).
 */
package org.openbook.document.office;
