package org.openbook.lucene;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;
import org.openbook.chunk.Chunk;
import org.openbook.index.DenseField;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;

/**
 * The Lucene document layout of one chunk, and the conversion both ways.
 *
 * <p>Indexed: {@code id}, {@code docId}, {@code dept} (exact terms), {@code text} (the chunk's
 * embedText, analysed, BM25), {@code vector} (HNSW, {@link #SIMILARITY}) and one {@code
 * vector_<name>} per further dense field the chunk has a vector for. Stored: everything
 * needed to rebuild the {@link Chunk}; the heading path and meta as JSON.
 */
final class ChunkFields {
  static final String ID = "id";
  static final String DOC_ID = "docId";
  static final String DEPT = "dept";
  static final String TEXT = "text";
  /** The heading path alone, analysed like {@link #TEXT}: a BM25F-style second field. */
  static final String HEADING = "heading";
  static final String VECTOR = "vector";
  /** Prefix of the further dense fields: {@code vector_<DenseField name>}. */
  static final String VECTOR_PREFIX = "vector_";
  private static final String ORDINAL = "ordinal";
  private static final String RAW = "raw";
  private static final String EMBED_TEXT = "embedText";
  private static final String HEADING_PATH = "headingPath";
  private static final String PAGE = "page";
  private static final String START_OFFSET = "startOffset";
  private static final String END_OFFSET = "endOffset";
  private static final String META = "meta";
  /** The stored fields {@link #meta} needs; loading only these is cheaper than whole chunks. */
  static final Set<String> META_FIELDS = Set.of(ID, DOC_ID, META);

  /**
   * Vectors are stored L2-normalised, so the dot product is the cosine similarity; Lucene
   * recommends DOT_PRODUCT over COSINE for unit vectors (same ranking, no per-comparison norms).
   */
  static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() {};
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private ChunkFields() {}

  /**
   * Lucene's DOT_PRODUCT score for float vectors is {@code (1 + cos) / 2} (in [0, 1]); this turns
   * it back into the cosine similarity in [-1, 1], higher is better.
   */
  static double cosineFromScore(float score) {
    return 2.0 * score - 1.0;
  }

  /**
   * A copy of {@code vector}, L2-normalised.
   *
   * @param what names the vector in error messages
   * @throws IllegalArgumentException if the length is not {@code dimension}, or the vector is
   *     zero or has NaN/infinite components
   */
  static float[] unitVector(float[] vector, int dimension, String what) {
    if (vector == null) {
      throw new IllegalArgumentException(what + ": vector is missing");
    }
    if (vector.length != dimension) {
      throw new IllegalArgumentException(what + ": vector has " + vector.length
          + " dimensions, the index expects " + dimension);
    }
    try {
      return VectorUtil.l2normalize(VectorUtil.checkFinite(vector.clone()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
    }
  }

  /** The Lucene field of the manifest's dense field {@code name}. */
  static String vectorField(String name) {
    return VECTOR_PREFIX + name;
  }

  /**
   * The Lucene document for {@code ec}; see {@link #unitVector} for the errors thrown.
   *
   * @throws IllegalArgumentException also if {@code ec} has a vector for a field the manifest
   *     does not have
   */
  static Document toDocument(EmbeddedChunk ec, IndexManifest manifest) {
    int dimension = manifest.dimension();
    Chunk c = ec.chunk();
    Document d = new Document();
    d.add(new StringField(ID, c.id(), Field.Store.YES));
    d.add(new StringField(DOC_ID, c.docId(), Field.Store.YES));
    d.add(new StringField(DEPT, c.dept(), Field.Store.NO));
    d.add(new TextField(TEXT, c.embedText(), Field.Store.NO));
    d.add(new TextField(HEADING, c.headingLabel(), Field.Store.NO));
    d.add(new KnnFloatVectorField(
        VECTOR, unitVector(ec.vector(), dimension, "chunk " + c.id()), SIMILARITY));
    for (Map.Entry<String, float[]> v : new java.util.TreeMap<>(ec.denseVectors()).entrySet()) {
      DenseField f = manifest.denseField(v.getKey()).orElseThrow(() -> new IllegalArgumentException(
          "chunk " + c.id() + ": the index has no dense field '" + v.getKey() + "'"));
      d.add(new KnnFloatVectorField(vectorField(f.name()),
          unitVector(v.getValue(), f.dimension(), "chunk " + c.id() + " field " + f.name()),
          SIMILARITY));
    }
    d.add(new StoredField(ORDINAL, c.ordinal()));
    d.add(new StoredField(RAW, c.raw()));
    d.add(new StoredField(EMBED_TEXT, c.embedText()));
    d.add(new StoredField(HEADING_PATH, json(c.headingPath())));
    d.add(new StoredField(PAGE, c.page()));
    d.add(new StoredField(START_OFFSET, c.startOffset()));
    d.add(new StoredField(END_OFFSET, c.endOffset()));
    d.add(new StoredField(META, json(c.meta())));
    return d;
  }

  /**
   * Rebuilds the chunk from its stored fields.
   *
   * @throws IllegalStateException naming the chunk and field if a stored field is missing or
   *     unreadable (an index not written by this class)
   */
  static Chunk toChunk(Document d) {
    String id = d.get(ID);
    try {
      return new Chunk(
          id,
          d.get(DOC_ID),
          intField(d, ORDINAL),
          d.get(RAW),
          d.get(EMBED_TEXT),
          JSON.readValue(d.get(HEADING_PATH), STRING_LIST),
          intField(d, PAGE),
          intField(d, START_OFFSET),
          intField(d, END_OFFSET),
          JSON.readValue(d.get(META), STRING_MAP));
    } catch (JsonProcessingException | RuntimeException e) {
      throw new IllegalStateException("stored chunk '" + id + "' is unreadable: " + e.getMessage(),
          e);
    }
  }

  /** The stored meta of a chunk document loaded with at least the {@code meta} field. */
  static Map<String, String> meta(Document d) {
    try {
      return JSON.readValue(d.get(META), STRING_MAP);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("stored meta of chunk '" + d.get(ID) + "' is unreadable", e);
    }
  }

  private static int intField(Document d, String name) {
    var f = d.getField(name);
    if (f == null || f.numericValue() == null) {
      throw new IllegalStateException("field '" + name + "' missing");
    }
    return f.numericValue().intValue();
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write JSON for " + value, e);
    }
  }
}
