package org.openbook.lucene;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.TextAnalysis;
import org.openbook.index.ChunkStoreContractTest;
import org.openbook.index.IndexManifest;

/** The store contract on the embedded Lucene store; every store is a new index folder. */
class LuceneChunkStoreContractTest extends ChunkStoreContractTest {

  @TempDir
  Path root;
  private final AtomicInteger indexes = new AtomicInteger();

  @Override
  protected ChunkStoreUnderTest open(IndexManifest manifest, TextAnalysis analysis)
      throws IOException {
    Path dir = root.resolve("index" + indexes.incrementAndGet());
    return ChunkStoreUnderTest.of(LuceneChunkStore.open(dir, manifest, analysis));
  }

  @Override
  protected ChunkStoreUnderTest reopen(ChunkStoreUnderTest previous, IndexManifest manifest,
      TextAnalysis analysis) throws IOException {
    Path dir = ((LuceneChunkStore) previous.store()).path();
    return ChunkStoreUnderTest.of(LuceneChunkStore.openExisting(dir, manifest, analysis));
  }
}
