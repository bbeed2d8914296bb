package org.openbook.bench;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.openbook.chunk.Chunk;
import org.openbook.chunk.Chunker;
import org.openbook.document.Document;
import org.openbook.document.Section;
import org.openbook.embed.DenseRoutes;
import org.openbook.embed.Embedder;
import org.openbook.eval.Judged;
import org.openbook.eval.SquadDataset;
import org.openbook.index.EmbeddedChunk;

/**
 * Turns a {@link SquadDataset} into OpenBook documents and chunks: one {@link Document} per
 * paragraph (id and source {@code p<index>}, the article title as title, the context as one
 * paragraph section), chunked by the normal chunker, so a chunk maps back to its paragraph by
 * {@link Chunk#docId()}.
 */
public final class SquadCorpus {

  private SquadCorpus() {}

  /** The document of paragraph {@code p}. */
  public static Document document(SquadDataset.Paragraph p) {
    return new Document(p.id(), p.id(), p.title(), p.text(),
        List.of(new Section(Section.Kind.PARAGRAPH, List.of(), 0, p.text().length())), List.of(),
        Map.of(Document.DEPT, Document.PUBLIC, "title", p.title(), "source", p.id()),
        sha256(p.text()));
  }

  /** Every chunk of every paragraph, in paragraph order. */
  public static List<List<Chunk>> chunk(SquadDataset data, Chunker chunker) {
    List<List<Chunk>> out = new ArrayList<>(data.paragraphs().size());
    for (SquadDataset.Paragraph p : data.paragraphs()) {
      out.add(chunker.chunk(document(p)));
    }
    return out;
  }

  /**
   * One paragraph's chunks with their vectors, in chunk order, embedded in one
   * {@link Embedder#embedAll} call.
   */
  public static List<EmbeddedChunk> embed(List<Chunk> chunks, Embedder embedder) {
    List<float[]> v = embedder.embedAll(chunks.stream().map(Chunk::embedText).toList());
    List<EmbeddedChunk> out = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      out.add(new EmbeddedChunk(chunks.get(i), v.get(i)));
    }
    return out;
  }

  /**
   * One paragraph's chunks with their vectors by every model {@code routes} sends each chunk to,
   * in chunk order, one batch per model.
   */
  public static List<EmbeddedChunk> embed(List<Chunk> chunks, DenseRoutes routes) {
    List<DenseRoutes.RoutedVectors> v =
        routes.embedAll(chunks.stream().map(Chunk::embedText).toList());
    List<EmbeddedChunk> out = new ArrayList<>(chunks.size());
    for (int i = 0; i < chunks.size(); i++) {
      out.add(new EmbeddedChunk(chunks.get(i), v.get(i).primary(), v.get(i).fields()));
    }
    return out;
  }

  /** A ranking of paragraph ids judged against question {@code q}'s own paragraph. */
  public static Judged judge(SquadDataset.Question q, List<String> rankedParagraphIds) {
    String gold = "p" + q.paragraph();
    List<Set<Integer>> m = new ArrayList<>(rankedParagraphIds.size());
    for (String id : rankedParagraphIds) {
      m.add(gold.equals(id) ? Set.of(0) : Set.of());
    }
    return new Judged(m, 1);
  }

  private static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every JVM", e);
    }
  }
}
