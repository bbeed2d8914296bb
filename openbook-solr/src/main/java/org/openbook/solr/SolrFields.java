package org.openbook.solr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.openbook.chunk.Chunk;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.DenseField;
import org.openbook.index.IndexManifest;

/**
 * The field layout of an OpenBook collection (see the configset's {@code managed-schema.xml})
 * and the conversion between chunks and Solr documents.
 */
final class SolrFields {
  static final String ID = "id";
  /**
   * {@link #KIND_CHUNK}, {@link #KIND_DOCUMENT} or {@link #KIND_MANIFEST}; searches and chunk
   * counts see chunks only.
   */
  static final String KIND = "kind";
  static final String KIND_CHUNK = "chunk";
  /** The root of a document's block: its id, content hash and, as children, its chunks. */
  static final String KIND_DOCUMENT = "document";
  static final String KIND_MANIFEST = "manifest";
  /**
   * How documents are laid out, stored in the manifest: one nested block per document (root of
   * kind {@link #KIND_DOCUMENT}, chunks as children). Collections written before blocks (one
   * Solr document per chunk) have no layout and must be rebuilt.
   */
  static final String LAYOUT = "document-blocks-v1";
  /** Suffix of a document root's id; chunk ids end in {@code #<ordinal>}, so they never clash. */
  static final String ROOT_ID_SUFFIX = "#document";
  /** Id of the one document holding the manifest. */
  static final String MANIFEST_ID = "__manifest__";
  static final String MANIFEST_JSON = "manifest_json";
  static final String DOC_ID = "doc_id";
  static final String CONTENT_HASH = "content_hash";
  static final String DEPT = "dept";
  static final String ORDINAL = "ordinal";
  static final String PAGE = "page";
  static final String START_OFFSET = "start_offset";
  static final String END_OFFSET = "end_offset";
  static final String RAW = "raw";
  static final String EMBED_TEXT = "embed_text";
  static final String HEADING_PATH = "heading_path";
  static final String META_JSON = "meta_json";
  /**
   * OpenBook's token stream of embedText in Solr's JSON pre-analysed format ({@code
   * solr.PreAnalyzedField}); queried with whitespace-separated tokens.
   */
  static final String TEXT_TOKENS = "text_tokens";
  /** The heading label alone, pre-analysed like {@link #TEXT_TOKENS}: a second BM25 field. */
  static final String HEADING_TOKENS = "heading_tokens";
  static final String VECTOR = "vector";
  /** The names of the further dense fields a chunk has a vector in. */
  static final String DENSE_FIELDS = "dense_fields";
  static final String SCORE = "score";

  /** Everything {@link #toChunk} reads, plus the score. */
  static final String CHUNK_FL = String.join(",", ID, DOC_ID, ORDINAL, RAW, EMBED_TEXT,
      HEADING_PATH, PAGE, START_OFFSET, END_OFFSET, META_JSON, SCORE);

  /** The chunk metadata key whose value {@code documentHashes()} reports. */
  static final String CONTENT_HASH_META = "contentHash";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

  private SolrFields() {}

  /** The id of the root document of {@code docId}'s block. */
  static String rootId(String docId) {
    return docId + ROOT_ID_SUFFIX;
  }

  /**
   * The block of one document: a root (kind {@link #KIND_DOCUMENT}, the document id and content
   * hash) with {@code chunks} as its children. Solr indexes a block with one Lucene {@code
   * updateDocuments} call that first deletes the previous block of the same root id, so a
   * searcher sees the old block or the new one, never a mix; children are routed to their root's
   * shard, so the whole block lives on one shard.
   *
   * @param contentHash the document's content hash (empty when unknown)
   */
  static SolrInputDocument documentBlock(String docId, String contentHash,
      List<SolrInputDocument> chunks) {
    SolrInputDocument root = new SolrInputDocument();
    root.setField(ID, rootId(docId));
    root.setField(KIND, KIND_DOCUMENT);
    root.setField(DOC_ID, docId);
    root.setField(CONTENT_HASH, contentHash);
    root.addChildDocuments(chunks);
    return root;
  }

  /**
   * The Solr document of one chunk (a child of its document's block).
   *
   * @param analyzer the BM25 analyzer, applied to embedText and to the heading label
   */
  static SolrInputDocument toDocument(EmbeddedChunk ec, Analyzer analyzer) {
    Chunk c = ec.chunk();
    SolrInputDocument d = new SolrInputDocument();
    d.setField(ID, c.id());
    d.setField(KIND, KIND_CHUNK);
    d.setField(DOC_ID, c.docId());
    d.setField(CONTENT_HASH, c.meta().getOrDefault(CONTENT_HASH_META, ""));
    d.setField(DEPT, c.dept());
    d.setField(ORDINAL, c.ordinal());
    d.setField(PAGE, c.page());
    d.setField(START_OFFSET, c.startOffset());
    d.setField(END_OFFSET, c.endOffset());
    d.setField(RAW, c.raw());
    d.setField(EMBED_TEXT, c.embedText());
    if (!c.headingPath().isEmpty()) {
      d.setField(HEADING_PATH, new ArrayList<>(c.headingPath()));
    }
    d.setField(META_JSON, write(c.meta()));
    // A field without tokens is left out, as Lucene counts no document for it (BM25 avgdl).
    preAnalyzed(analyzer, c.embedText()).ifPresent(t -> d.setField(TEXT_TOKENS, t));
    preAnalyzed(analyzer, c.headingLabel()).ifPresent(t -> d.setField(HEADING_TOKENS, t));
    List<Float> vector = new ArrayList<>(ec.vector().length);
    for (float f : ec.vector()) {
      vector.add(f);
    }
    d.setField(VECTOR, vector);
    for (Map.Entry<String, float[]> v : new java.util.TreeMap<>(ec.denseVectors()).entrySet()) {
      List<Float> values = new ArrayList<>(v.getValue().length);
      for (float f : v.getValue()) {
        values.add(f);
      }
      d.setField(vectorField(v.getKey()), values);
      d.addField(DENSE_FIELDS, v.getKey());
    }
    return d;
  }

  /** The Solr field of the manifest's dense field {@code name}: {@code vector_<name>}. */
  static String vectorField(String name) {
    return VECTOR + "_" + name;
  }

  /**
   * {@code text} analysed by {@code analyzer}, as the JSON that Solr's {@code
   * JsonPreAnalyzedParser} reads: {@code {"v":"1","tokens":[{"t":term,"i":positionIncrement},
   * …]}}. Position increments matter: Lucene's BM25 document length does not count tokens
   * stacked on the previous position (increment 0, e.g. a CJK bigram over its unigram), so
   * sending them keeps norms, and scores, equal to the embedded store's. Empty if {@code text}
   * has no tokens.
   */
  static Optional<String> preAnalyzed(Analyzer analyzer, String text) {
    ObjectNode root = JSON.createObjectNode().put("v", "1");
    ArrayNode tokens = root.putArray("tokens");
    try (TokenStream ts = analyzer.tokenStream(TEXT_TOKENS, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        tokens.addObject().put("t", term.toString()).put("i", inc.getPositionIncrement());
      }
      ts.end();
    } catch (IOException e) {
      // Reading a String cannot fail.
      throw new UncheckedIOException(e);
    }
    return tokens.isEmpty() ? Optional.empty() : Optional.of(root.toString());
  }

  /** The chunk stored in {@code d}, a document fetched with {@link #CHUNK_FL}. */
  static Chunk toChunk(SolrDocument d) {
    Collection<Object> headings = d.getFieldValues(HEADING_PATH);
    List<String> headingPath = headings == null
        ? List.of() : headings.stream().map(Object::toString).toList();
    String id = (String) d.getFirstValue(ID);
    Map<String, String> meta = meta(d);
    return new Chunk(id, (String) d.getFirstValue(DOC_ID), intField(d, ORDINAL),
        (String) d.getFirstValue(RAW), (String) d.getFirstValue(EMBED_TEXT), headingPath,
        intField(d, PAGE), intField(d, START_OFFSET), intField(d, END_OFFSET), meta);
  }

  /**
   * The chunk metadata stored in {@code d}'s {@link #META_JSON}.
   *
   * @throws IllegalStateException naming the chunk when the field is not a JSON object of strings
   */
  static Map<String, String> meta(SolrDocument d) {
    try {
      return JSON.readValue((String) d.getFirstValue(META_JSON), STRING_MAP);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("chunk " + d.getFirstValue(ID) + ": field " + META_JSON
          + " is not a JSON object of strings: " + e.getMessage(), e);
    }
  }

  /** The manifest document; its counts are not stored (they are counted when asked). */
  static SolrInputDocument manifestDocument(IndexManifest m) {
    SolrInputDocument d = new SolrInputDocument();
    d.setField(ID, MANIFEST_ID);
    d.setField(KIND, KIND_MANIFEST);
    d.setField(MANIFEST_JSON, write(new StoredManifest(
        m.embeddingModel(), m.dimension(), m.metric(), m.analyzer(), m.chunker(), LAYOUT,
        m.denseFields(), m.embeddingProvider())));
    return d;
  }

  /** The layout recorded in a manifest document, or null for one written before layouts. */
  static String layout(SolrDocument d) {
    try {
      return JSON.readValue((String) d.getFirstValue(MANIFEST_JSON), StoredManifest.class)
          .layout();
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("document " + MANIFEST_ID + ": field " + MANIFEST_JSON
          + " is not an OpenBook manifest: " + e.getMessage(), e);
    }
  }

  /**
   * The settings stored in a manifest document, with the given counts.
   *
   * @throws IllegalStateException if the document's JSON is not a manifest
   */
  static IndexManifest toManifest(SolrDocument d, long documents, long chunks) {
    try {
      StoredManifest s =
          JSON.readValue((String) d.getFirstValue(MANIFEST_JSON), StoredManifest.class);
      return new IndexManifest(s.embeddingModel(), s.dimension(), s.metric(), s.analyzer(),
          s.chunker(), documents, chunks, s.denseFields(), null, null, s.embeddingProvider());
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new IllegalStateException("document " + MANIFEST_ID + ": field " + MANIFEST_JSON
          + " is not an OpenBook manifest: " + e.getMessage(), e);
    }
  }

  /**
   * What is stored of an {@link IndexManifest}: the settings, not the counts, the layout
   * ({@link #LAYOUT}; null in collections written before it was recorded) and the further dense
   * fields ({@code denseFields}; null in manifests written before it existed, read as none) and
   * the primary model's provider ({@code embeddingProvider}; null before it existed, read as
   * {@code onnx}).
   */
  record StoredManifest(String embeddingModel, int dimension, String metric, String analyzer,
      String chunker, String layout, List<DenseField> denseFields, String embeddingProvider) {}

  private static int intField(SolrDocument d, String field) {
    Object v = d.getFirstValue(field);
    if (!(v instanceof Number n)) {
      throw new IllegalStateException(
          "chunk " + d.getFirstValue(ID) + ": field " + field + " is missing or not a number");
    }
    return n.intValue();
  }

  private static String write(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }
}
