package org.openbook.app.server;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.openbook.answer.PromptBuilder;
import org.openbook.answer.RefusalPolicy;
import org.openbook.engine.OpenBook;
import org.openbook.engine.config.ConfigLoader;
import org.openbook.engine.config.OpenBookConfig;
import org.openbook.ingest.IngestListener;
import org.openbook.llm.MockOpenAiServer;
import org.openbook.llm.OpenAiGenerator;
import org.openbook.testing.HashEmbedder;

/**
 * The server the browser tests drive: {@link TestServer#CORPUS} plus a Chinese document, the
 * {@link HashEmbedder}, gate-1 threshold 0.1, and answers written by an {@link OpenAiGenerator}
 * against a {@link MockOpenAiServer} whose scripts each test queues. {@link #restart()} closes
 * the server and the index and opens both again on the same folder and port, as after a
 * process restart. Tokens as in {@link TestServer}: {@code tok-visitor}, {@code tok-hr},
 * {@code tok-admin} (hr, finance; writer), {@code tok-editor} (public; writer).
 */
final class PageServer implements AutoCloseable {
  /** A Chinese public document: its title comes from front matter, its passage has Han text. */
  static final String ZH_DOC = """
      ---
      title: 净水器保养指南
      dept: public
      ---
      # 滤芯更换

      ZQ-7781 的 PP 棉滤芯建议每 3 个月更换一次，活性炭滤芯每 6 个月更换一次。
      水质较差的地区应缩短更换周期。
      """;

  private static final String CONFIG = """
      principals:
        visitor: []
        hr: [hr]
        admin: [hr, finance]
        editor: []
      gate:
        threshold: 0.1
      server:
        tokens:
          tok-visitor: visitor
          tok-hr: hr
          tok-admin: admin
          tok-editor: editor
        writers: [admin, editor]
        maxBodyBytes: 4096
        maxUploadBytes: 65536
        maxK: 20
        auditLog: %s
      """;

  final Path root;
  final Path docs;
  final MockOpenAiServer llm;
  private final OpenBookConfig config;
  private OpenBook engine;
  private ApiServer server;
  private int port;

  PageServer(Path root, MockOpenAiServer llm) throws IOException {
    this.root = root;
    this.llm = llm;
    this.docs = root.resolve("docs");
    for (Map.Entry<String, String> e : TestServer.CORPUS.entrySet()) {
      write(e.getKey(), e.getValue());
    }
    write("products/zq-7781-care.md", ZH_DOC);
    Path cfg = root.resolve("openbook.yaml");
    Files.writeString(cfg, CONFIG.formatted(root.resolve("audit.log")));
    this.config = ConfigLoader.read(cfg);
    open(true);
    engine.ingest(docs, IngestListener.NONE);
  }

  private void write(String name, String text) throws IOException {
    Path p = docs.resolve(name);
    Files.createDirectories(p.getParent());
    Files.writeString(p, text, StandardCharsets.UTF_8);
  }

  private void open(boolean reset) throws IOException {
    engine = OpenBook.builder().index(root.resolve("index")).config(config)
        .embedder(new HashEmbedder())
        .generator(new OpenAiGenerator(llm.config(10), new PromptBuilder(RefusalPolicy.DEFAULT)))
        .mode(reset ? OpenBook.Mode.RESET : OpenBook.Mode.WRITE).build();
    server = new ApiServer(engine, docs).start("127.0.0.1", port);
    port = server.port();
  }

  /** Stops the server and closes the index, then opens both again on the same folder and port. */
  void restart() throws IOException {
    server.close();
    engine.close();
    open(false);
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  @Override
  public void close() throws IOException {
    server.close();
    engine.close();
  }
}
