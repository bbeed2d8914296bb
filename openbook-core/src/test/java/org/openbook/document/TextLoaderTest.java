package org.openbook.document;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextLoaderTest {

  private static final String CHINESE = "旧款净化器已停产。\n\n配件供应到 2026 年 12 月 31 日。\n";

  private final TextLoader loader = new TextLoader();

  @TempDir Path tmp;

  private LoadResult load(String name, byte[] bytes) throws Exception {
    Path f = tmp.resolve(name);
    Files.write(f, bytes);
    return loader.load(f, name);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private static LoadException.Reason reasonOf(ThrowingLoad call) {
    try {
      call.run();
    } catch (LoadException e) {
      return e.reason();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a LoadException");
  }

  interface ThrowingLoad {
    void run() throws Exception;
  }

  @Test
  void should_decode_kb_demo_gbk_file() throws Exception {
    Path f = TestData.shared("fixtures/kb-demo/docs/legacy/旧版说明.txt");
    Document doc = loader.load(f, "legacy/旧版说明.txt").document();

    assertThat(doc.text()).contains("ZQ-5100").contains("2026 年 12 月 31 日").doesNotContain("\uFFFD");
    assertThat(doc.meta()).containsEntry("charset", "GB18030").containsEntry("dept", "public");
    assertThat(doc.title()).isEqualTo("旧版说明");
    TestData.assertOffsetContract(doc);
  }

  @Test
  void should_decode_short_gbk_text_as_gb18030() throws Exception {
    // ICU scores Big5, EUC-JP, EUC-KR, Shift_JIS and GB18030 equally for such a short text
    Document doc = load("short.txt", "短文本测试。".getBytes(Charset.forName("GBK"))).document();

    assertThat(doc.text()).isEqualTo("短文本测试。");
    assertThat(doc.meta()).containsEntry("charset", "GB18030");
  }

  @Test
  void should_keep_big5_text_as_big5() throws Exception {
    Document doc =
        load("big5.txt", "繁體中文測試，這是一段文字。".getBytes(Charset.forName("Big5"))).document();

    assertThat(doc.text()).isEqualTo("繁體中文測試，這是一段文字。");
    assertThat(doc.meta()).containsEntry("charset", "Big5");
  }

  @Test
  void should_decode_utf8_and_strip_its_bom() throws Exception {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    Document doc = load("u8.txt", concat(bom, CHINESE.getBytes(StandardCharsets.UTF_8))).document();

    assertThat(doc.text()).isEqualTo(CHINESE);
    assertThat(doc.meta()).containsEntry("charset", "UTF-8");
  }

  @Test
  void should_decode_utf16_with_bom_in_both_byte_orders() throws Exception {
    byte[] le = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, CHINESE.getBytes(StandardCharsets.UTF_16LE));
    byte[] be = concat(new byte[] {(byte) 0xFE, (byte) 0xFF}, CHINESE.getBytes(StandardCharsets.UTF_16BE));

    assertThat(load("le.txt", le).document().text()).isEqualTo(CHINESE);
    assertThat(load("le.txt", le).document().meta()).containsEntry("charset", "UTF-16LE");
    assertThat(load("be.txt", be).document().text()).isEqualTo(CHINESE);
    assertThat(load("be.txt", be).document().meta()).containsEntry("charset", "UTF-16BE");
  }

  @Test
  void should_detect_utf16_without_bom() throws Exception {
    String text = "Hello, this UTF-16 file has no byte order mark.\n中文也可以。\n";
    Document le = load("le.txt", text.getBytes(StandardCharsets.UTF_16LE)).document();
    Document be = load("be.txt", text.getBytes(StandardCharsets.UTF_16BE)).document();

    assertThat(le.text()).isEqualTo(text);
    assertThat(be.text()).isEqualTo(text);
  }

  @Test
  void should_decode_latin1_text() throws Exception {
    String text = "Café naïve résumé and more English text here.";
    Document doc = load("l1.txt", text.getBytes(StandardCharsets.ISO_8859_1)).document();

    assertThat(doc.text()).isEqualTo(text);
  }

  @Test
  void should_reject_nul_bytes_as_binary() {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0x0D, 'I', 'H', 'D',
        'R', 0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0};

    assertThat(reasonOf(() -> load("x.txt", png))).isEqualTo(LoadException.Reason.BINARY);
  }

  @Test
  void should_reject_text_full_of_control_characters_as_binary() {
    byte[] b = new byte[200];
    for (int i = 0; i < b.length; i++) {
      b[i] = (byte) (i % 3 == 0 ? 'a' : 0x01 + i % 7);
    }

    assertThat(reasonOf(() -> load("x.txt", b))).isEqualTo(LoadException.Reason.BINARY);
  }

  @Test
  void should_reject_empty_and_whitespace_only_files() {
    assertThat(reasonOf(() -> load("e.txt", new byte[0]))).isEqualTo(LoadException.Reason.EMPTY);
    assertThat(reasonOf(() -> load("w.txt", " \n\t\r\n　\n".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(LoadException.Reason.EMPTY);
  }

  @Test
  void should_split_paragraphs_on_blank_lines_with_exact_offsets() throws Exception {
    String text = "\nQ：客服几点上班？\r\nA：9:00-18:00。\r\n   \r\n\r\n  Q：能开发票吗？\nA：能。  \n\n";
    Document doc = load("faq.txt", text.getBytes(StandardCharsets.UTF_8)).document();

    assertThat(doc.text()).isEqualTo(text);
    assertThat(TestData.sectionTexts(doc))
        .containsExactly("Q：客服几点上班？\r\nA：9:00-18:00。", "Q：能开发票吗？\nA：能。");
    assertThat(doc.sections()).allSatisfy(s -> {
      assertThat(s.kind()).isEqualTo(Section.Kind.PARAGRAPH);
      assertThat(s.headingPath()).isEmpty();
    });
    assertThat(doc.sections().get(0).start()).isEqualTo(1);
  }

  @Test
  void should_name_the_file_in_load_errors() {
    assertThatThrownBy(() -> load("empty.txt", new byte[0]))
        .hasMessageContaining("empty.txt");
  }

  @Test
  void should_read_mostly_utf8_text_with_a_few_bad_bytes_as_utf8_and_warn() throws Exception {
    byte[] good = "服务器每晚两点自动备份，备份文件保留三十天。Backups run nightly.\n".repeat(20)
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] bytes = java.util.Arrays.copyOf(good, good.length + 1);
    bytes[good.length] = (byte) 0xFF;
    LoadResult r = load("mostly.txt", bytes);
    assertThat(r.document().text()).startsWith("服务器每晚两点自动备份").endsWith("\uFFFD");
    assertThat(r.document().meta()).containsEntry("charset", "UTF-8");
    assertThat(r.warnings()).singleElement().asString().contains("1 invalid UTF-8");
  }

  @Test
  void should_refuse_random_bytes_with_nul_bytes_even_if_they_look_like_utf16() {
    java.util.Random random = new java.util.Random(42);
    byte[] bytes = new byte[4096];
    random.nextBytes(bytes);
    for (int i = 0; i < bytes.length; i += 7) {
      bytes[i] = 0;
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> load("blob.txt", bytes))
        .isInstanceOf(LoadException.class)
        .satisfies(e -> assertThat(((LoadException) e).reason())
            .isEqualTo(LoadException.Reason.BINARY));
  }
}
