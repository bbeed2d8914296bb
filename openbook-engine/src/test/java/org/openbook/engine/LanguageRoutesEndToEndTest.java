package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.embed.DenseRoutes;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.index.IndexMismatchException;
import org.openbook.ingest.IngestListener;
import org.openbook.retrieve.HybridRetriever;
import org.openbook.retrieve.Principal;
import org.openbook.retrieve.SearchResult;

/**
 * The shipped language routes with the real models (bge-small-zh-v1.5 and bge-small-en-v1.5,
 * Maven artifacts, loaded in-process): English questions reach English passages through the
 * English field, Chinese questions reach them too (cross-language), and an index built with one
 * model is refused with the {@code --reset} hint.
 */
class LanguageRoutesEndToEndTest {

  @TempDir static Path tmp;
  static final DenseRoutes ROUTES = DenseRoutes.defaults();

  @BeforeAll
  static void corpus() throws Exception {
    Path docs = Files.createDirectories(tmp.resolve("docs"));
    Files.writeString(docs.resolve("backup.md"), "# Backups\n\nNightly backups of the file "
        + "server run at 02:00 and are kept for 30 days on the NAS in the basement.\n");
    Files.writeString(docs.resolve("printer.md"), "# Printers\n\nWhen the printer jams, switch "
        + "it off, open the rear cover and pull the paper out slowly.\n");
    Files.writeString(docs.resolve("vpn.md"), "# VPN\n\nIf the VPN client reports an expired "
        + "certificate, download a new one from the self-service portal.\n");
    Files.writeString(docs.resolve("leave.md"), "# 年假\n\n员工申请年假须提前三天在 OA 系统中提交，"
        + "由直属主管审批。\n");
    Files.writeString(docs.resolve("travel.md"), "# 差旅报销\n\n差旅报销须在出差结束后十五个工作日内"
        + "提交发票原件。\n");
    try (OpenBook e = open(tmp.resolve("index")).mode(OpenBook.Mode.RESET).build()) {
      e.ingest(docs, IngestListener.NONE);
    }
  }

  /** A builder over {@code index} with the shared models (loaded once for the class). */
  private static OpenBook.Builder open(Path index) {
    return OpenBook.builder().index(index).config(OpenBookConfig.defaults()).routes(ROUTES);
  }

  private static List<String> dense(String question, int k) throws Exception {
    try (OpenBook e = open(tmp.resolve("index")).build()) {
      SearchResult r = new HybridRetriever(ROUTES, e.store(), e.store(),
          e.settings().retrieval().fusion(),
          HybridRetriever.Mode.DENSE).retrieve(e.query(question, Principal.ANONYMOUS, k));
      return r.hits().stream().map(h -> h.chunk().docId()).toList();
    }
  }

  private static List<String> hybrid(String question, int k) throws Exception {
    try (OpenBook e = open(tmp.resolve("index")).build()) {
      return e.retriever().retrieve(e.query(question, Principal.ANONYMOUS, k)).hits().stream()
          .map(h -> h.chunk().docId()).toList();
    }
  }

  @Test
  void should_find_the_english_passage_for_an_english_question() throws Exception {
    assertThat(dense("How long are the nightly backups retained?", 1))
        .containsExactly("backup.md");
    assertThat(hybrid("How long are the nightly backups retained?", 1))
        .containsExactly("backup.md");
  }

  @Test
  void should_find_the_english_passage_for_a_chinese_question() throws Exception {
    // no shared token with the passage: the zh model's primary field carries it
    assertThat(dense("打印机卡纸了怎么办？", 2)).contains("printer.md");
    assertThat(hybrid("打印机卡纸了怎么办？", 3)).contains("printer.md");
  }

  @Test
  void should_find_the_chinese_passage_for_an_english_question() throws Exception {
    assertThat(dense("How many days in advance must annual leave be requested?", 2))
        .contains("leave.md");
  }

  @Test
  void should_refuse_an_index_built_with_the_chinese_model_alone() throws Exception {
    Path single = tmp.resolve("single");
    try (OpenBook e = OpenBook.builder().index(single).embedder(ROUTES.primary())
        .mode(OpenBook.Mode.RESET).build()) {
      e.ingest(tmp.resolve("docs"), IngestListener.NONE);
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> open(single).build())
        .isInstanceOf(IndexMismatchException.class)
        .hasMessageContaining("bge-small-en-v1.5-q")
        .hasMessageContaining("--reset");
  }
}
