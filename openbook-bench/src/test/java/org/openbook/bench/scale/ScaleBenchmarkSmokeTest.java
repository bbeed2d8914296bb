package org.openbook.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.testing.HashEmbedder;

/**
 * The scale benchmark end to end on a tiny generated corpus (60 passages grown to 2,000 chunks,
 * hash vectors, no model): it completes and writes its report and charts. No timings are
 * asserted; the real figures come from the command in docs/PERFORMANCE.md.
 */
class ScaleBenchmarkSmokeTest {

  private static final String[] SUBJECTS = {"备份服务", "审批流程", "报销单", "VPN 客户端",
      "数据库 ERR_4517", "年假制度", "合同模板", "日志采集"};
  private static final String[] VERBS = {"需要在每月底检查", "由部门经理负责确认", "出现故障时应重启",
      "的配置文件位于 /etc/app 目录", "可在内网门户中申请", "每周自动归档一次"};

  @Test
  void writesReportAndChartsForEverySize(@TempDir Path tmp) throws Exception {
    Random random = new Random(3);
    List<SourcePassage> sources = new ArrayList<>();
    for (int p = 0; p < 60; p++) {
      List<String> sentences = new ArrayList<>();
      for (int s = 0; s < 3 + random.nextInt(4); s++) {
        sentences.add(SUBJECTS[random.nextInt(SUBJECTS.length)]
            + VERBS[random.nextInt(VERBS.length)] + "（第" + p + "节）。");
      }
      String prefix = "手册 " + (p % 5);
      sources.add(new SourcePassage(p % 2 == 0 ? "a" : "b", prefix, sentences,
          prefix + "\n" + String.join("", sentences)));
    }
    List<String> questions = List.of("备份服务什么时候检查？", "年假怎么申请", "ERR_4517 怎么办",
        "合同模板在哪里", "VPN 客户端故障", "报销单谁确认");
    HashEmbedder model = new HashEmbedder();
    ScaleBenchmark.Run run = new ScaleBenchmark.Run(sources, questions, model, model, null,
        new int[] {1000, 2000}, 2, 6, 20, null, 42, 40, tmp.resolve("work"), tmp.resolve("out"));
    run.execute();

    Path md = tmp.resolve("out").resolve(ScaleReport.MARKDOWN);
    String report = Files.readString(md);
    assertTrue(report.contains("| 1,000 |") && report.contains("| 2,000 |"), report);
    assertTrue(report.contains("## Validation of the derived vectors"), report);
    // 2 sizes × 3 filters × 2 top-k values
    assertEquals(12, report.lines().filter(l -> l.matches("\\| [0-9,]+ \\| [a-z+]+ \\| .*"))
        .count(), report);
    assertTrue(Files.size(tmp.resolve("out").resolve(ScaleReport.LATENCY_PNG)) > 0);
    assertTrue(Files.size(tmp.resolve("out").resolve(ScaleReport.THROUGHPUT_PNG)) > 0);
  }
}
