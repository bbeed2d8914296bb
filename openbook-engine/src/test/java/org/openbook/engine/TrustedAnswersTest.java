package org.openbook.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openbook.answer.Answer;
import org.openbook.answer.AnswerStatus;
import org.openbook.answer.Answerer;
import org.openbook.answer.Citation;
import org.openbook.embed.BgeSmallZhEmbedder;
import org.openbook.embed.Embedder;
import org.openbook.ingest.IngestListener;
import org.openbook.retrieve.Principal;

/**
 * R28 and R35 end to end with the real bge model, the default configuration and the extractive
 * generator (no LLM), plus one constructed input of each kind.
 */
class TrustedAnswersTest {

  @TempDir static Path tmp;
  private static Embedder embedder;

  @BeforeAll
  static void loadModel() {
    embedder = new BgeSmallZhEmbedder();
  }

  private static OpenBook engine(String name, Map<String, String> files) throws IOException {
    Path docs = tmp.resolve(name + "-docs");
    for (var f : files.entrySet()) {
      Files.createDirectories(docs);
      Files.writeString(docs.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
    }
    OpenBook e = OpenBook.builder().index(tmp.resolve(name + "-index")).embedder(embedder)
        .mode(OpenBook.Mode.RESET).build();
    e.ingest(docs, IngestListener.NONE);
    return e;
  }

  private static Answer ask(OpenBook e, String question) {
    return e.ask(question, Principal.ANONYMOUS, Answerer.Listener.NONE);
  }

  private static final Map<String, String> R28 = Map.of(
      "device.md", "# 外设接入规定\n\n办公电脑的 USB 接口只允许接入信息部登记过的加密U盘。"
          + "接入未登记的设备会在监控平台产生告警 ERR_4517，并自动禁用该接口十分钟。\n",
      "vpn.md", "# 远程访问\n\n在家办公需要先连接公司 VPN。VPN 会话空闲三十分钟后自动断开，"
          + "重新连接需要再次输入动态口令。\n");

  @Test
  void should_answer_short_and_identifier_questions_and_refuse_unrelated_ones_r28()
      throws IOException {
    try (OpenBook e = engine("r28", R28)) {
      assertAnsweredFrom(ask(e, "ERR_4517 是什么意思"), "device.md");
      assertAnsweredFrom(ask(e, "VPN"), "vpn.md");
      assertAnsweredFrom(ask(e, "动态口令"), "vpn.md");
      assertThat(ask(e, "明天天气怎么样").status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
      assertThat(ask(e, "你是谁").status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
      // constructed: a code one digit off is refused, naming the code
      Answer near = ask(e, "ERR_4518 是什么意思");
      assertThat(near.status().name()).startsWith("REFUSED");
      if (near.status() == AnswerStatus.REFUSED_BY_MODEL) {
        assertThat(near.text()).contains("ERR_4518");
      }
    }
  }

  @Test
  void should_answer_a_short_rare_term_question_of_a_constructed_corpus_r28_kind()
      throws IOException {
    try (OpenBook e = engine("r28b", Map.of(
        "print.md", "# 打印服务\n\n三楼打印机支持 AirPrint，驱动安装包在共享盘的 drivers 目录。\n",
        "meal.md", "# 用餐\n\n员工餐厅十一点半开始供应午餐。\n"))) {
      assertAnsweredFrom(ask(e, "AirPrint"), "print.md");
      assertThat(ask(e, "你好吗").status()).isEqualTo(AnswerStatus.REFUSED_NO_EVIDENCE);
    }
  }

  @Test
  void should_answer_from_the_shuttle_passage_with_the_departure_time_r35() throws IOException {
    try (OpenBook e = engine("r35", Map.of(
        "shuttle.md", "# 通勤巴士\n\n通勤巴士每天早上七点半从地铁站出发，晚上六点十分从园区南门返回。\n",
        "party.md", "# 年会\n\n公司年会在十二月举行，具体地点另行通知。\n"))) {
      Answer a = ask(e, "公司班车几点发车");

      assertThat(a.status()).isEqualTo(AnswerStatus.ANSWERED);
      assertThat(a.citations()).extracting(Citation::source).contains("shuttle.md");
      assertThat(a.text()).contains("七点半");
    }
  }

  @Test
  void should_not_answer_from_a_passage_that_matches_only_a_common_word_r35_kind()
      throws IOException {
    try (OpenBook e = engine("r35b", Map.of(
        "shuttle.md", "# 通勤巴士\n\n通勤巴士每天早上七点半从地铁站出发，晚上六点十分从园区南门返回。\n",
        "party.md", "# 年会\n\n公司年会在十二月举行，具体地点另行通知。\n",
        "canteen.md", "# 园区食堂\n\n园区食堂位于二号楼一层，早餐七点开始。\n"))) {
      // nothing says where the party is held: the 公司 match alone must not make it an answer
      Answer a = ask(e, "公司的年会场地在哪个酒店？");

      assertThat(a.status().name()).startsWith("REFUSED");
    }
  }

  private static void assertAnsweredFrom(Answer a, String source) {
    assertThat(a.status()).as(a.text()).isEqualTo(AnswerStatus.ANSWERED);
    assertThat(a.citations()).extracting(Citation::source).contains(source);
  }
}
