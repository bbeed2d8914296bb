package org.openbook.document;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Loads plain text ({@code .txt}) in any common encoding (see {@link Charsets} for the detection
 * order: BOM, strict UTF-8, ICU4J with a GB18030 preference).
 *
 * <p>{@link Document#text()} is the decoded content without a BOM. Sections are the paragraphs
 * separated by blank lines (all {@link Section.Kind#PARAGRAPH}, empty heading path). The title is
 * the file name without extension; {@code meta} holds {@code charset} (Java charset name) and
 * {@code dept=public}.
 */
public final class TextLoader implements DocumentLoader {

  /** Metadata key holding the detected charset, e.g. {@code GB18030}. */
  public static final String CHARSET = "charset";

  @Override
  public Set<String> extensions() {
    return Set.of("txt");
  }

  /**
   * {@inheritDoc}
   *
   * @throws LoadException BINARY for non-text content, EMPTY for empty or whitespace-only text
   */
  @Override
  public LoadResult load(Path file, String source) throws IOException, LoadException {
    RawFile raw = RawFile.read(file);
    Charsets.Decoded decoded = Charsets.decode(raw.bytes(), source);
    String text = decoded.text();
    List<Section> sections = new ArrayList<>();
    for (int[] p : TextBlocks.paragraphs(text, 0, text.length())) {
      sections.add(new Section(Section.Kind.PARAGRAPH, List.of(), p[0], p[1]));
    }
    if (sections.isEmpty()) {
      throw new LoadException(LoadException.Reason.EMPTY, source + ": empty or whitespace only");
    }
    Map<String, String> meta =
        Map.of(CHARSET, decoded.charset().name(), Document.DEPT, Document.PUBLIC);
    Document doc = new Document(source, source, RawFile.baseName(file), text, sections, List.of(),
        meta, raw.sha256());
    return new LoadResult(doc,
        decoded.warning().isEmpty() ? List.of() : List.of(decoded.warning()));
  }
}
