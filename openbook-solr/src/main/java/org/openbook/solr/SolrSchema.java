package org.openbook.solr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.openbook.index.DenseField;
import org.openbook.index.IndexManifest;

/**
 * The schema of an OpenBook collection, as one list: every field {@link SolrFields} writes (named
 * by its constants) with its Solr type, plus one vector field type per vector field of the
 * manifest. {@link SolrAdmin} writes the uploaded {@code managed-schema.xml} from this list (the
 * resource holds only the fixed field types around the {@value #FIELDS_PLACEHOLDER} slot), so
 * whichever path creates a collection — {@code openbook solr init}, an ingest into a missing
 * collection, {@code ingest --reset}, a test — declares exactly the fields the store writes for
 * that manifest's dense routes.
 */
final class SolrSchema {

  /** Placeholder (inside an XML comment) for the vector field types and the fields. */
  static final String FIELDS_PLACEHOLDER = "${openbook.fields}";
  /** Type of the primary vector field; a further dense field's type is this plus its name. */
  static final String VECTOR_TYPE = "openbook_vector";

  /**
   * One declared field.
   *
   * @param name       the Solr field name
   * @param type       a field type of managed-schema.xml or a vector type of {@link #vectorTypes}
   * @param attributes further XML attributes, e.g. {@code indexed="true" stored="true"}
   */
  record Field(String name, String type, String attributes) {}

  /**
   * A DenseVectorField type.
   *
   * @param name      the type name ({@link #VECTOR_TYPE} or {@code openbook_vector_<name>})
   * @param dimension vector length, 1..{@value SolrAdmin#MAX_DIMENSION}
   */
  record VectorType(String name, int dimension) {}

  private SolrSchema() {}

  /**
   * The fields of a collection written with {@code layout}: the fixed chunk, document-root and
   * manifest fields, {@code vector}, and {@code vector_<name>} for each further dense field.
   */
  static List<Field> fields(IndexManifest layout) {
    List<Field> f = new ArrayList<>();
    f.add(new Field("_version_", "plong", "indexed=\"false\" stored=\"false\""));
    // Nested blocks: each document is a root (kind "document") with its chunks as children.
    // Solr replaces a block in one Lucene updateDocuments call and keeps it on one shard, so a
    // searcher sees a document's old chunks or its new ones, never a mix.
    f.add(new Field("_root_", "string", "indexed=\"true\" stored=\"false\" docValues=\"false\""));
    f.add(new Field(SolrFields.ID, "string", "indexed=\"true\" stored=\"true\" required=\"true\""));
    // "chunk", "document" (a block's root) or "manifest" (the one IndexManifest document)
    f.add(new Field(SolrFields.KIND, "string",
        "indexed=\"true\" stored=\"true\" required=\"true\""));
    for (String name : List.of(SolrFields.DOC_ID, SolrFields.CONTENT_HASH, SolrFields.DEPT)) {
      f.add(new Field(name, "string", "indexed=\"true\" stored=\"true\""));
    }
    f.add(new Field(SolrFields.ORDINAL, "pint", "indexed=\"true\" stored=\"true\""));
    for (String name : List.of(SolrFields.PAGE, SolrFields.START_OFFSET, SolrFields.END_OFFSET)) {
      f.add(new Field(name, "pint", "indexed=\"false\" stored=\"true\""));
    }
    f.add(new Field(SolrFields.RAW, "stored_string", ""));
    f.add(new Field(SolrFields.EMBED_TEXT, "stored_string", ""));
    f.add(new Field(SolrFields.HEADING_PATH, "stored_string", "multiValued=\"true\""));
    f.add(new Field(SolrFields.META_JSON, "stored_string", ""));
    f.add(new Field(SolrFields.TEXT_TOKENS, "openbook_tokens", "indexed=\"true\" stored=\"false\""));
    // The heading path alone, analysed like text_tokens: a second BM25 field.
    f.add(new Field(SolrFields.HEADING_TOKENS, "openbook_tokens",
        "indexed=\"true\" stored=\"false\""));
    f.add(new Field(SolrFields.VECTOR, VECTOR_TYPE, "indexed=\"true\" stored=\"false\""));
    // Names of the further dense fields the chunk has a vector in (e.g. "en").
    f.add(new Field(SolrFields.DENSE_FIELDS, "string",
        "indexed=\"true\" stored=\"false\" multiValued=\"true\""));
    for (DenseField d : layout.denseFields()) {
      f.add(new Field(SolrFields.vectorField(d.name()), vectorType(d.name()),
          "indexed=\"true\" stored=\"false\""));
    }
    f.add(new Field(SolrFields.MANIFEST_JSON, "stored_string", ""));
    return List.copyOf(f);
  }

  /** The vector field types of {@code layout}: the primary one, then one per dense field. */
  static List<VectorType> vectorTypes(IndexManifest layout) {
    List<VectorType> t = new ArrayList<>();
    t.add(new VectorType(VECTOR_TYPE, layout.dimension()));
    for (DenseField d : layout.denseFields()) {
      t.add(new VectorType(vectorType(d.name()), d.dimension()));
    }
    return List.copyOf(t);
  }

  /** The type of dense field {@code name}'s vectors: {@code openbook_vector_<name>}. */
  static String vectorType(String name) {
    return VECTOR_TYPE + "_" + name;
  }

  /**
   * Checks that every vector of {@code layout} fits Solr's DenseVectorField.
   *
   * @throws IllegalArgumentException naming the field whose dimension is outside
   *     1..{@value SolrAdmin#MAX_DIMENSION}
   */
  static void requireDimensions(IndexManifest layout) {
    for (DenseField f : layout.denseFields()) {
      if (f.dimension() > SolrAdmin.MAX_DIMENSION) {
        throw new IllegalArgumentException("dense field '" + f.name() + "': dimension "
            + f.dimension() + " is outside 1.." + SolrAdmin.MAX_DIMENSION);
      }
    }
    if (layout.dimension() < 1 || layout.dimension() > SolrAdmin.MAX_DIMENSION) {
      throw new IllegalArgumentException(
          "dimension " + layout.dimension() + " is outside 1.." + SolrAdmin.MAX_DIMENSION);
    }
  }

  /**
   * {@code failure} with the remedy added when Solr refused a document for a field its schema
   * lacks ({@code unknown field 'vector_en'}): the collection was created by another path or an
   * older OpenBook, and {@code openbook solr init} re-uploads the schema this build writes
   * (keeping the documents). Returns {@code failure} unchanged otherwise.
   */
  static IOException explainUnknownField(String collection, IOException failure) {
    String message = String.valueOf(failure.getMessage());
    int at = message.indexOf("unknown field '");
    if (at < 0) {
      return failure;
    }
    int end = message.indexOf('\'', at + "unknown field '".length());
    String field = end < 0 ? "?" : message.substring(at + "unknown field '".length(), end);
    return new IOException(message + "; the schema of collection '" + collection + "' lacks"
        + " field '" + field + "', which this build writes: update it with openbook solr init"
        + " --collection " + collection + " (its documents stay)", failure);
  }

  /**
   * The managed-schema.xml of a collection written with {@code layout}: the resource's fixed
   * types with {@link #vectorTypes} and {@link #fields} in the {@value #FIELDS_PLACEHOLDER} slot.
   * HNSW parameters are Lucene's defaults (M=16, beam width 100), as in the embedded store.
   *
   * @throws IllegalArgumentException if a dimension is out of range
   */
  static String schemaXml(IndexManifest layout) {
    requireDimensions(layout);
    String template;
    try {
      template = SolrAdmin.resource(SolrAdmin.SCHEMA_FILE);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String slot = "<!--" + FIELDS_PLACEHOLDER + "-->";
    if (!template.contains(slot)) {
      throw new IllegalStateException(SolrAdmin.SCHEMA_FILE + " has no " + slot + " slot");
    }
    StringBuilder xml = new StringBuilder();
    for (VectorType t : vectorTypes(layout)) {
      xml.append("<fieldType name=\"").append(t.name())
          .append("\" class=\"solr.DenseVectorField\" vectorDimension=\"").append(t.dimension())
          .append("\" similarityFunction=\"cosine\" knnAlgorithm=\"hnsw\"")
          .append(" hnswMaxConnections=\"16\" hnswBeamWidth=\"100\"/>\n  ");
    }
    for (Field f : fields(layout)) {
      xml.append("<field name=\"").append(f.name()).append("\" type=\"").append(f.type())
          .append('"').append(f.attributes().isEmpty() ? "" : " " + f.attributes())
          .append("/>\n  ");
    }
    return template.replace(slot, xml.toString().stripTrailing());
  }
}
