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

  /**
   * A file that was indexed.
   *
   * @param ocrPages  pages or images of it read by OCR
   * @param ocrMillis wall-clock milliseconds spent in OCR for it
   */
  public record IndexedFile(String source, int chunks, boolean updated, List<String> warnings,
      int ocrPages, long ocrMillis) {
    public IndexedFile {
      warnings = List.copyOf(warnings);
    }

    /** A file read without OCR. */
    public IndexedFile(String source, int chunks, boolean updated, List<String> warnings) {
      this(source, chunks, updated, warnings, 0, 0);
    }
  }

  /** Pages (and images) read by OCR in this run. */
  public int ocrPages() {
    return indexed.stream().mapToInt(IndexedFile::ocrPages).sum();
  }

  /** Seconds spent in OCR in this run. */
  public double ocrSeconds() {
    return indexed.stream().mapToLong(IndexedFile::ocrMillis).sum() / 1000.0;
  }

  /**
   * Files that should have been read and were not: every skipped file except images skipped
   * because OCR is off or not installed (an image beside the documents is normal) and files
   * without text ({@code empty}: nothing in them was lost). These set the CLI's exit code 3.
   */
  public List<SkippedFile> failed() {
    String image = org.openbook.document.LoadException.Reason.IMAGE_NO_OCR.label();
    String empty = org.openbook.document.LoadException.Reason.EMPTY.label();
    return skipped.stream().filter(s -> !s.reason().equals(image) && !s.reason().equals(empty))
        .toList();
  }

  /**
   * Per file format (lower-case extension, {@code ""} when none): how many files were indexed,
   * unchanged and skipped, as {@code {format: {indexed: n, unchanged: n, skipped: n}}}, sorted.
   */
  public java.util.Map<String, java.util.Map<String, Integer>> formats() {
    java.util.Map<String, java.util.Map<String, Integer>> out = new java.util.TreeMap<>();
    indexed.forEach(f -> count(out, f.source(), "indexed"));
    unchanged.forEach(s -> count(out, s, "unchanged"));
    skipped.forEach(f -> count(out, f.source(), "skipped"));
    return out;
  }

  private static void count(java.util.Map<String, java.util.Map<String, Integer>> out,
      String source, String outcome) {
    String name = source.substring(source.lastIndexOf('/') + 1);
    int dot = name.lastIndexOf('.');
    String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(java.util.Locale.ROOT);
    java.util.Map<String, Integer> m = out.computeIfAbsent(ext, k -> new java.util.TreeMap<>(
        java.util.Map.of("indexed", 0, "unchanged", 0, "skipped", 0)));
    m.merge(outcome, 1, Integer::sum);
  }

  /**
   * A file that was not indexed.
   *
   * @param source its path relative to the root
   * @param reason short label, e.g. {@code corrupt} ({@link org.openbook.document.LoadException.Reason#label()})
   * @param detail why, without the source: a leading {@code "<source>: "} (loaders name the file
   *               in their messages so that those read alone) is removed here, so that
   *               {@link #message()} names the file once
   */
  public record SkippedFile(String source, String reason, String detail) {
    public SkippedFile {
      String prefix = source + ": ";
      detail = detail == null ? "" : detail.startsWith(prefix)
          ? detail.substring(prefix.length()) : detail;
    }

    /** The one-line message shown to users: {@code x.pdf (corrupt: cannot parse PDF (…))}. */
    public String message() {
      return source + " (" + reason + (detail.isEmpty() ? "" : ": " + detail) + ")";
    }
  }

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
