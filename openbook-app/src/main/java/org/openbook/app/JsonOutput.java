package org.openbook.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.openbook.answer.Answer;
import org.openbook.answer.Citation;
import org.openbook.answer.Source;
import org.openbook.chunk.Chunk;
import org.openbook.ingest.IngestReport;
import org.openbook.llm.AgentStep;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Query;
import org.openbook.retrieve.Retrieval;

/**
 * The {@code --json} shapes of the CLI (documented in the README). Scores that do not exist
 * (a route that did not return a chunk) are {@code null}, never NaN, so the output is valid JSON.
 */
public final class JsonOutput {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonOutput() {}

  /** {@code search}: question, principal, timing and the hits. */
  public static String search(Query q, Retrieval r, long millis) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("question", q.text());
    root.put("principal", q.principal().name());
    root.put("k", q.topK());
    root.put("fetchK", q.fetchK());
    root.put("millis", millis);
    putScore(root, "bestDenseScore", r.bestDenseScore());
    ArrayNode hits = root.putArray("hits");
    int rank = 1;
    for (Hit h : r.hits()) {
      hits.add(hit(rank++, h));
    }
    return write(root);
  }

  /**
   * {@code ask}: status, answer text, citations, sources and diagnostics ({@code rewrittenQuestion}
   * is the standalone question a follow-up was rewritten to, or empty).
   */
  public static String ask(Query q, Answer a) {
    return write(askNode(q, a));
  }

  private static ObjectNode askNode(Query q, Answer a) {
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
    putScore(diag, "bestLexicalEvidence", d.bestLexicalEvidence());
    diag.put("gateSignal", d.gateSignal());
    diag.put("partialText", d.partialText());
    return root;
  }

  /**
   * {@code ask --agent}: as {@link #ask(Query, Answer)}, with {@code diagnostics.agentTrace}: one
   * object per search ({@code step}, {@code query}, {@code chunkIds}, {@code numbers},
   * {@code bestDenseScore} or null, {@code note}).
   */
  public static String ask(Query q, Answer a, List<AgentStep> trace) {
    ObjectNode root = askNode(q, a);
    ArrayNode steps = ((ObjectNode) root.get("diagnostics")).putArray("agentTrace");
    for (AgentStep s : trace) {
      ObjectNode n = steps.addObject();
      n.put("step", s.step());
      n.put("query", s.query());
      n.set("chunkIds", MAPPER.valueToTree(s.chunkIds()));
      n.set("numbers", MAPPER.valueToTree(s.numbers()));
      putScore(n, "bestDenseScore", s.bestDenseScore());
      n.put("note", s.note());
    }
    return write(root);
  }

  /** {@code ingest}: counts, per-file outcomes and timing. */
  public static String ingest(IngestReport r, long totalChunks) {
    ObjectNode root = MAPPER.valueToTree(r);
    root.put("filesSeen", r.filesSeen());
    root.put("added", r.added());
    root.put("updated", r.updated());
    root.put("totalChunks", totalChunks);
    return write(root);
  }

  /**
   * The {@code sources} array of {@link #ask(Query, Answer)} on its own (as the server streams
   * it before the answer): each source is a search hit ranked by its {@code n}, plus {@code n}.
   */
  public static String sources(List<Source> sources) {
    return write(sourcesNode(sources));
  }

  private static ArrayNode sourcesNode(List<Source> sources) {
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
    n.put("dept", c.dept());
    n.put("headingPath", c.headingLabel());
    if (c.page() > 0) {
      n.put("page", c.page());
    } else {
      n.putNull("page");
    }
    n.put("startOffset", c.startOffset());
    n.put("endOffset", c.endOffset());
    n.put("text", c.raw());
    putScore(n, "fusedScore", h.fusedScore());
    putRank(n, "denseRank", h.denseRank());
    putScore(n, "denseScore", h.denseScore());
    putRank(n, "sparseRank", h.sparseRank());
    putScore(n, "sparseScore", h.sparseScore());
    return n;
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

  private static String write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
