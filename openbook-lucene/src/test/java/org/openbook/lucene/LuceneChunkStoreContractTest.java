package org.openbook.lucene;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.analysis.TextAnalysis;
import org.openbook.index.ChunkStoreContractTest;
import org.openbook.index.IndexManifest;
import org.openbook.testing.InjectedFaults;

/**
 * The store contract on the embedded Lucene store; every store is a new index folder. The fault
 * hook is {@link FaultInjectingDirectory}: the writer dies at a file operation, and Lucene's
 * commit (new segments written and synced, then {@code pending_segments_N} renamed to {@code
 * segments_N}) means a reader opened afterwards sees the previous commit or the new one whole.
 */
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

  /**
   * Before each call only: the hooked calls create, sync and rename files, and none of that is
   * visible to a reader until the rename of {@code pending_segments_N} publishes a commit, so
   * dying just after call k leaves what dying just before call k + 1 leaves (after the last
   * call, the rename, the commit is whole and published: the re-run case).
   */
  @Override
  protected Set<InjectedFaults.When> faultTimings() {
    return Set.of(InjectedFaults.When.BEFORE);
  }

  @Override
  protected ChunkStoreUnderTest reopenWithFaults(ChunkStoreUnderTest previous,
      IndexManifest manifest, TextAnalysis analysis, InjectedFaults faults) throws IOException {
    Path dir = ((LuceneChunkStore) previous.store()).path();
    return ChunkStoreUnderTest.of(LuceneChunkStore.openExisting(dir, manifest, analysis,
        d -> new FaultInjectingDirectory(d, faults)));
  }
}
