package org.openbook.document;

import java.nio.file.Path;

/**
 * A file or directory the corpus walk could not enter or read, reported instead of failing.
 *
 * @param path   the path concerned
 * @param source its path relative to the corpus root, '/'-separated
 * @param reason why it was skipped, e.g. {@code "unreadable directory: Permission denied"}
 */
public record SkippedPath(Path path, String source, String reason) {}
