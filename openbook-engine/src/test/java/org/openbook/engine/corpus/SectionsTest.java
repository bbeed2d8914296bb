package org.openbook.engine.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.openbook.chunk.Chunk;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore;
import org.openbook.index.IndexManifest;
import org.openbook.retrieve.Principal;

/**
 * Issue 30 item 7: a section of another department and a missing one take the same store call
 * (the filtered lookup) and end in the same refusal, so neither body nor timing tells them apart.
 */
class SectionsTest {

  /** Two finance chunks; counts each kind of lookup. */
  static final class CountingStore implements ChunkStore {
    final Map<String, Chunk> chunks = Map.of(
        "finance/a.md#0", chunk("finance/a.md", 0), "finance/a.md#1", chunk("finance/a.md", 1));
    int unfiltered;
    int filtered;

    static Chunk chunk(String doc, int ordinal) {
      return new Chunk(doc + "#" + ordinal, doc, ordinal, "text " + ordinal, "text", List.of("H"),
          0, 0, 6, Map.of("source", doc, "dept", "finance"));
    }

    @Override
    public Optional<Chunk> get(String chunkId) {
      unfiltered++;
      return Optional.ofNullable(chunks.get(chunkId));
    }

    @Override
    public Optional<Chunk> get(String chunkId, AccessFilter filter) {
      filtered++;
      return Optional.ofNullable(chunks.get(chunkId)).filter(c -> filter.allows(c.dept()));
    }

    @Override
    public IndexManifest manifest() {
      throw new UnsupportedOperationException();
    }

    @Override
    public long count() {
      return chunks.size();
    }

    @Override
    public void close() {}
  }

  @Test
  void i30_7_should_look_up_an_unreadable_and_a_missing_chunk_with_the_same_one_filtered_call() {
    Principal hr = new Principal("hr", Set.of("hr"));
    CountingStore hidden = new CountingStore();
    CountingStore missing = new CountingStore();

    Throwable a = catchNotFound(() -> Sections.read(hidden, hr, "finance/a.md#0"));
    Throwable b = catchNotFound(() -> Sections.read(missing, hr, "finance/none.md#0"));

    assertThat(a.getMessage()).isEqualTo(b.getMessage());
    assertThat(((NotFoundException) a).field()).isEqualTo(((NotFoundException) b).field());
    assertThat(hidden.filtered).isEqualTo(1).isEqualTo(missing.filtered);
    assertThat(hidden.unfiltered).isZero();
    assertThat(missing.unfiltered).isZero();
  }

  @Test
  void should_read_the_whole_section_for_a_reader_of_its_department() throws Exception {
    CountingStore store = new CountingStore();

    Corpus.Section s = Sections.read(store, new Principal("f", Set.of("finance")),
        "finance/a.md#1");

    assertThat(s.chunkIds()).containsExactly("finance/a.md#0", "finance/a.md#1");
    assertThat(store.unfiltered).isZero();
  }

  private static Throwable catchNotFound(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
    assertThat(t).isInstanceOf(NotFoundException.class);
    return t;
  }
}
