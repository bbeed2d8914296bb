package org.openbook.index;

/**
 * One document of the index as the catalogue lists it.
 *
 * @param source      document id: its path relative to the corpus root, {@code /}-separated
 * @param dept        the department allowed to read it ({@code public} when unset)
 * @param title       its {@code title} chunk metadata (front matter title, else first heading,
 *                    else file name, as the loader set it); empty when absent
 * @param chunks      chunks of the document in the committed index, ≥ 1
 * @param contentHash the {@code contentHash} chunk metadata (SHA-256 hex of the file the chunks
 *                    were built from); empty when absent
 */
public record DocumentEntry(String source, String dept, String title, int chunks,
    String contentHash) {}
