package org.openbook.ingest;

/** Progress callbacks of an ingest run, e.g. for a progress bar. Called on the ingest thread. */
public interface IngestListener {

  /** Called once the files to visit are known. */
  default void started(int files) {}

  /**
   * Called for each file, in walk order, when its result reaches the ingest thread (loading and
   * embedding run ahead on worker threads), just before it is written (e.g. to show the current
   * file).
   */
  default void fileStarted(String source) {}

  /** Called after each file, whatever its outcome. */
  default void fileDone(String source) {}

  /**
   * Called after each commit of the index (intermediate and final); everything reported before
   * it is durable.
   *
   * @param changedDocuments documents indexed or removed in this run so far
   */
  default void committed(int changedDocuments) {}

  /** A listener that does nothing. */
  IngestListener NONE = new IngestListener() {};
}
