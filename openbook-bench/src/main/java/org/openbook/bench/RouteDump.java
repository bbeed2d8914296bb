package org.openbook.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.openbook.embed.DenseRoutes;
import org.openbook.eval.SquadDataset;
import org.openbook.index.AccessFilter;
import org.openbook.index.ScoredChunk;
import org.openbook.lucene.LuceneChunkStore;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.MinMaxFusion;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.Query;

/**
 * Writes each question's two route lists before fusion, one JSON object per line:
 * {@code {"q": id, "gold": "p<paragraph>", "text": question, "maxSparse": bound, "dense":
 * [[chunkId, paragraphId, score], ...], "sparse": [...]}}, each list best first and cut at
 * fetch-k. The dense list is the one {@link HybridRetriever} fuses (the primary field's cosines,
 * merged with the English field's when the question routes there), its scores min-max
 * normalised to [0, 1] (an affine map, so any min-max rule gives the same result on them); the
 * BM25 scores are raw; {@code maxSparse} is
 * {@link org.openbook.index.ChunkStore.SparseSearch#maxSparseScore}. Lets fusion rules be
 * compared offline on exactly the candidates the product would fuse.
 */
final class RouteDump {

  private RouteDump() {}

  static void write(Path file, List<SquadDataset.Question> questions, DenseRoutes routes,
      LuceneChunkStore store, int fetchK) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    ObjectMapper json = new ObjectMapper();
    AccessFilter filter = Principal.ANONYMOUS.filter();
    HybridRetriever denseOnly = new HybridRetriever(routes, store, store,
        new MinMaxFusion(1, 0), HybridRetriever.Mode.DENSE);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (SquadDataset.Question q : questions) {
        List<ScoredChunk> dense = denseOnly.retrieve(
                new Query(q.text(), Principal.ANONYMOUS, fetchK, fetchK)).hits().stream()
            .map(h -> new ScoredChunk(h.chunk(), h.denseRank(), h.fusedScore())).toList();
        List<ScoredChunk> sparse = store.searchSparse(q.text(), fetchK, filter);
        ObjectNode o = json.createObjectNode();
        o.put("q", q.id());
        o.put("gold", "p" + q.paragraph());
        o.put("text", q.text());
        o.put("maxSparse", store.maxSparseScore(q.text()));
        o.set("dense", list(json, dense));
        o.set("sparse", list(json, sparse));
        w.write(json.writeValueAsString(o));
        w.newLine();
      }
    }
  }

  private static ArrayNode list(ObjectMapper json, List<ScoredChunk> route) {
    ArrayNode a = json.createArrayNode();
    for (ScoredChunk c : route) {
      a.addArray().add(c.chunk().id()).add(c.chunk().docId()).add(c.score());
    }
    return a;
  }
}
