package org.openbook.answer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openbook.analysis.OpenBookAnalysis;
import org.openbook.analysis.TextAnalysis;
import org.openbook.index.AccessFilter;
import org.openbook.index.ChunkStore.TermStatistics;
import org.openbook.retrieve.Hit;

class EvidenceGateTest {

  static final AccessFilter ALL = new AccessFilter(Set.of("public"));

  private static final TextAnalysis ANALYSIS = OpenBookAnalysis.defaultAnalysis();

  /** Document frequencies counted over {@code texts}, as the index would. */
  static TermStatistics statsOf(List<String> texts) {
    Map<String, Long> df = new HashMap<>();
    for (String t : texts) {
      for (String token : new HashSet<>(ANALYSIS.tokenize(t))) {
        df.merge(token, 1L, Long::sum);
      }
    }
    // one department: every filter sees all of them
    return new TermStatistics() {
      @Override public long docCount(AccessFilter filter) { return texts.size(); }
      @Override public long docFreq(String term, AccessFilter filter) {
        return df.getOrDefault(term, 0L);
      }
    };
  }

  private static final String DEVICE = "# 外设接入规定\n办公电脑的 USB 接口只允许接入信息部登记过的加密U盘。"
      + "接入未登记的设备会在监控平台产生告警 ERR_4517，并自动禁用该接口十分钟。";
  private static final String VPN = "# 远程访问\n在家办公需要先连接公司 VPN。VPN 会话空闲三十分钟后自动断开，"
      + "重新连接需要再次输入动态口令。";

  private static EvidenceGate r28Gate() {
    return new EvidenceGate(0.53, EvidenceGate.DEFAULT_LEXICAL_THRESHOLD, ANALYSIS,
        statsOf(List.of(DEVICE, VPN)));
  }

  private static List<Hit> r28Hits(double cosine) {
    return List.of(Fixtures.hit("device.md#0", "device.md", DEVICE, cosine),
        Fixtures.hit("vpn.md#0", "vpn.md", VPN, cosine - 0.05));
  }

  @Test
  void should_pass_short_and_identifier_questions_that_bm25_matches_exactly_r28() {
    EvidenceGate gate = r28Gate();

    EvidenceGate.Verdict code = gate.judge("ERR_4517 是什么意思", r28Hits(0.45), Double.NaN, ALL);
    assertThat(code.passes()).isTrue();
    assertThat(code.matchedTerm()).isEqualTo("ERR_4517");
    assertThat(code.signal(0.53, 0.8)).isEqualTo("identifier");

    EvidenceGate.Verdict vpn = gate.judge("VPN", r28Hits(0.45), Double.NaN, ALL);
    assertThat(vpn.passes()).isTrue();
    assertThat(vpn.bestLexical()).isEqualTo(1.0);
    assertThat(vpn.signal(0.53, 0.8)).isEqualTo("lexical");

    assertThat(gate.judge("动态口令", r28Hits(0.45), Double.NaN, ALL).bestLexical()).isEqualTo(1.0);
    assertThat(gate.judge("动态口令", r28Hits(0.45), Double.NaN, ALL).passes()).isTrue();
  }

  @Test
  void should_still_refuse_questions_with_neither_lexical_nor_semantic_support_r28() {
    EvidenceGate gate = r28Gate();

    EvidenceGate.Verdict weather = gate.judge("明天天气怎么样", r28Hits(0.40), Double.NaN, ALL);
    assertThat(weather.passes()).isFalse();
    assertThat(weather.bestLexical()).isZero();
    // no key terms at all: only the dense signal counts
    EvidenceGate.Verdict who = gate.judge("你是谁", r28Hits(0.40), Double.NaN, ALL);
    assertThat(who.passes()).isFalse();
    assertThat(who.bestLexical()).isNaN();
    assertThat(gate.judge("你是谁", r28Hits(0.60), Double.NaN, ALL).passes()).isTrue();
  }

  @Test
  void should_not_count_a_match_on_common_words_only() {
    // 公司 is in every chunk (IDF ≈ 0.05); 食堂 and 午饭 in none
    List<String> corpus = List.of("公司年会在十二月举行。", "公司通勤巴士七点半出发。", "公司核心时段十点到四点。",
        "公司报销须在十五个工作日内提交。");
    EvidenceGate gate = new EvidenceGate(0.53, 0.8, ANALYSIS, statsOf(corpus));
    List<Hit> hits = List.of(Fixtures.hit("a#0", "a.md", corpus.get(0), 0.45));

    EvidenceGate.Verdict v = gate.judge("公司食堂午饭几点开始", hits, Double.NaN, ALL);

    assertThat(v.passes()).isFalse();
    assertThat(v.bestLexical()).isLessThan(0.05);
  }

  @Test
  void should_refuse_an_identifier_that_only_shares_its_digits_with_the_documents() {
    EvidenceGate.Verdict v = r28Gate().judge("ERR_4519 是什么意思", r28Hits(0.45), Double.NaN, ALL);

    assertThat(v.passes()).isFalse();
    assertThat(v.matchedTerm()).isEmpty();
  }

  @Test
  void should_keep_the_old_rule_when_dense_only() {
    EvidenceGate gate = EvidenceGate.denseOnly(0.53);

    assertThat(gate.judge("ERR_4517 是什么意思", r28Hits(0.45), Double.NaN, ALL).passes()).isFalse();
    assertThat(gate.judge("ERR_4517 是什么意思", r28Hits(0.60), Double.NaN, ALL).passes()).isTrue();
    assertThat(gate.lexical()).isFalse();
  }

  @Test
  void should_judge_the_given_hits_and_use_the_fallback_only_without_dense_scores() {
    Hit noDense = new Hit(Fixtures.chunk("a#0", "a.md", "内容"), 0, Double.NaN, 1, 2.0, 0.5,
        Double.NaN);

    assertThat(EvidenceGate.denseOnly(0.53).judge("内容", List.of(noDense), 0.6, ALL).bestDense())
        .isEqualTo(0.6);
    assertThat(EvidenceGate.denseOnly(0.53).judge("内容", r28Hits(0.45), 0.9, ALL).bestDense())
        .isEqualTo(0.45);
  }
}
