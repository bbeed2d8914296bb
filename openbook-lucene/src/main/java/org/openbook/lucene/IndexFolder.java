package org.openbook.lucene;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.core.KeywordAnalyzer;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;
import org.openbook.analysis.TextAnalysis;
import org.openbook.embed.EmbeddingCache;
import org.openbook.index.HnswGraph;
import org.openbook.index.IndexManifest;
import org.openbook.index.VectorEncoding;

/** Creating, checking and writing the Lucene directory of a {@link LuceneChunkStore}. */
final class IndexFolder {

  private IndexFolder() {}

  static NoSuchFileException noIndex(Path dir) {
    return new NoSuchFileException(dir.toString(), null,
        "no OpenBook index here; build one with: openbook ingest <dir> --index " + dir);
  }

  /** Refuses to put an index into a folder that already holds something else. */
  static void refuseForeignFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      Optional<Path> other = files
          .filter(p -> !p.getFileName().toString().equals(IndexWriter.WRITE_LOCK_NAME))
          // left by a first commit that was killed before it completed
          .filter(p -> !p.getFileName().toString().startsWith(IndexFileNames.PENDING_SEGMENTS))
          // the embedding cache outlives the index it sits in (e.g. deleted index files)
          .filter(p -> !p.getFileName().toString().equals(EmbeddingCache.FOLDER_NAME))
          .findFirst();
      if (other.isPresent()) {
        throw new FileAlreadyExistsException(dir.toString(), null,
            "folder is not empty and holds no OpenBook index (found " + other.get().getFileName()
                + "); choose an empty or new folder for the index");
      }
    }
  }

  /** Writes an empty index whose first commit carries the manifest. */
  static void initialise(Directory directory, Path dir, IndexManifest expected,
      TextAnalysis analysis) throws IOException {
    try (IndexWriter w = newWriter(directory, dir, analysis, expected,
        IndexWriterConfig.OpenMode.CREATE)) {
      w.setLiveCommitData(ManifestCodec.userData(withCounts(expected, 0, 0)).entrySet());
      w.commit();
    }
  }

  /**
   * The codec writing every vector field with {@code encoding} and the graph parameters {@code
   * graph}: Lucene's HNSW format for float32, else its scalar-quantized HNSW format. Only the
   * writer needs it: each segment records its format by name, so any reader opens any encoding
   * and any graph.
   */
  static Codec codec(VectorEncoding encoding, HnswGraph graph) {
    if (encoding == VectorEncoding.FLOAT32 && graph.equals(HnswGraph.LUCENE_DEFAULT)) {
      return Codec.getDefault();
    }
    KnnVectorsFormat format = encoding == VectorEncoding.FLOAT32
        ? new Lucene99HnswVectorsFormat(graph.m(), graph.beamWidth())
        : new Lucene99HnswScalarQuantizedVectorsFormat(graph.m(), graph.beamWidth(),
            1, encoding.bits(), encoding == VectorEncoding.INT4,
            // int4: the confidence interval is fitted per segment ("dynamic"), as Lucene advises
            // for 4 bits; int8: Lucene's default for the dimension
            encoding == VectorEncoding.INT4 ? 0f : null, null);
    return new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format; // every vector field: the primary and the language routes
      }
    };
  }

  static IndexWriter newWriter(Directory directory, Path dir, TextAnalysis analysis,
      IndexManifest manifest, IndexWriterConfig.OpenMode mode) throws IOException {
    // Only "text" is analysed; the id fields are StringFields, indexed verbatim anyway.
    Analyzer perField = new PerFieldAnalyzerWrapper(
        new KeywordAnalyzer(), Map.of(ChunkFields.TEXT, analysis.analyzer(),
            ChunkFields.HEADING, analysis.analyzer()));
    IndexWriterConfig config = new IndexWriterConfig(perField)
        .setOpenMode(mode)
        .setCodec(codec(manifest.encoding(), manifest.hnsw()))
        .setSimilarity(new BM25Similarity())
        // Changes count only once commit() has written the manifest with them.
        .setCommitOnClose(false);
    try {
      return new IndexWriter(directory, config);
    } catch (LockObtainFailedException e) {
      throw new IOException("another ingest is writing to " + dir + " (its "
          + IndexWriter.WRITE_LOCK_NAME + " is held: an ingest, or an `openbook serve` that takes"
          + " uploads); wait for it to finish or stop the server, then run again", e);
    }
  }

  static IndexManifest readManifest(Directory directory, Path dir) throws IOException {
    return ManifestCodec.read(SegmentInfos.readLatestCommit(directory).getUserData(), dir);
  }

  static IndexManifest withCounts(IndexManifest m, long documents, long chunks) {
    return m.withCounts(documents, chunks);
  }
}
