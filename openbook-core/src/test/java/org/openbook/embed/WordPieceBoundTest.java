package org.openbook.embed;

import static org.assertj.core.api.Assertions.assertThat;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.langchain4j.model.embedding.onnx.bgesmallenv15q.BgeSmallEnV15QuantizedEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.bgesmallzhv15.BgeSmallZhV15EmbeddingModel;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openbook.testing.SharedData;

/**
 * The character bound of {@link WordPieceBound} against the real tokenizers of both shipped
 * models (bge-small-zh-v1.5: no lowercasing or accent stripping; bge-small-en-v1.5: lowercasing
 * with NFD accent stripping): it must never be below the exact count.
 */
class WordPieceBoundTest {

  private static HuggingFaceTokenizer zh;
  private static HuggingFaceTokenizer en;

  @BeforeAll
  static void load() throws IOException {
    zh = tokenizer(BgeSmallZhV15EmbeddingModel.class, "/bge-small-zh-v1.5-tokenizer.json");
    en = tokenizer(BgeSmallEnV15QuantizedEmbeddingModel.class,
        "/bge-small-en-v1.5-q-tokenizer.json");
  }

  @AfterAll
  static void close() {
    zh.close();
    en.close();
  }

  private static HuggingFaceTokenizer tokenizer(Class<?> anchor, String resource)
      throws IOException {
    try (InputStream in = anchor.getResourceAsStream(resource)) {
      return HuggingFaceTokenizer.newInstance(in, Map.of("truncation", "false"));
    }
  }

  private static int count(HuggingFaceTokenizer t, String text) {
    return t.encode(text).getIds().length;
  }

  private static void assertBounds(String text) {
    int bound = WordPieceBound.atMost(text);
    assertThat(bound).as("bound of %s vs zh", text).isGreaterThanOrEqualTo(count(zh, text));
    assertThat(bound).as("bound of %s vs en", text).isGreaterThanOrEqualTo(count(en, text));
  }

  @Test
  void should_equal_the_exact_count_for_chinese_prose_and_punctuation() {
    String text = "年假申请需提前三天提交，经部门负责人审批后生效。";
    assertThat(WordPieceBound.atMost(text)).isEqualTo(count(zh, text)).isEqualTo(24 + 2);
    assertThat(WordPieceBound.atMost("")).isEqualTo(2).isEqualTo(count(zh, ""));
  }

  @Test
  void should_not_count_whitespace() {
    assertThat(WordPieceBound.atMost("a b\tc\n d")).isEqualTo(4 + 2);
    assertThat(WordPieceBound.atMost("a\u00a0b")).isEqualTo(3 + 2); // NBSP counted: not whitespace in Java
  }

  @Test
  void should_count_characters_that_decompose_into_several_as_several() {
    assertThat(WordPieceBound.weightOf('한')).isEqualTo(3); // NFD: ᄒ ᅡ ᆫ
    assertThat(WordPieceBound.weightOf('가')).isEqualTo(2); // NFD: ᄀ ᅡ
    assertThat(WordPieceBound.weightOf('é')).isEqualTo(2); // NFD: e + U+0301 (kept: zh does not strip)
    assertThat(WordPieceBound.weightOf('年')).isEqualTo(1);
  }

  @Test
  void should_never_be_below_the_exact_count_on_constructed_hard_cases() {
    List<String> hard = List.of(
        "年假申请", "The quick brown fox jumps over the lazy dog.",
        "trace com.example.DemoService getUserById -n 5 --skipJDKMethod false",
        "Crème brûlée à la française, İstanbul, ÆØÅ, ß, ﬁ ligature",
        "한국어 문장입니다. 서울특별시", "がぎぐげご パピプペポ ｶﾞｷﾞ", "😀👍🏽 𠀀𠀁 emoji and CJK Ext-B",
        "\u0301\u0302 lone combining marks \u0308", "বাংলা কো ভাষা", "\ud834\udd5e\ud834\udd5f notes",
        "[UNK] [CLS] [SEP] [MASK] literal special tokens", "x".repeat(150) + " word over 100 chars",
        "control\u0001\u001f\u0085chars\u200b\u200dzero-width", "ＦＵＬＬＷＩＤＴＨ １２３",
        "12345678901234567890 3.1415926 0x7fffffff", "Ǆ ǅ ǆ Ǳ ﬀ ẞ ΐ ΰ ǰ",
        "\ud800 lone high surrogate and \udc00 lone low");
    for (String t : hard) {
      assertBounds(t);
    }
  }

  @Test
  void should_never_be_below_the_exact_count_on_random_mixed_text() {
    Random random = new Random(42);
    int[][] ranges = {{0x20, 0x7e}, {0xa0, 0x24f}, {0x300, 0x36f}, {0x370, 0x3ff},
        {0x400, 0x4ff}, {0x980, 0x9ff}, {0x3000, 0x30ff}, {0x4e00, 0x9fff}, {0xac00, 0xd7a3},
        {0xff00, 0xffef}, {0x1d15e, 0x1d164}, {0x1f600, 0x1f64f}, {0x9, 0xd}};
    for (int i = 0; i < 1000; i++) {
      StringBuilder b = new StringBuilder();
      int len = 1 + random.nextInt(60);
      for (int j = 0; j < len; j++) {
        int[] r = ranges[random.nextInt(ranges.length)];
        b.appendCodePoint(r[0] + random.nextInt(r[1] - r[0] + 1));
      }
      assertBounds(b.toString());
    }
  }

  @Test
  void should_never_be_below_the_exact_count_on_every_paragraph_of_the_docs_folders()
      throws IOException {
    List<String> paragraphs = new ArrayList<>();
    for (String folder : List.of("datasets/docs-zh/arthas", "datasets/docs-en")) {
      Path root = SharedData.require(folder);
      try (Stream<Path> files = Files.walk(root)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".md")).sorted().limit(40)
            .toList()) {
          for (String p : Files.readString(f, StandardCharsets.UTF_8).split("\\n\\s*\\n")) {
            if (!p.isBlank()) {
              paragraphs.add(p);
            }
          }
        }
      }
    }
    assertThat(paragraphs).hasSizeGreaterThan(300);
    for (String p : paragraphs) {
      assertBounds(p);
    }
  }

  @Test
  void should_show_that_a_default_size_chunk_fits_512_tokens_without_tokenizing() {
    // the default chunker budget: 400 chars of raw text under an 80-char heading prefix
    String embedText = "标".repeat(80) + "\n" + "文".repeat(400);
    assertThat(WordPieceBound.atMost(embedText)).isEqualTo(482).isLessThanOrEqualTo(512);
  }
}
