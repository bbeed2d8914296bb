package org.openbook.answer;

/**
 * A valid citation marker in the answer text: it names a source that was given.
 *
 * @param n         the cited source number, 1..sources.size()
 * @param chunkId   the cited chunk
 * @param source    the cited file path
 * @param supported whether the citing sentence is supported by the passage (lexical support
 *                  check); {@code true} when no check ran
 */
public record Citation(int n, String chunkId, String source, boolean supported) {}
