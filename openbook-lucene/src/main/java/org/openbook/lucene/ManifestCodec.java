package org.openbook.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.Map;
import org.openbook.index.IndexManifest;
import org.openbook.index.IndexMismatchException;

/**
 * The {@link IndexManifest} as Lucene commit user data: JSON under {@link #KEY}, plus the Lucene
 * vector similarity for people inspecting the index. Written by the same commit as the chunks,
 * so manifest and index never disagree.
 */
final class ManifestCodec {
  static final String KEY = "openbook.manifest";
  static final String SIMILARITY_KEY = "openbook.luceneVectorSimilarity";
  private static final ObjectMapper JSON = new ObjectMapper();

  private ManifestCodec() {}

  static Map<String, String> userData(IndexManifest manifest) {
    try {
      return Map.of(KEY, JSON.writeValueAsString(manifest),
          SIMILARITY_KEY, ChunkFields.SIMILARITY.name());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write manifest " + manifest, e);
    }
  }

  /**
   * Reads the manifest from a commit's user data.
   *
   * @throws IndexMismatchException if it is missing or unreadable, saying how to rebuild
   */
  static IndexManifest read(Map<String, String> userData, Path dir) {
    String json = userData.get(KEY);
    if (json == null) {
      throw new IndexMismatchException(dir + " holds a Lucene index without an OpenBook manifest."
          + "\nRebuild it: openbook ingest <dir> --index " + dir + " --reset");
    }
    try {
      return JSON.readValue(json, IndexManifest.class);
    } catch (JsonProcessingException e) {
      throw new IndexMismatchException("the OpenBook manifest of " + dir + " is unreadable ("
          + e.getOriginalMessage() + ").\nRebuild it: openbook ingest <dir> --index " + dir
          + " --reset");
    }
  }
}
