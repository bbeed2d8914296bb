package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.ingest.IngestListener;
import org.openbook.retrieve.Hit;
import org.openbook.retrieve.Principal;

/**
 * Bug cases R25 (script folding), R30 (invisible characters), R33 (compound identifiers) and R35
 * (a weak route must not hijack fusion) end to end with the real bge-small-zh-v1.5 model and the
 * shipped defaults, each with a further input of the same kind. One corpus per case, as in
 * {@code shared/bugcases/README.md}; the constructed documents are added beside them.
 */
class BatchTwoRetrievalTest {

  private static final char ZWSP = '\u200B';
  private static BgeSmallZhEmbedder model;
  @TempDir static Path tmp;

  @BeforeAll
  static void loadModel() {
    model = new BgeSmallZhEmbedder();
  }

  // R25: the Traditional-script passage for a Simplified-script question.
  @Test
  void r25_should_find_the_traditional_document_for_a_simplified_question() throws IOException {
    try (OpenBook book = corpus("r25",
        "leave-tw.md", "# 請假規定\n員工請病假超過三天，須於返回辦公室後五個工作日內補交醫院開立的診斷證明。"
            + "未補交者按事假處理。\n",
        "onboarding.md", "# 入职体检\n新员工需要在入职后三十天内补交体检报告和学历证明，补交期限届满仍未提交"
            + "的，人事部将暂停发放餐补。\n",
        // constructed, the reverse direction: a Simplified document, a Traditional question
        "backup-cn.md", "# 数据备份\n数据库每天凌晨两点做全量备份，备份文件保留三十天。\n")) {
      List<Hit> hits = search(book, "请病假的诊断证明要在几天内补交");
      assertThat(source(hits.get(0))).isEqualTo("leave-tw.md");
      assertThat(hits.get(0).sparseRank()).isPositive();
      assertThat(search(book, "诊断证明")).anySatisfy(h -> {
        assertThat(source(h)).isEqualTo("leave-tw.md");
        assertThat(h.sparseRank()).isPositive();
      });
      // The ranking does not depend on the question's script.
      assertThat(sources(search(book, "請病假的診斷證明要在幾天內補交")))
          .isEqualTo(sources(hits));

      List<Hit> reverse = search(book, "數據庫備份文件保留幾天");
      assertThat(source(reverse.get(0))).isEqualTo("backup-cn.md");
      assertThat(reverse.get(0).sparseRank()).isEqualTo(1);

      Answer a = book.ask("请病假的诊断证明要在几天内补交", Principal.ANONYMOUS,
          Answerer.Listener.NONE);
      assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
      // The first cited sentence is quoted as written, in Traditional script.
      assertThat(a.text().replaceFirst("^（摘录）", ""))
          .startsWith("員工請病假超過三天，須於返回辦公室後五個工作日內補交醫院開立的診斷證明[1]。");
      assertThat(a.citations().get(0).source()).isEqualTo("leave-tw.md");
    }
  }

  // R30: invisible characters inside words, in documents and in the question.
  @Test
  void r30_should_match_words_split_by_invisible_characters() throws IOException {
    try (OpenBook book = corpus("r30",
        "svc.md", "# 计费服务\n月末对账任务由 Invoice" + ZWSP + "Reconcile" + ZWSP + "Job 执行，"
            + "失败时会重试三次并通知值班人员。\n",
        "storage.md", "# 存储配额\n每个项目组的共享盘配额是 200 GB，超过配额后只能读不能写。配额调整需要"
            + "提交工" + ZWSP + "单。\n",
        "backup.md", "# 备份策略\n数据库每天凌晨两点做全量备份，备份文件保留三十天。"
            + "恢\u00AD复演练每季度一次。\n",
        "plain.md", "# 证书更新\n内部网站的 TLS 证书由 CertRenewBot 自动续期，到期前十四天开始尝试。\n",
        // constructed: a word joiner and a BOM inside a name, a zero-width joiner in Chinese
        "token.md", "# 令牌轮换\n访问令牌由 Token\u2060Rotator 每小时轮换，旧令\uFEFF牌立即失效。\n")) {
      List<Hit> invoice = search(book, "InvoiceReconcileJob");
      assertThat(source(invoice.get(0))).isEqualTo("svc.md");
      assertThat(invoice.get(0).sparseRank()).isEqualTo(1);
      assertThat(bm25First(book, "Cert" + ZWSP + "Renew" + ZWSP + "Bot")).isEqualTo("plain.md");
      assertThat(bm25First(book, "工单")).isEqualTo("storage.md");
      assertThat(bm25First(book, "恢复")).isEqualTo("backup.md");

      assertThat(bm25First(book, "TokenRotator")).isEqualTo("token.md");
      assertThat(bm25First(book, "旧令\u200D牌")).isEqualTo("token.md");

      // The quoted text is the file's own text, invisible characters included.
      Hit svc = invoice.get(0);
      assertThat(svc.chunk().raw()).contains("Invoice" + ZWSP + "Reconcile" + ZWSP + "Job");
    }
  }

  // R33: a dotted class name, a URL path and a file path, whole and by their parts.
  @Test
  void r33_should_match_compound_identifiers_whole_and_by_parts() throws IOException {
    try (OpenBook book = corpus("r33",
        "sync.md", "# 订单同步\n订单同步由 com.acme.billing.InvoiceSyncService 负责，每十分钟运行一次。"
            + "导出接口的地址是 /api/v2/orders/export，调用时需要带上部门令牌。配置文件位于 "
            + "conf/sync-worker.yaml。\n",
        "cache.md", "# 缓存刷新\n商品缓存由 CacheWarmupService 每天早上六点预热，手动刷新可以调用 "
            + "/api/v2/cache/refresh 接口。\n",
        // constructed: snake_case and a class name, and a document with only their parts
        "retry.md", "# 重试策略\n重试次数由配置项 max_retry_count 控制，实现类是 "
            + "org.acme.net.RetryPolicyHandler，日志写入 /var/log/acme/retry-worker.log。\n",
        "parts.md", "# 术语\nretry 的 policy 由 handler 决定，max count 见 net 模块。\n")) {
      List<Hit> sync = search(book, "InvoiceSyncService");
      assertThat(source(sync.get(0))).isEqualTo("sync.md");
      assertThat(sync.get(0).sparseRank()).isEqualTo(1);
      assertThat(bm25Sources(book, "billing")).contains("sync.md");
      assertThat(bm25Sources(book, "sync-worker.yaml")).contains("sync.md");
      assertThat(bm25First(book, "com.acme.billing.InvoiceSyncService")).isEqualTo("sync.md");
      assertThat(bm25First(book, "/api/v2/orders/export")).isEqualTo("sync.md");

      assertThat(bm25First(book, "RetryPolicyHandler")).isEqualTo("retry.md");
      assertThat(bm25First(book, "org.acme.net.RetryPolicyHandler")).isEqualTo("retry.md");
      assertThat(bm25First(book, "max_retry_count")).isEqualTo("retry.md");
      assertThat(bm25Sources(book, "retry-worker.log")).first().isEqualTo("retry.md");
    }
  }

  // R35: BM25's only match shares one common word with the question.
  @Test
  void r35_should_not_let_a_lone_weak_bm25_match_outrank_the_dense_answer() throws IOException {
    try (OpenBook book = corpus("r35",
        "shuttle.md", "# 通勤巴士\n通勤巴士每天早上七点半从地铁站出发，晚上六点十分从园区南门返回。\n",
        "party.md", "# 年会\n公司年会在十二月举行，具体地点另行通知。\n")) {
      List<Hit> hits = search(book, "公司班车几点发车");
      assertThat(source(hits.get(0))).isEqualTo("shuttle.md");
      // The ask half of R35 (answer cites shuttle.md) is the extractive generator's and gate's
      // part of the fix (issue 13); retrieval now puts shuttle.md first.
    }
    // constructed, same kind: the only BM25 match is the common word 公司 in a notice
    try (OpenBook book = corpus("r35b",
        "canteen.md", "# 员工食堂\n员工食堂的午餐从十一点半供应到一点，晚餐从五点半开始。\n",
        "notice.md", "# 通知\n公司通知一律通过邮件发送，请留意收件箱。\n")) {
      assertThat(source(search(book, "公司食堂中午几点开饭").get(0))).isEqualTo("canteen.md");
    }
  }

  private static OpenBook corpus(String name, String... files) throws IOException {
    Path docs = tmp.resolve(name).resolve("docs");
    Files.createDirectories(docs);
    for (int i = 0; i < files.length; i += 2) {
      Files.writeString(docs.resolve(files[i]), files[i + 1], StandardCharsets.UTF_8);
    }
    OpenBook book = OpenBook.builder().index(tmp.resolve(name).resolve("index"))
        .embedder(model).mode(OpenBook.Mode.RESET).build();
    book.ingest(docs, IngestListener.NONE);
    return book;
  }

  private static List<Hit> search(OpenBook book, String question) throws IOException {
    return book.retriever().retrieve(book.query(question, Principal.ANONYMOUS, 5)).hits();
  }

  /** Sources of the BM25 route's results, BM25 rank 1 first. */
  private static List<String> bm25Sources(OpenBook book, String question) throws IOException {
    return search(book, question).stream()
        .filter(h -> h.sparseRank() > 0)
        .sorted(java.util.Comparator.comparingInt(Hit::sparseRank))
        .map(BatchTwoRetrievalTest::source)
        .toList();
  }

  private static String bm25First(OpenBook book, String question) throws IOException {
    List<String> s = bm25Sources(book, question);
    assertThat(s).as("BM25 results for %s", question).isNotEmpty();
    return s.get(0);
  }

  private static List<String> sources(List<Hit> hits) {
    return hits.stream().map(BatchTwoRetrievalTest::source).toList();
  }

  private static String source(Hit h) {
    return h.chunk().source();
  }
}
