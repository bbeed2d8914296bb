package org.openbook.chunk;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openbook.document.Document;
import org.openbook.document.Section.Kind;
import org.openbook.document.Section;
import org.openbook.testing.SharedData;

/**
 * Property tests over real Chinese documentation (the Arthas docs in the shared data sets). The
 * documents are built here without a Markdown parser: one section per blank-line-separated block,
 * {@code #} blocks set the heading path, {@code |} blocks are tables, fenced blocks without blank
 * lines are code, everything else is a paragraph.
 */
class StructuredChunkerCorpusTest {

  private static final Pattern BLOCK = Pattern.compile("(?s).+?(?=\\n[ \\t]*\\n|\\z)");

  private static Path arthas() {
    return SharedData.require("datasets/docs-zh/arthas");
  }

  private static List<Document> documents() throws IOException {
    List<Document> docs = new ArrayList<>();
    try (Stream<Path> files = Files.list(arthas())) {
      for (Path file : files.filter(f -> f.toString().endsWith(".md")).sorted().toList()) {
        docs.add(toDocument(file));
      }
    }
    assertThat(docs).hasSizeGreaterThan(50);
    return docs;
  }

  private static Document toDocument(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    String source = "arthas/" + file.getFileName();
    List<Section> sections = new ArrayList<>();
    List<String> path = List.of();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      String block = m.group().strip();
      if (block.isEmpty()) {
        continue;
      }
      if (block.startsWith("#") && !block.contains("\n")) {
        path = List.of(block.replaceFirst("^#+\\s*", ""));
        continue;
      }
      Kind kind = Kind.PARAGRAPH;
      if (block.startsWith("|")) {
        kind = Kind.TABLE;
      } else if (block.startsWith("```") && block.endsWith("```") && block.length() > 6) {
        kind = Kind.CODE;
      }
      sections.add(new Section(kind, path, m.start(), m.end()));
    }
    String name = file.getFileName().toString().replace(".md", "");
    return new Document(source, source, name, text, sections, List.of(),
        Map.of("dept", "public"), "h");
  }

  private static void assertInvariants(Document doc, List<Chunk> chunks, ChunkerSettings settings,
      ToIntFunction<String> counter, int maxTokens) {
    String text = doc.text();
    BitSet covered = new BitSet(text.length());
    int previousStart = -1;
    for (int i = 0; i < chunks.size(); i++) {
      Chunk c = chunks.get(i);
      String where = doc.source() + " chunk " + i;
      int copy = Integer.parseInt(c.meta().getOrDefault(StructuredChunker.TABLE_HEADER_CHARS, "0"));
      assertThat(c.raw().substring(copy)).as(where)
          .isEqualTo(text.substring(c.startOffset(), c.endOffset()));
      assertThat(c.startOffset()).as(where).isGreaterThan(previousStart);
      assertThat(c.raw().length()).as(where).isLessThanOrEqualTo(settings.maxChars());
      assertThat(c.raw().isBlank()).as(where).isFalse();
      assertThat(c.ordinal()).isEqualTo(i);
      assertThat(c.id()).isEqualTo(doc.id() + "#" + i);
      assertThat(c.embedText()).as(where).endsWith(c.raw());
      if (counter != null) {
        assertThat(counter.applyAsInt(c.embedText())).as(where).isLessThanOrEqualTo(maxTokens);
      }
      // the chunk lies inside sections of its own heading path
      for (Section s : doc.sections()) {
        if (s.start() < c.endOffset() && c.startOffset() < s.end()) {
          assertThat(s.headingPath()).as(where).isEqualTo(c.headingPath());
        }
      }
      covered.set(c.startOffset(), c.endOffset());
      previousStart = c.startOffset();
    }
    for (Section s : doc.sections()) {
      for (int k = s.start(); k < s.end(); k++) {
        if (!Character.isWhitespace(text.charAt(k))) {
          assertThat(covered.get(k)).as("%s offset %d lost", doc.source(), k).isTrue();
        }
      }
      String body = text.substring(s.start(), s.end()).strip();
      boolean fitsWhole = body.length() <= settings.maxChars()
          && (counter == null || counter.applyAsInt(
              StructuredChunker.prefix(doc.title(), s.headingPath(), settings.maxPrefixChars())
                  + "\n" + body) <= maxTokens);
      if (s.kind() == Kind.CODE && fitsWhole) {
        assertThat(chunks).as("%s code block at %d kept whole", doc.source(), s.start())
            .anySatisfy(c -> assertThat(c.raw()).contains(body));
      }
      if (s.kind() == Kind.TABLE && !fitsWhole) {
        int firstRow = text.indexOf(body, s.start()) + nthLineEnd(body, 2);
        List<Chunk> rowChunks = chunks.stream()
            .filter(c -> c.startOffset() >= firstRow && c.endOffset() <= s.end()).toList();
        List<String> headerCells = Stream.of(body.substring(0, body.indexOf('\n')).split("\\|"))
            .map(String::strip).filter(cell -> !cell.isEmpty()).toList();
        assertThat(rowChunks).as("%s table at %d", doc.source(), s.start())
            .isNotEmpty()
            .allSatisfy(c -> assertThat(c.embedText()).contains(headerCells));
      }
    }
  }

  /** Offset just after the {@code n}-th line break of {@code s} (or its length). */
  private static int nthLineEnd(String s, int n) {
    int at = 0;
    for (int k = 0; k < n; k++) {
      int nl = s.indexOf('\n', at);
      if (nl < 0) {
        return s.length();
      }
      at = nl + 1;
    }
    return at;
  }

  @Test
  void should_keep_invariants_on_every_arthas_document_with_default_settings() throws IOException {
    StructuredChunker chunker = new StructuredChunker(ChunkerSettings.DEFAULT);
    int total = 0;
    for (Document doc : documents()) {
      List<Chunk> chunks = chunker.chunk(doc);
      assertInvariants(doc, chunks, ChunkerSettings.DEFAULT, null, 0);
      total += chunks.size();
    }
    assertThat(total).isGreaterThan(500);
  }

  @Test
  void should_keep_invariants_with_a_small_budget_and_overlap() throws IOException {
    ChunkerSettings settings = new ChunkerSettings(120, 40, 30);
    StructuredChunker chunker = new StructuredChunker(settings);
    boolean splitTable = false;
    for (Document doc : documents()) {
      assertInvariants(doc, chunker.chunk(doc), settings, null, 0);
      splitTable |= doc.sections().stream().anyMatch(
          s -> s.kind() == Kind.TABLE && s.end() - s.start() > 200);
    }
    assertThat(splitTable).as("the corpus exercises table splitting").isTrue();
  }

  @Test
  void should_split_chunks_whose_embed_text_exceeds_the_token_limit() throws IOException {
    ToIntFunction<String> counter = s -> s.length() * 2;
    ChunkerSettings settings = ChunkerSettings.DEFAULT;
    StructuredChunker byChars = new StructuredChunker(settings);
    StructuredChunker byTokens = new StructuredChunker(settings, counter, 512);
    int charChunks = 0;
    int tokenChunks = 0;
    boolean charOnlyExceeds = false;
    for (Document doc : documents()) {
      List<Chunk> plain = byChars.chunk(doc);
      List<Chunk> limited = byTokens.chunk(doc);
      assertInvariants(doc, limited, settings, counter, 512);
      charChunks += plain.size();
      tokenChunks += limited.size();
      charOnlyExceeds |= plain.stream().anyMatch(c -> counter.applyAsInt(c.embedText()) > 512);
    }
    assertThat(charOnlyExceeds).as("without the counter some chunk is over the limit").isTrue();
    assertThat(tokenChunks).isGreaterThan(charChunks);
  }
}
