package org.openbook.bench;

import dev.langchain4j.data.document.DocumentSplitter;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.document.splitter.DocumentSplitters;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.openbook.embed.Embedder;
import org.openbook.eval.QueryOutcome;
import org.openbook.eval.SquadDataset;

/**
 * The peer baseline: what a Java user builds from a LangChain4j tutorial. Each paragraph is
 * split by {@code DocumentSplitters.recursive(maxSegmentChars, overlapChars)} (paragraph, line,
 * sentence, word, character), the segments are embedded by the same bge-small-zh-v1.5 model
 * (no title or other prefix) into an {@link InMemoryEmbeddingStore}, and questions are answered
 * by its exact cosine search. Dense only, no BM25, no chunk-to-token-limit check beyond the
 * splitter's character budget.
 */
final class LangChain4jBaseline {

  /** Segment size (chars) of the LangChain4j "naive RAG" examples. */
  static final int SEGMENT_CHARS = 300;
  /** Segment overlap (chars) of the same examples. */
  static final int OVERLAP_CHARS = 30;

  private final Embedder embedder;
  private final InMemoryEmbeddingStore<TextSegment> store = new InMemoryEmbeddingStore<>();
  private int segments;

  LangChain4jBaseline(Embedder embedder) {
    this.embedder = embedder;
  }

  /** Splits and embeds every paragraph; {@code onParagraph} is called after each. */
  void index(SquadDataset data, IntConsumer onParagraph) {
    DocumentSplitter splitter = DocumentSplitters.recursive(SEGMENT_CHARS, OVERLAP_CHARS);
    for (SquadDataset.Paragraph p : data.paragraphs()) {
      List<TextSegment> segs = splitter.split(
          dev.langchain4j.data.document.Document.from(p.text(), Metadata.from("pid", p.id())));
      List<float[]> vectors = embedder.embedAll(segs.stream().map(TextSegment::text).toList());
      List<Embedding> embeddings = vectors.stream().map(Embedding::from).toList();
      store.addAll(embeddings, segs);
      segments += segs.size();
      onParagraph.accept(1);
    }
  }

  /** Segments indexed. */
  int segments() {
    return segments;
  }

  /** Retrieves the top {@code k} segments for {@code q}, judged by their paragraph. */
  QueryOutcome ask(SquadDataset.Question q, int k) {
    long t0 = System.nanoTime();
    List<EmbeddingMatch<TextSegment>> matches = store.search(EmbeddingSearchRequest.builder()
        .queryEmbedding(Embedding.from(embedder.embed(q.text()))).maxResults(k).build())
        .matches();
    double millis = (System.nanoTime() - t0) / 1e6;
    List<String> ids = new ArrayList<>(matches.size());
    for (EmbeddingMatch<TextSegment> m : matches) {
      ids.add(m.embedded().metadata().getString("pid"));
    }
    return new QueryOutcome(q.id(), "", SquadCorpus.judge(q, ids), millis, false, null);
  }
}
