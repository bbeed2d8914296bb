package org.openbook.ingest;

import java.util.List;

/**
 * What one ingest run did. Every file found under the root appears exactly once: in
 * {@code indexed}, {@code unchanged} or {@code skipped}.
 *
 * @param indexed   files (re)indexed in this run, with their chunk counts and warnings
 * @param unchanged files whose content hash matched the index, left as they were
 * @param removed   sources whose chunks this run deleted: no longer under the root, or still
 *                  there but no longer indexable (those are also in {@code skipped})
 * @param skipped   files not indexed, each with its reason
 * @param chunks    chunks written in this run
 * @param millis    wall-clock time of the run
 */
public record IngestReport(
    List<IndexedFile> indexed,
    List<String> unchanged,
    List<String> removed,
    List<SkippedFile> skipped,
    int chunks,
    long millis) {

  public IngestReport {
    indexed = List.copyOf(indexed);
    unchanged = List.copyOf(unchanged);
    removed = List.copyOf(removed);
    skipped = List.copyOf(skipped);
  }

  /** A file that was indexed. */
  public record IndexedFile(String source, int chunks, boolean updated, List<String> warnings) {
    public IndexedFile {
      warnings = List.copyOf(warnings);
    }
  }

  /** A file that was not indexed, with a short reason label and the detail. */
  public record SkippedFile(String source, String reason, String detail) {}

  /** Files indexed for the first time in this run. */
  public int added() {
    return (int) indexed.stream().filter(f -> !f.updated()).count();
  }

  /** Files that were in the index and were re-indexed because their content changed. */
  public int updated() {
    return (int) indexed.stream().filter(IndexedFile::updated).count();
  }

  /** Number of files found under the root. */
  public int filesSeen() {
    return indexed.size() + unchanged.size() + skipped.size();
  }
}
