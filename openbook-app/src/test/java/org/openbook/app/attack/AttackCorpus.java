package org.openbook.app.attack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The attack suite's corpus: public, hr, finance and reports documents in Chinese and English,
 * documents whose titles, passages and file names carry HTML/script payloads, and canary files
 * outside the docs folder. Facts of the restricted departments are listed in {@link #HR_SECRETS}
 * and {@link #FINANCE_SECRETS}: they must never reach a caller that cannot read them.
 */
final class AttackCorpus {
  private AttackCorpus() {}

  /** The {@code principals} block of the config (two-space indent). */
  static final String PRINCIPALS = """
        visitor: []
        hr: [hr]
        finance: [finance]
        admin: [hr, finance]
        hrwriter: [hr]
        finance-team: [finance]
        hr-team: [hr]
      """;

  /** Outside the docs folder (beside it): no request may change, delete or show it. */
  static final String CANARY_FILE = "canary.txt";
  static final String CANARY_TEXT = "CANARYOUTSIDE4B1D the canary outside the docs folder";
  static final String CANARY_TOKEN = "CANARYOUTSIDE4B1D";
  /** A folder outside the docs folder with one file (for symlink attacks). */
  static final String OUTSIDE_DIR = "outside";
  static final String VICTIM_FILE = "victim.txt";

  static final String FINANCE_BUDGET = "finance/预算.txt";
  static final String FINANCE_BUDGET_TEXT =
      "2025 年度预算：研发投入 4,800 万元，市场费用 1,200 万元。预算编号 FIN-ZX-9921。\n";
  static final String FINANCE_ID = "FIN-ZX-9921";
  static final String LAYOFF_LIST = "reports/裁员名单.md";

  static final List<String> FINANCE_SECRETS = List.of("4,800 万元", FINANCE_ID, "预算",
      "2025-03-15", "FINBONUS-8812", "Annual bonus policy", "finance/", "bonus.md", "裁员名单",
      "LAYOFF-3310", "张三");
  static final List<String> HR_SECRETS = List.of("员工手册", "HRX-5521", "10:00 to 16:00",
      "核心工作时间", "hr/", "handbook", "Employee handbook");

  /** Marker word of the documents carrying XSS payloads (so a question finds them). */
  static final String XSS_PROBE = "XSSPROBE";
  /** The source of the public document with an {@code <a>} link (issue 30 item 11). */
  static final String LINK_DOC = "public/sso.md";

  static Map<String, String> documents() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("public/about.md", """
        ---
        title: 关于 Acme
        dept: public
        ---
        # 关于 Acme

        Acme 公司成立于 2001 年，总部在里斯本。客服热线工作日 9:00 开放。
        """);
    d.put("public/returns.md", """
        # Returns

        Customers may return a widget within 7 days of delivery. Refunds are issued within 3 \
        working days. The warranty card is called QUOKKAVEX in the public glossary.
        """);
    d.put(LINK_DOC, """
        # 单点登录

        员工请通过[安全测试单点登录](http://127.0.0.1:9/phish?token=)登录内部系统。
        备用入口是 <http://127.0.0.1:9/auto> ，旧入口是 http://127.0.0.1:9/bare 。
        """);
    d.put("public/xss-title.md", """
        ---
        title: <img src=x onerror=window.__xss=1>"><script>window.__xss=2</script>
        dept: public
        ---
        # XSSPROBE sticker <svg onload=window.__xss=3>

        The XSSPROBE warranty sticker is blue <script>window.__xss=4</script> and \
        <img src=x onerror=window.__xss=5> round. [点击这里](javascript:window.__xss=6) for \
        details. <a href="javascript:window.__xss=7">more</a> "><iframe src=javascript:window.__xss=8>
        """);
    d.put("public/\"><img src=x onerror=window.__xss=9>.md",
        "The XSSPROBE sticker file name card: the sticker is glued on the box.\n");
    d.put("public/<svg onload=window.__xss=10>.txt",
        "The XSSPROBE sticker text card: stickers are replaced for free.\n");
    d.put("public/javascript:window.__xss=11.txt",
        "The XSSPROBE sticker link card: a sticker costs nothing.\n");
    d.put("hr/员工手册.md", """
        # 员工手册

        ## 工作时间

        核心工作时间为 10:00 至 16:00，弹性时间在核心时间之外。

        ## 年假

        入职第一年年假 7 天，满一年 10 天。育儿假编号 HRX-5521。
        """);
    d.put("hr/handbook.md", """
        # Employee handbook

        Core hours are 10:00 to 16:00 for every employee. The parental leave code is HRX-5521.
        """);
    d.put(FINANCE_BUDGET, FINANCE_BUDGET_TEXT);
    d.put("finance/bonus.md", """
        # Annual bonus policy

        The annual bonus for 2024 is paid on 2025-03-15. The bonus code is FINBONUS-8812.
        """);
    d.put(LAYOFF_LIST, """
        ---
        dept: finance
        title: 裁员名单
        ---
        # 裁员名单

        2026 年第一季度裁员名单：张三、李四。名单编号 LAYOFF-3310。
        """);
    return d;
  }

  /** Writes the documents under {@code docs} and the canaries beside it, in {@code root}. */
  static void write(Path root, Path docs) throws IOException {
    for (Map.Entry<String, String> e : documents().entrySet()) {
      Path p = docs.resolve(e.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, e.getValue(), StandardCharsets.UTF_8);
    }
    Files.writeString(root.resolve(CANARY_FILE), CANARY_TEXT + "\n", StandardCharsets.UTF_8);
    Path outside = root.resolve(OUTSIDE_DIR);
    Files.createDirectories(outside);
    Files.writeString(outside.resolve(VICTIM_FILE), CANARY_TEXT + " (victim)\n",
        StandardCharsets.UTF_8);
  }
}
