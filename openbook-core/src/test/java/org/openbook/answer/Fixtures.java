package org.openbook.answer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.openbook.chunk.Chunk;
import org.openbook.retrieve.Hit;

/** Builds chunks, hits and sources for answer tests. */
final class Fixtures {

  private Fixtures() {}

  static Chunk chunk(String id, String source, String text) {
    return new Chunk(id, source, 0, text, text, List.of(), 0, 0, text.length(),
        Map.of("source", source, "dept", "public"));
  }

  static Hit hit(String id, String source, String text, double cosine) {
    return new Hit(chunk(id, source, text), 1, cosine, 1, 1.0, 0.03, Double.NaN);
  }

  /** Sources [1]..[k] from alternating (path, text) pairs. */
  static List<Source> sources(String... pathAndText) {
    List<Source> out = new ArrayList<>();
    for (int i = 0; i < pathAndText.length; i += 2) {
      int n = i / 2 + 1;
      out.add(Source.of(n, hit(pathAndText[i] + "#" + n, pathAndText[i], pathAndText[i + 1], 0.9)));
    }
    return out;
  }

  /** The R21 context. */
  static List<Source> r21Sources() {
    return sources(
        "hr/leave.md", "年假需提前三天申请。",
        "hr/leave.md", "未休年假可顺延至次年三月。",
        "it/vpn.md", "VPN账号由IT部门开通。");
  }
}
