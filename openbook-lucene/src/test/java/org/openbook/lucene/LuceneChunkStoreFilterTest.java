package org.openbook.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.openbook.lucene.TestCorpus.HR;
import static org.openbook.lucene.TestCorpus.HR_FIN;
import static org.openbook.lucene.TestCorpus.NOTHING;
import static org.openbook.lucene.TestCorpus.addAll;
import static org.openbook.lucene.TestCorpus.chunk;
import static org.openbook.lucene.TestCorpus.ids;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.index.EmbeddedChunk;

/** R14: the department filter runs inside both routes, before top-N. */
class LuceneChunkStoreFilterTest {

  private static final String QUERY = "年终奖个税怎么算";

  @TempDir Path dir;
  private LuceneChunkStore store;

  @BeforeEach
  void index() throws IOException {
    store = TestCorpus.openHashStore(dir);
    addAll(store,
        chunk("c1", "HR", "年终奖在每年一月发放。"),
        chunk("c2", "FIN", "年终奖个税按单独计税方式计算。"),
        chunk("c3", "HR", "年假每年十天。"));
  }

  @AfterEach
  void close() throws IOException {
    store.close();
  }

  @Test
  void should_return_the_forbidden_chunk_only_when_its_department_is_permitted()
      throws IOException {
    assertThat(ids(store.searchSparse(QUERY, 10, HR_FIN))).startsWith("c2");
    assertThat(ids(store.searchDense(TestCorpus.EMBEDDER.embed(QUERY), 10, HR_FIN)))
        .contains("c2");
  }

  @Test
  void should_exclude_other_departments_from_both_routes() throws IOException {
    assertThat(ids(store.searchSparse(QUERY, 10, HR))).containsExactly("c1");
    assertThat(ids(store.searchDense(TestCorpus.EMBEDDER.embed(QUERY), 10, HR)))
        .containsExactly("c1", "c3");
  }

  @Test
  void should_return_nothing_when_no_department_is_permitted() throws IOException {
    assertThat(store.searchSparse(QUERY, 10, NOTHING)).isEmpty();
    assertThat(store.searchDense(TestCorpus.EMBEDDER.embed(QUERY), 10, NOTHING)).isEmpty();
  }

  @Test
  void should_filter_before_top_n_so_forbidden_chunks_cannot_crowd_out_permitted_ones()
      throws IOException {
    float[] queryVector = TestCorpus.EMBEDDER.embed(QUERY);
    for (int i = 0; i < 40; i++) {
      // Better than c1 on both routes: the query words twice, and the query's own vector.
      store.replaceDocument("fin" + i, List.of(new EmbeddedChunk(
          chunk("fin" + i, "FIN", "年终奖个税怎么算？年终奖个税。"), queryVector)));
    }
    store.commit();

    assertThat(ids(store.searchSparse(QUERY, 2, HR_FIN))).allMatch(id -> id.startsWith("fin"));
    assertThat(ids(store.searchSparse(QUERY, 2, HR))).containsExactly("c1");
    assertThat(ids(store.searchDense(queryVector, 2, HR))).containsExactly("c1", "c3");
  }
}
