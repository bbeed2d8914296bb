package org.openbook.document;

import java.nio.file.Path;

/**
 * A file found under a corpus root.
 *
 * @param path   the file's path (as reached from the root)
 * @param source its path relative to the root, '/'-separated; becomes the document id
 */
public record CorpusFile(Path path, String source) {}
