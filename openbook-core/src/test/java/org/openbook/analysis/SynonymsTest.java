package org.openbook.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SynonymsTest {

  @TempDir Path tmp;

  @Test
  void should_map_equivalent_terms_to_each_other_and_one_way_rules_one_way() {
    Synonyms s = Synonyms.parse("# comment\n过滤网, 滤网, 滤芯\n班车 => 通勤巴士\nWiFi, WLAN\n");

    assertThat(s.of("过滤网")).containsExactlyInAnyOrder("滤网", "滤芯");
    assertThat(s.of("滤芯")).containsExactlyInAnyOrder("过滤网", "滤网");
    assertThat(s.of("班车")).containsExactly("通勤巴士");
    assertThat(s.of("通勤巴士")).isEmpty();
    assertThat(s.of("wifi")).containsExactly("wlan");
    assertThat(s.of("ＷｉＦｉ")).containsExactly("wlan"); // NFKC + lower case
    assertThat(s.size()).isEqualTo(6); // 过滤网 滤网 滤芯 班车 wifi wlan
  }

  @Test
  void should_expand_a_query_with_the_synonyms_of_the_terms_it_contains() {
    Synonyms s = Synonyms.parse("过滤网, 滤芯\nvpn => 远程访问\n");

    assertThat(s.expand("空气净化器的过滤网多久换一次？"))
        .isEqualTo("空气净化器的过滤网多久换一次？ 滤芯");
    assertThat(s.expand("How do I use VPN?")).isEqualTo("How do I use VPN? 远程访问");
    // a Latin term only at word boundaries; no rules matched → the query unchanged
    assertThat(s.expand("vpnclient crashed")).isEqualTo("vpnclient crashed");
    // a synonym already in the query is not added twice
    assertThat(s.expand("过滤网和滤芯是一回事吗")).isEqualTo("过滤网和滤芯是一回事吗");
    assertThat(Synonyms.NONE.expand("过滤网")).isEqualTo("过滤网");
  }

  @Test
  void should_load_a_file_and_name_it_when_it_is_missing_or_malformed() throws Exception {
    Path file = tmp.resolve("synonyms.txt");
    Files.writeString(file, "带薪假, 年假\n", StandardCharsets.UTF_8);
    assertThat(Synonyms.load(file).of("带薪假")).containsExactly("年假");

    Path missing = tmp.resolve("nope.txt");
    assertThatThrownBy(() -> Synonyms.load(missing))
        .isInstanceOf(UncheckedIOException.class).hasMessageContaining(missing.toString());

    Path bad = tmp.resolve("bad.txt");
    Files.writeString(bad, "a => b => c\n", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Synonyms.load(bad))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(bad.toString());
  }
}
