package org.openbook.bench.scale;

import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.index.EmbeddedChunk;

/**
 * One chunk of the scale corpus with its vector.
 *
 * @param n      0-based position in the corpus (the corpus of size N is the first N chunks)
 * @param docId  its document ({@value VariantCorpus#CHUNKS_PER_DOC} chunks per document)
 * @param dept   the document's department (the access filter field)
 * @param prefix contextual prefix (title, headings), may be empty
 * @param raw    the chunk text
 * @param vector unit vector, 512-d for bge-small-zh-v1.5: the model's vector of {@link
 *               #embedText()} for {@link Origin#SOURCE}, the derived vector otherwise
 * @param origin how the chunk was made
 */
public record ScaleChunk(int n, String docId, String dept, String prefix, String raw,
    float[] vector, Origin origin) {

  /** How a chunk of the scale corpus was made. */
  public enum Origin {
    /** A real chunk of the source corpus, vector by the model. */
    SOURCE,
    /** A source chunk with its sentences in another order. */
    SHUFFLE,
    /** Leading sentences of one source chunk followed by trailing ones of another. */
    RECOMBINE
  }

  /** Chunk id, {@code <docId>#<ordinal>}. */
  public String id() {
    return docId + "#" + ordinal();
  }

  /** Position in its document. */
  public int ordinal() {
    return n % VariantCorpus.CHUNKS_PER_DOC;
  }

  /** The text the model embeds and BM25 indexes, as the chunker builds it. */
  public String embedText() {
    return prefix.isEmpty() ? raw : prefix + "\n" + raw;
  }

  /** As an OpenBook chunk with its vector, for {@code IndexStore.replaceDocument}. */
  public EmbeddedChunk toEmbedded() {
    List<String> headings = prefix.isEmpty() ? List.of() : List.of(prefix);
    Chunk c = new Chunk(id(), docId, ordinal(), raw, embedText(), headings, 0, 0, raw.length(),
        Map.of("source", docId, "dept", dept, "contentHash", "scale-" + docId));
    return new EmbeddedChunk(c, vector);
  }
}
