package org.openbook.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.openbook.answer.AgentStep;
import org.openbook.answer.Answer;
import org.openbook.answer.Citation;
import org.openbook.answer.Source;
import org.openbook.chunk.Chunk;
import org.openbook.engine.corpus.Corpus;
import org.openbook.ingest.IngestReport;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.SearchResult;

/**
 * The {@code --json} shapes of the CLI (documented in the README). Scores that do not exist
 * (a route that did not return a chunk) are {@code null}, never NaN, so the output is valid JSON.
 */
public final class JsonOutput {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonOutput() {}

  /**
   * {@code search}: question, principal, timing and the hits; {@code rerank} and
   * {@code rerankMillis} say what the reranking stage did (empty and 0 without one).
   */
  public static String search(Query q, SearchResult r, long millis) {
    return write(searchNode(q, r, millis));
  }

  /** {@link #search} as a tree. */
  public static ObjectNode searchNode(Query q, SearchResult r, long millis) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("question", q.text());
    root.put("principal", q.principal().name());
    root.put("k", q.topK());
    root.put("fetchK", q.fetchK());
    root.put("millis", millis);
    putScore(root, "bestDenseScore", r.bestDenseScore());
    root.put("rerank", r.rerank());
    root.put("rerankMillis", r.rerankMillis());
    ObjectNode diag = root.putObject("diagnostics");
    diag.put("partialResults", r.partial());
    diag.set("missingShards", MAPPER.valueToTree(r.missingShards()));
    ArrayNode hits = root.putArray("hits");
    int rank = 1;
    for (Hit h : r.hits()) {
      hits.add(hit(rank++, h));
    }
    return root;
  }

  /**
   * {@code ask}: status, answer text, citations, sources and diagnostics ({@code rewrittenQuestion}
   * is the standalone question a follow-up was rewritten to, or empty; {@code agentTrace}, only
   * when the agent answered, has one object per search: {@code step}, {@code query},
   * {@code chunkIds}, {@code numbers}, {@code bestDenseScore} or null, {@code note}).
   */
  public static String ask(Query q, Answer a) {
    return write(askNode(q, a));
  }

  /** {@link #ask} as a tree, for callers that add fields before writing it once. */
  public static ObjectNode askNode(Query q, Answer a) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("question", q.text());
    root.put("principal", q.principal().name());
    root.put("status", a.status().name());
    root.put("answer", a.text());
    ArrayNode cites = root.putArray("citations");
    for (Citation c : a.citations()) {
      ObjectNode n = cites.addObject();
      n.put("n", c.n());
      n.put("chunkId", c.chunkId());
      n.put("source", c.source());
      n.put("supported", c.supported());
    }
    root.set("sources", sourcesNode(a.sources()));
    var d = a.diagnostics();
    ObjectNode diag = root.putObject("diagnostics");
    diag.put("generator", d.generator());
    putScore(diag, "bestDenseScore", d.bestDenseScore());
    putScore(diag, "threshold", d.threshold());
    diag.set("invalidCitations", MAPPER.valueToTree(d.invalidCitations()));
    diag.set("unsupportedCitations", MAPPER.valueToTree(d.unsupportedCitations()));
    diag.set("uncitedSentences", MAPPER.valueToTree(d.uncitedSentences()));
    diag.put("retrievalMillis", d.retrievalMillis());
    diag.put("generationMillis", d.generationMillis());
    diag.put("reason", d.reason());
    diag.put("rewrittenQuestion", d.rewrittenQuestion());
    diag.put("rerank", d.rerank());
    diag.put("rerankMillis", d.rerankMillis());
    putScore(diag, "bestLexicalEvidence", d.bestLexicalEvidence());
    diag.put("gateSignal", d.gateSignal());
    diag.put("partialText", d.partialText());
    // Never silently partial: a Solr store with store.partialResults: true answered without
    // these shards.
    diag.put("partialResults", d.partialResults());
    diag.set("missingShards", MAPPER.valueToTree(d.missingShards()));
    if (!d.agentTrace().isEmpty()) {
      ArrayNode steps = diag.putArray("agentTrace");
      for (AgentStep s : d.agentTrace()) {
        ObjectNode n = steps.addObject();
        n.put("step", s.step());
        n.put("query", s.query());
        n.set("chunkIds", MAPPER.valueToTree(s.chunkIds()));
        n.set("numbers", MAPPER.valueToTree(s.numbers()));
        putScore(n, "bestDenseScore", s.bestDenseScore());
        n.put("note", s.note());
      }
    }
    return root;
  }

  /**
   * {@code ingest}: counts, the files that changed and timing. Its size grows with what the run
   * changed, not with the folder: unchanged files are a count ({@code unchanged}), their names
   * ({@code unchangedSources}, sorted) only when {@code listUnchanged}.
   *
   * <pre>{@code
   * {indexed: [{source, chunks, updated, warnings, ocrPages, ocrMillis}],  // added + updated
   *  unchanged: n, unchangedSources?: [source], removed: [source],
   *  skipped: [{source, reason, detail}], chunks, millis, filesSeen, added, updated,
   *  totalChunks, formats: {ext: {indexed, unchanged, skipped}}, ocrPages, ocrSeconds}
   * }</pre>
   */
  public static String ingest(IngestReport r, long totalChunks, boolean listUnchanged) {
    ObjectNode root = MAPPER.createObjectNode();
    root.set("indexed", MAPPER.valueToTree(r.indexed()));
    root.put("unchanged", r.unchanged().size());
    if (listUnchanged) {
      root.set("unchangedSources", MAPPER.valueToTree(r.unchanged().stream().sorted().toList()));
    }
    root.set("removed", MAPPER.valueToTree(r.removed()));
    root.set("skipped", MAPPER.valueToTree(r.skipped()));
    root.put("chunks", r.chunks());
    root.put("millis", r.millis());
    root.put("filesSeen", r.filesSeen());
    root.put("added", r.added());
    root.put("updated", r.updated());
    root.put("totalChunks", totalChunks);
    root.set("formats", MAPPER.valueToTree(r.formats()));
    root.put("ocrPages", r.ocrPages());
    root.put("ocrSeconds", r.ocrSeconds());
    // what the text output reports as errors (exit code 3), one message per file
    ArrayNode errors = root.putArray("errors");
    r.failed().forEach(f -> errors.add(f.message()));
    return write(root);
  }

  /**
   * The {@code sources} array of {@link #ask(Query, Answer)} on its own (as the server streams
   * it before the answer): each source is a search hit ranked by its {@code n}, plus {@code n}.
   */
  public static String sources(List<Source> sources) {
    return write(sourcesNode(sources));
  }

  /** {@link #sources} as a tree. */
  public static ArrayNode sourcesNode(List<Source> sources) {
    ArrayNode arr = MAPPER.createArrayNode();
    for (Source s : sources) {
      ObjectNode n = hit(s.n(), s.hit());
      n.put("n", s.n());
      arr.add(n);
    }
    return arr;
  }

  private static ObjectNode hit(int rank, Hit h) {
    Chunk c = h.chunk();
    ObjectNode n = MAPPER.createObjectNode();
    n.put("rank", rank);
    n.put("chunkId", c.id());
    n.put("source", c.source());
    n.put("title", Corpus.titleOf(c.meta().get("title"), c.source()));
    n.put("dept", c.dept());
    n.put("headingPath", c.headingLabel());
    if (c.page() > 0) {
      n.put("page", c.page());
    } else {
      n.putNull("page");
    }
    n.put("startOffset", c.startOffset());
    n.put("endOffset", c.endOffset());
    // where a person opens it: a sheet range for spreadsheets, whether the page text is OCR
    String range = c.meta().get(org.openbook.chunk.StructuredChunker.CELL_RANGE);
    if (range != null) {
      n.put("cellRange", range);
    } else {
      n.putNull("cellRange");
    }
    n.put("ocr", "true".equals(c.meta().get(org.openbook.chunk.StructuredChunker.OCR)));
    n.put("format", c.meta().getOrDefault("format", ""));
    n.put("text", c.raw());
    putScore(n, "fusedScore", h.fusedScore());
    putRank(n, "denseRank", h.denseRank());
    putScore(n, "denseScore", h.denseScore());
    putRank(n, "sparseRank", h.sparseRank());
    putScore(n, "sparseScore", h.sparseScore());
    putScore(n, "rerankScore", h.rerankScore());
    putRank(n, "rerankRank", h.rerankRank());
    return n;
  }

  /**
   * A stored (not freshly retrieved) passage as a source object: the fields of a hit without
   * scores and ranks, plus {@code n}; e.g. the cited passages of a stored conversation turn.
   */
  public static ObjectNode chunkSource(int n, Chunk c) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("n", n);
    o.put("chunkId", c.id());
    o.put("source", c.source());
    o.put("title", Corpus.titleOf(c.meta().get("title"), c.source()));
    o.put("dept", c.dept());
    o.put("headingPath", c.headingLabel());
    if (c.page() > 0) {
      o.put("page", c.page());
    } else {
      o.putNull("page");
    }
    o.put("text", c.raw());
    return o;
  }

  /**
   * The result of an upload job, restricted to {@code sources} (the upload's own files): counts
   * {@code added}, {@code updated}, {@code unchanged}, {@code skipped}, {@code removed}, and one
   * {@code files} entry ({@code source}, {@code chunks}, {@code status}: added|updated|skipped,
   * {@code dept} the department it is indexed under when not skipped, {@code reason} and
   * {@code detail} when skipped) per uploaded file that changed or was skipped, in upload order;
   * unchanged files get an entry ({@code status} unchanged, {@code chunks} null) only when
   * {@code listUnchanged}, so the reply grows with what changed.
   *
   * @param depts source → department of each uploaded file (from the upload's check)
   */
  public static ObjectNode uploadResult(IngestReport r, List<String> sources, long totalChunks,
      java.util.Map<String, String> depts, boolean listUnchanged) {
    java.util.Map<String, IngestReport.IndexedFile> indexed = new java.util.HashMap<>();
    r.indexed().forEach(f -> indexed.put(f.source(), f));
    java.util.Map<String, IngestReport.SkippedFile> skipped = new java.util.HashMap<>();
    r.skipped().forEach(f -> skipped.putIfAbsent(f.source(), f));
    ObjectNode root = MAPPER.createObjectNode();
    root.put("added", r.added());
    root.put("updated", r.updated());
    root.put("unchanged", (int) sources.stream()
        .filter(s -> !indexed.containsKey(s) && !skipped.containsKey(s)).count());
    root.put("skipped", (int) sources.stream().filter(skipped::containsKey).count());
    root.put("removed", r.removed().size());
    root.put("totalChunks", totalChunks);
    root.put("millis", r.millis());
    ArrayNode files = root.putArray("files");
    for (String source : sources) {
      IngestReport.IndexedFile in = indexed.get(source);
      IngestReport.SkippedFile sk = skipped.get(source);
      if (in == null && sk == null && !listUnchanged) {
        continue;
      }
      ObjectNode f = files.addObject();
      f.put("source", source);
      if (in != null) {
        f.put("chunks", in.chunks());
        f.put("status", in.updated() ? "updated" : "added");
      } else if (sk != null) {
        f.put("chunks", 0);
        f.put("status", "skipped");
        f.put("reason", sk.reason());
        f.put("detail", sk.detail());
      } else {
        f.putNull("chunks");
        f.put("status", "unchanged");
      }
      if (sk == null && depts.containsKey(source)) {
        f.put("dept", depts.get(source));
      }
    }
    return root;
  }

  private static void putRank(ObjectNode n, String field, int rank) {
    if (rank > 0) {
      n.put(field, rank);
    } else {
      n.putNull(field);
    }
  }

  private static void putScore(ObjectNode n, String field, double v) {
    if (Double.isNaN(v)) {
      n.putNull(field);
    } else {
      n.put(field, v);
    }
  }

  /**
   * The JSON a command prints on stdout when it stops on an error while {@code --json} is given:
   * {@code {"error": {"message": ..., "exitCode": n}}}, so that a script reading stdout sees the
   * error, not an empty output.
   */
  public static String error(String message, int exitCode) {
    ObjectNode root = MAPPER.createObjectNode();
    root.putObject("error").put("message", message).put("exitCode", exitCode);
    return write(root);
  }

  /** Writes {@code node} as compact JSON. */
  public static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
