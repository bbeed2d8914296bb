/**
 * Chunking: cutting a {@link org.openbook.document.Document} into {@link org.openbook.chunk.Chunk}s,
 * the passages that are embedded, indexed, retrieved and cited.
 *
 * <p>Three layers, each usable alone:
 *
 * <ol>
 *   <li>{@link org.openbook.chunk.SentenceSplitter} finds sentence spans in Chinese, English and
 *       mixed text ({@code 。！？；…} always end a sentence, {@code . ! ?} only before whitespace,
 *       so {@code 3.14} and {@code zlib.h} stay whole); the spans cover the text exactly.
 *   <li>{@link org.openbook.chunk.Segmenter} packs sentences (or any units: lines, rows) into
 *       segments of a maximum size with whole-sentence overlap, and hard-splits only a unit that
 *       alone is over budget, never inside a surrogate pair or grapheme cluster.
 *   <li>{@link org.openbook.chunk.StructuredChunker} applies both to a document's sections:
 *       whole sections first, never across a heading-path or page change, code by lines, tables
 *       by rows with the header repeated in {@code embedText}, and an optional token limit on
 *       {@code embedText} (the embedding model's input size).
 * </ol>
 *
 * <p>All offsets are 0-based UTF-16 indices into the document text, end exclusive, and a chunk's
 * {@code raw} is always exactly the text between its offsets, so highlighting and citation links
 * never depend on searching for the chunk text (a fault shown by repeated boilerplate).
 */
package org.openbook.chunk;
