package org.openbook.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.chunk.Chunk;
import org.openbook.index.DenseField;
import org.openbook.index.EmbeddedChunk;
import org.openbook.index.IndexManifest;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * issue 22 (SolrCloud): the schema every collection-creating path uploads ({@link
 * SolrAdmin#init} → {@link SolrAdmin#configSetZip}) declares every field {@link SolrFields}
 * writes — chunk, document root and manifest — with each vector field's dimension, for every
 * dense route of the manifest. {@code solr init} created a collection without {@code vector_en},
 * so every ingest failed with {@code unknown field 'vector_en'}.
 */
class SolrSchemaTest {

  private static final TextAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();

  /** The product's routes: bge-small-zh (512) and the English route bge-small-en (384). */
  private static final IndexManifest BILINGUAL = manifest(512,
      List.of(new DenseField("en", "bge-small-en-v1.5-q", 384)));

  private static IndexManifest manifest(int dimension, List<DenseField> dense) {
    return new IndexManifest("bge-small-zh-v1.5", dimension, IndexManifest.COSINE, ANALYSIS.id(),
        "structured-400", 0, 0, dense);
  }

  /** What the uploaded schema declares: field name → type, type name → vectorDimension. */
  private record Declared(Map<String, String> fieldTypes, Map<String, Integer> dimensions) {}

  private static Declared uploadedSchema(IndexManifest layout) throws Exception {
    String xml = null;
    try (ZipInputStream in =
        new ZipInputStream(new ByteArrayInputStream(SolrAdmin.configSetZip(layout)))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        if (e.getName().equals("managed-schema.xml")) {
          xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
      }
    }
    assertThat(xml).as("managed-schema.xml in the configset").isNotNull();
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    Map<String, String> fields = new HashMap<>();
    NodeList fl = doc.getElementsByTagName("field");
    for (int i = 0; i < fl.getLength(); i++) {
      Element f = (Element) fl.item(i);
      fields.put(f.getAttribute("name"), f.getAttribute("type"));
    }
    Map<String, Integer> dims = new HashMap<>();
    NodeList tl = doc.getElementsByTagName("fieldType");
    for (int i = 0; i < tl.getLength(); i++) {
      Element t = (Element) tl.item(i);
      dims.put(t.getAttribute("name"), t.hasAttribute("vectorDimension")
          ? Integer.parseInt(t.getAttribute("vectorDimension")) : null);
    }
    for (String type : fields.values()) {
      assertThat(dims).as("field type " + type + " is declared").containsKey(type);
    }
    return new Declared(fields, dims);
  }

  /** A chunk with every field set: heading, tokens, and a vector in every dense route. */
  private static EmbeddedChunk fullChunk(IndexManifest layout) {
    Chunk c = new Chunk("a.md#0", "a.md", 0, "年假 annual leave", "年假 annual leave",
        List.of("人事", "假期"), 1, 0, 17, Map.of("dept", "hr", "contentHash", "h"));
    Map<String, float[]> dense = new HashMap<>();
    for (DenseField f : layout.denseFields()) {
      dense.put(f.name(), new float[f.dimension()]);
    }
    return new EmbeddedChunk(c, new float[layout.dimension()], dense);
  }

  /** Every Solr document the store writes for one chunk: its block (root, child) and manifest. */
  private static List<SolrInputDocument> written(IndexManifest layout) {
    SolrInputDocument chunk = SolrFields.toDocument(fullChunk(layout), ANALYSIS.analyzer());
    SolrInputDocument root = SolrFields.documentBlock("a.md", "h", List.of(chunk));
    List<SolrInputDocument> docs = new ArrayList<>(List.of(root, SolrFields.manifestDocument(
        layout)));
    docs.addAll(root.getChildDocuments());
    return docs;
  }

  /** The fields of {@code docs} the schema does not declare, or whose vector length differs. */
  private static List<String> undeclared(List<SolrInputDocument> docs, Declared schema) {
    TreeSet<String> problems = new TreeSet<>();
    for (SolrInputDocument d : docs) {
      for (String name : d.getFieldNames()) {
        String type = schema.fieldTypes().get(name);
        if (type == null) {
          problems.add("unknown field '" + name + "'");
          continue;
        }
        Integer dim = schema.dimensions().get(type);
        if (dim != null && d.getFieldValues(name).size() != dim) {
          problems.add(name + ": " + d.getFieldValues(name).size() + " values, type " + type
              + " has dimension " + dim);
        }
      }
    }
    return List.copyOf(problems);
  }

  @Test
  void i22_should_declare_every_field_the_store_writes_for_the_bilingual_routes()
      throws Exception {
    Declared schema = uploadedSchema(BILINGUAL);
    List<SolrInputDocument> docs = written(BILINGUAL);

    assertThat(docs.get(2).getFieldNames()).as("the chunk has its English vector")
        .contains("vector", "vector_en", "dense_fields", "text_tokens", "heading_tokens");
    assertThat(undeclared(docs, schema)).isEmpty();
    assertThat(schema.dimensions()).containsEntry(schema.fieldTypes().get("vector"), 512)
        .containsEntry(schema.fieldTypes().get("vector_en"), 384);
  }

  @Test
  void i22_should_declare_every_dense_route_with_its_own_dimension() throws Exception {
    // Constructed: two further routes (e.g. a remote bge-m3 of 1024 beside the English model).
    IndexManifest three = manifest(768, List.of(new DenseField("en", "bge-small-en-v1.5-q", 384),
        new DenseField("m3", "bge-m3", 1024)));
    Declared schema = uploadedSchema(three);

    assertThat(undeclared(written(three), schema)).isEmpty();
    assertThat(schema.dimensions()).containsEntry(schema.fieldTypes().get("vector"), 768)
        .containsEntry(schema.fieldTypes().get("vector_en"), 384)
        .containsEntry(schema.fieldTypes().get("vector_m3"), 1024);
  }

  @Test
  void i22_should_find_the_missing_english_field_in_a_schema_made_without_the_routes()
      throws Exception {
    // The fault itself: a schema built without the manifest's dense fields (what solr init
    // uploaded) lacks vector_en; the check above names it, so it cannot pass vacuously.
    Declared primaryOnly = uploadedSchema(manifest(512, List.of()));

    assertThat(undeclared(written(BILINGUAL), primaryOnly))
        .containsExactly("unknown field 'vector_en'");
    assertThat(undeclared(written(BILINGUAL), uploadedSchema(manifest(384, List.of(
        new DenseField("en", "bge-small-en-v1.5-q", 384))))))
        .containsExactly("vector: 512 values, type openbook_vector has dimension 384");
  }

  @Test
  void i22_should_refuse_a_dense_route_wider_than_solr_allows() {
    IndexManifest wide = manifest(512, List.of(new DenseField("big", "m", 4096)));

    assertThatThrownBy(() -> SolrAdmin.configSetZip(wide))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("dense field 'big': dimension 4096 is outside 1..1024");
  }

  @Test
  void i22_should_name_solr_init_when_solr_refuses_an_unknown_field() {
    var refused = new java.io.IOException("Solr: write document a.md in collection 'kb' failed:"
        + " Error from server: ERROR: [doc=a.md#0] unknown field 'vector_en'");

    assertThat(SolrSchema.explainUnknownField("kb", refused).getMessage())
        .contains("unknown field 'vector_en'")
        .endsWith("lacks field 'vector_en', which this build writes: update it with openbook"
            + " solr init --collection kb (its documents stay)");
    var other = new java.io.IOException("Solr: write failed: connection refused");
    assertThat(SolrSchema.explainUnknownField("kb", other)).isSameAs(other);
  }
}
