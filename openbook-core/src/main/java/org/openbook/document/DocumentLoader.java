package org.openbook.document;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;

/** Turns one file into a {@link Document}. Implementations are stateless and thread-safe. */
public interface DocumentLoader {

  /** Lower-case file extensions (without dot) this loader reads, e.g. {@code md}. */
  Set<String> extensions();

  /**
   * Loads one file.
   *
   * @param file   the file to read
   * @param source its path relative to the ingested root ('/'-separated); becomes the document id
   * @return the document with its warnings (e.g. pages that need OCR)
   * @throws LoadException when the file cannot be used at all (corrupt, binary, empty, no text);
   *                       its reason is reported per file and the ingest continues
   * @throws IOException   when the file cannot be read
   */
  LoadResult load(Path file, String source) throws IOException, LoadException;

  /**
   * The department the file's own metadata declares (front matter, {@code <meta name="dept">}),
   * read without loading its body: what {@link #load} would put in {@link Document#DEPT}, cheap
   * enough to answer an upload at once. Formats without such metadata (Office, PDF, images)
   * declare nothing, which is {@value Document#PUBLIC}, the default here.
   *
   * @throws LoadException as {@link #load} for the metadata itself (BAD_METADATA, BINARY, …)
   * @throws IOException   when the file cannot be read
   */
  default String declaredDepartment(Path file, String source) throws IOException, LoadException {
    return Document.PUBLIC;
  }
}
